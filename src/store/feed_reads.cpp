#include <algorithm>

#include "store/codec.hpp"
#include "store/reads.hpp"
#include "store/select.hpp"
#include "store/wipe.hpp"

namespace jgrid::store::reads {
namespace {

const std::string k_log_columns =
    "SELECT job_id, sequence, stream, category, source, message, truncated, created_ms FROM logs WHERE job_id = ?";
const std::string k_max_log_sequence = "SELECT COALESCE(MAX(sequence), 0) FROM logs WHERE job_id = ?1";
const std::string k_max_event_sequence = "SELECT COALESCE(MAX(sequence), 0) FROM events WHERE job_id = ?1";
// Past a delete_all_jobs, the floor it recorded (see wipe.hpp).
const std::string k_max_event_seq =
    std::string("SELECT MAX(COALESCE((SELECT MAX(seq) FROM events), 0), COALESCE((SELECT CAST(value AS INTEGER) "
                "FROM settings WHERE key = '") + k_event_seq_floor_key + "'), 0))";

model::LogEntry log_from_row(const sql::Query& row) {
  model::LogEntry entry;
  entry.job_id = row.text(0);
  entry.sequence = row.integer(1);
  entry.stream = row.text(2);
  entry.category = row.text(3);
  entry.source = row.text(4);
  entry.message = row.text(5);
  entry.truncated = row.integer(6) != 0;
  entry.created_ms = row.integer(7);
  return entry;
}

std::vector<model::LogEntry> collect_logs(sql::Query query) {
  std::vector<model::LogEntry> entries;
  while (query.next()) entries.push_back(log_from_row(query));
  return entries;
}

// "all" (or nothing) keeps every stream, platform lines included.
std::string stream_filter(const std::string& stream) { return stream == "all" ? "" : stream; }

Select event_select(const EventQuery& query) {
  if (query.job_id.empty())
    return Select("SELECT doc FROM events WHERE seq > ?", {query.after_seq});
  return Select("SELECT doc FROM events WHERE job_id = ? AND sequence > ?", {query.job_id, query.after_seq});
}

}  // namespace

std::vector<model::Event> list_events(sql::Connection& conn, const EventQuery& query) {
  Select select = event_select(query);
  select.where_set("type = ?", query.type);
  if (query.since_ms > 0) select.where("created_ms >= ?", query.since_ms);
  select.order_limit(query.job_id.empty() ? "seq" : "sequence", std::max(query.limit, 0));
  return collect(select.run(conn), decode_event);
}

std::int64_t max_event_sequence(sql::Connection& conn, const std::string& job_id) {
  auto query = conn.query(k_max_event_sequence);
  query.bind(1, job_id);
  return query.next() ? query.integer(0) : 0;
}

std::vector<model::LogEntry> list_logs(sql::Connection& conn, const LogQuery& query) {
  Select select(k_log_columns, {query.job_id});
  select.where_set("stream = ?", stream_filter(query.stream));
  if (query.tail) {
    select.order_limit("sequence DESC", std::max(*query.tail, 0));
    auto entries = collect_logs(select.run(conn));
    std::reverse(entries.begin(), entries.end());
    return entries;
  }
  select.where("sequence > ?", query.after_sequence);
  select.order_limit("sequence", std::max(query.limit, 0));
  return collect_logs(select.run(conn));
}

std::int64_t max_log_sequence(sql::Connection& conn, const std::string& job_id) {
  auto query = conn.query(k_max_log_sequence);
  query.bind(1, job_id);
  return query.next() ? query.integer(0) : 0;
}

Counters counters(sql::Connection& conn) { return Counters{conn.scalar(k_max_event_seq)}; }

}  // namespace jgrid::store::reads
