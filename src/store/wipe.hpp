#pragma once
// The statements of Store::delete_all_jobs. The caller owns the transaction.
#include <string>
#include <vector>

#include "jgrid/store/store.hpp"
#include "store/sqlite.hpp"

namespace jgrid::store {

// The settings key under which the highest event seq ever given out
// survives the deletion of every event (Counters::max_event_seq reads it).
inline constexpr const char* k_event_seq_floor_key = "event_seq_floor";

// Deletes every job, event, log line, artifact row, input and callback
// outbox row, empties job_counts and records the event seq floor. Returns
// the rows deleted per table. Throws SqliteError part way: the caller rolls back.
DeletedRows delete_all_jobs(sql::Connection& conn);

// Deletes the inputs still pending whose upload slot expired before
// `now_ms`; returns their ids. Throws SqliteError part way (as above).
std::vector<std::string> delete_expired_inputs(sql::Connection& conn, std::int64_t now_ms);

}  // namespace jgrid::store
