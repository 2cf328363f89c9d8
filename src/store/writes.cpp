#include "store/writes.hpp"

#include "store/codec.hpp"

#include <string_view>
#include <unordered_map>

namespace jgrid::store {
namespace {

// ON CONFLICT(id) rather than REPLACE: REPLACE would also delete another job
// that holds the same idempotency key instead of failing the batch. The
// update sets only what changes after submit (workspace, type, vendor,
// creation time and key never do), so SQLite leaves the indexes on those
// columns alone at each of a job's many writes.
const std::string k_upsert_job =
    "INSERT INTO jobs (id, workspace, status, workload_type, gpu_vendor, created_ms, updated_ms, "
    "idempotency_key, doc, stdout_tail, stderr_tail, cost_usd) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
    "?12) ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_ms = excluded.updated_ms, "
    "doc = excluded.doc, stdout_tail = excluded.stdout_tail, stderr_tail = excluded.stderr_tail, "
    "cost_usd = excluded.cost_usd";
const std::string k_insert_event =
    "INSERT INTO events (seq, id, job_id, sequence, type, created_ms, doc) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
const std::string k_upsert_artifact = "INSERT OR REPLACE INTO artifacts (id, job_id, doc) VALUES (?1, ?2, ?3)";
const std::string k_upsert_input =
    "INSERT OR REPLACE INTO inputs (id, workspace, kind, status, doc) VALUES (?1, ?2, ?3, ?4, ?5)";
const std::string k_upsert_delivery =
    "INSERT INTO callback_outbox (id, job_id, event, state, attempts, next_attempt_ms, created_ms, last_error, body) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (id) DO UPDATE SET state = excluded.state, "
    "attempts = excluded.attempts, next_attempt_ms = excluded.next_attempt_ms, last_error = excluded.last_error";
const std::string k_upsert_setting = "INSERT OR REPLACE INTO settings (key, value) VALUES (?1, ?2)";

void upsert_job(sql::Connection& conn, const model::Job& job) {
  conn.query(k_upsert_job)
      .bind(1, job.id)
      .bind(2, job.workspace)
      .bind(3, model::to_string(job.status))
      .bind(4, model::to_string(job.spec->workload_type))
      .bind(5, model::effective_vendor(job.spec))
      .bind(6, job.created_ms)
      .bind(7, job.updated_ms)
      .bind(8, job.idempotency_key)
      .bind(9, encode_job(job))
      .bind(10, job.stdout_tail)
      .bind(11, job.stderr_tail)
      .bind_real(12, job.actual_cost_usd.value_or(0.0))
      .run();
}

void insert_event(sql::Connection& conn, const model::Event& event) {
  conn.query(k_insert_event)
      .bind(1, event.seq)
      .bind(2, event.id)
      .bind(3, event.job_id)
      .bind(4, event.sequence)
      .bind(5, event.type)
      .bind(6, event.created_ms)
      .bind(7, encode_event(event))
      .run();
}

// Log lines are the bulk of what is written (a chatty job: 10^5 a second),
// so they go k_log_rows at a time through one statement.
constexpr int k_log_rows = 64;
constexpr int k_log_columns = 8;

std::string insert_logs_sql(int rows) {
  std::string sql = "INSERT INTO logs (job_id, sequence, stream, category, source, message, truncated, created_ms) VALUES ";
  for (int row = 0; row < rows; ++row) sql += row == 0 ? "(?, ?, ?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?, ?, ?)";
  return sql;
}

const std::string k_insert_log = insert_logs_sql(1);
const std::string k_insert_log_rows = insert_logs_sql(k_log_rows);

// The entry outlives the Query (a temporary of the caller's statement): no copies.
void bind_log(sql::Query& query, int row, const model::LogEntry& entry) {
  int first = row * k_log_columns;
  query.bind_static(first + 1, entry.job_id)
      .bind(first + 2, entry.sequence)
      .bind_static(first + 3, entry.stream)
      .bind_static(first + 4, entry.category)
      .bind_static(first + 5, entry.source)
      .bind_static(first + 6, entry.message)
      .bind(first + 7, std::int64_t{entry.truncated})
      .bind(first + 8, entry.created_ms);
}

void insert_logs(sql::Connection& conn, const std::vector<model::LogEntry>& logs) {
  std::size_t next = 0;
  for (; next + k_log_rows <= logs.size(); next += k_log_rows) {
    sql::Query query = conn.query(k_insert_log_rows);
    for (int row = 0; row < k_log_rows; ++row) bind_log(query, row, logs[next + row]);
    query.run();
  }
  for (; next < logs.size(); ++next) {
    sql::Query query = conn.query(k_insert_log);
    bind_log(query, 0, logs[next]);
    query.run();
  }
}

void upsert_artifact(sql::Connection& conn, const model::Artifact& artifact) {
  conn.query(k_upsert_artifact).bind(1, artifact.id).bind(2, artifact.job_id).bind(3, encode_artifact(artifact)).run();
}

void upsert_input(sql::Connection& conn, const model::JobInput& input) {
  conn.query(k_upsert_input)
      .bind(1, input.id)
      .bind(2, input.workspace)
      .bind(3, input.kind)
      .bind(4, input.status)
      .bind(5, encode_input(input))
      .run();
}

void upsert_delivery(sql::Connection& conn, const model::Delivery& d) {
  conn.query(k_upsert_delivery)
      .bind(1, d.id)
      .bind(2, d.job_id)
      .bind(3, d.event)
      .bind(4, d.state)
      .bind(5, std::int64_t{d.attempts})
      .bind(6, d.next_attempt_ms)
      .bind(7, d.created_ms)
      .bind(8, d.last_error)
      .bind(9, d.body)
      .run();
}

// Everything of `batch` but its jobs.
void apply_rows(sql::Connection& conn, const WriteBatch& batch) {
  for (const auto& event : batch.events) insert_event(conn, event);
  insert_logs(conn, batch.logs);
  for (const auto& artifact : batch.artifacts) upsert_artifact(conn, artifact);
  for (const auto& input : batch.inputs) upsert_input(conn, input);
  for (const auto& [key, value] : batch.settings) conn.query(k_upsert_setting).bind(1, key).bind(2, value).run();
  for (const auto& delivery : batch.deliveries) upsert_delivery(conn, delivery);
}

}  // namespace

bool WriteBatch::empty() const {
  return jobs.empty() && events.empty() && logs.empty() && artifacts.empty() && inputs.empty() &&
         settings.empty() && deliveries.empty();
}

void apply_batch(sql::Connection& conn, const WriteBatch& batch) {
  for (const auto& job : batch.jobs) upsert_job(conn, job);
  apply_rows(conn, batch);
}

void apply_group(sql::Connection& conn, const std::vector<const WriteBatch*>& batches) {
  std::unordered_map<std::string_view, const model::Job*> last;
  for (const WriteBatch* batch : batches)
    for (const auto& job : batch->jobs) last[job.id] = &job;
  for (const WriteBatch* batch : batches) {
    for (const auto& job : batch->jobs)
      if (last[job.id] == &job) upsert_job(conn, job);
    apply_rows(conn, *batch);
  }
}

}  // namespace jgrid::store
