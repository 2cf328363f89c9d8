#pragma once
#include <map>
// The store's queries, each on a connection the caller holds. Semantics are
// those of the Store methods of the same name. Throw SqliteError. Job reads
// go through `cache` (see job_cache.hpp).
#include "jgrid/store/store.hpp"
#include "store/job_cache.hpp"
#include "store/sqlite.hpp"

namespace jgrid::store::reads {

std::optional<model::Job> get_job(sql::Connection& conn, JobCache& cache, const std::string& job_id);
JobPage list_jobs(sql::Connection& conn, JobCache& cache, const JobQuery& query);
std::vector<model::Job> live_jobs(sql::Connection& conn, JobCache& cache);
std::optional<model::Job> find_by_idempotency_key(sql::Connection& conn, JobCache& cache,
                                                  const std::string& workspace, const std::string& key);
std::int64_t count_jobs(sql::Connection& conn);
std::map<std::string, std::int64_t> count_jobs_by_status(sql::Connection& conn);
double spent_usd(sql::Connection& conn, const std::string& workspace);

std::vector<model::Event> list_events(sql::Connection& conn, const EventQuery& query);
std::int64_t max_event_sequence(sql::Connection& conn, const std::string& job_id);
std::vector<model::LogEntry> list_logs(sql::Connection& conn, const LogQuery& query);
std::int64_t max_log_sequence(sql::Connection& conn, const std::string& job_id);
Counters counters(sql::Connection& conn);

std::vector<model::Artifact> list_artifacts(sql::Connection& conn, const std::string& job_id);
std::optional<model::Artifact> get_artifact(sql::Connection& conn, const std::string& artifact_id);
std::optional<model::JobInput> get_input(sql::Connection& conn, const std::string& input_id);
std::vector<model::JobInput> list_inputs(sql::Connection& conn, const InputQuery& query);
std::optional<std::string> get_setting(sql::Connection& conn, const std::string& key);
std::vector<model::Delivery> pending_deliveries(sql::Connection& conn, int limit, const DeliveryCursor& after);
std::vector<model::Delivery> list_deliveries(sql::Connection& conn, const std::string& job_id);

}  // namespace jgrid::store::reads
