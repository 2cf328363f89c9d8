#pragma once
// Builds the events and log lines of jobs: ids, the server-wide event seq,
// per-job sequences and ordinals, the event digest, and the per-job log bound. Writes nothing
// itself; callers add what it builds to a WriteBatch. Not synchronised; the
// engine mutex guards it, so seq order is the order batches are queued in.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "jgrid/engine/event_digest.hpp"
#include "jgrid/store/store.hpp"
#include "jgrid/util/clock.hpp"
#include "live_job.hpp"

namespace jgrid::engine {

struct EventSpec {
  std::string type;     // job.*
  std::string source;   // api, router, scheduler, executor, …
  std::string message;
  nlohmann::json data = nlohmann::json::object();
  std::string level = "info";
};

class Recorder {
 public:
  Recorder(const util::Clock& clock, std::int64_t max_log_bytes);

  // The next event gets seq `next` (continues a previous process's numbers).
  void continue_after(std::int64_t max_seq);

  // Appends an event of the job, in the job's current phase, to `batch`.
  void event(LiveJob& live, store::WriteBatch& batch, EventSpec spec);

  // Appends one output line to `batch`, or drops it past the byte bound:
  // the first dropped line adds one platform line and sets log_truncated.
  void output(LiveJob& live, store::WriteBatch& batch, const std::string& stream, const std::string& line);

  // The event log digest (EventDigest) of every event recorded since
  // construction or reset_digest(); "" before the first event, and always
  // when keep_digest(false) (the events still carry their ordinal).
  std::string digest() const { return m_digest.hex(); }
  std::int64_t digested_events() const { return m_digest.events(); }
  void reset_digest();
  void keep_digest(bool keep) { m_keep_digest = keep; }

 private:
  model::LogEntry log_entry(LiveJob& live, const std::string& stream, const std::string& message);

  const util::Clock& m_clock;
  std::int64_t m_max_log_bytes;
  std::int64_t m_next_seq = 1;
  EventDigest m_digest;
  bool m_keep_digest = true;
  std::int64_t m_ordinals = 0;
};

}  // namespace jgrid::engine
