#pragma once
// A lifecycle event of a job (or of a node when job_id is empty).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace jgrid::model {

struct Event {
  std::int64_t seq = 0;       // server-wide order (SSE id of /v1/events); assigned by the engine
  std::string id;             // evt_…
  std::string job_id;         // empty for node.* events
  std::int64_t sequence = 0;  // order within the job, from 1
  std::string type;           // job.submitted …, node.*
  std::string phase;          // the job's phase when it happened
  std::string title;           // empty: event_title(type)
  std::string message;
  std::string source = "api";  // api, screener, router, scheduler, executor, node, callback
  std::string level = "info";  // info, warning, error
  std::int64_t created_ms = 0;
  nlohmann::json data = nlohmann::json::object();
  // The order of the job's first event in this process (the event digest's
  // stand-in for the job id); not stored, 0 when not known.
  std::int64_t ordinal = 0;
};

// docs/api.md §2.7 event object.
nlohmann::json event_to_api(const Event& event);

// The human title of an event type ("job.completed" -> "Job completed").
std::string event_title(const std::string& type);

}  // namespace jgrid::model
