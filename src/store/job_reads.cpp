#include <algorithm>
#include <functional>

#include "jgrid/util/strings.hpp"
#include "store/codec.hpp"
#include "store/reads.hpp"
#include "store/select.hpp"

namespace jgrid::store::reads {
namespace {

const std::string k_job_columns = "SELECT id, doc, stdout_tail, stderr_tail FROM jobs WHERE ";
const std::string k_get_job = k_job_columns + "id = ?1";
const std::string k_job_ids = "SELECT id FROM jobs WHERE ";
// The `<> ''` lets SQLite use the partial unique index.
const std::string k_find_by_key =
    k_job_columns + "workspace = ?1 AND idempotency_key = ?2 AND idempotency_key <> ''";

// Turns rows of k_job_columns into jobs, taking what the cache holds and
// offering it what it lacks. Construct it before running the query.
class JobRows {
 public:
  explicit JobRows(JobCache& cache) : m_cache(cache), m_seen(cache.generation()) {}

  std::vector<model::Job> all(sql::Query query) {
    std::vector<model::Job> jobs;
    while (query.next())
      if (auto job = decode(query)) jobs.push_back(std::move(*job));
    return jobs;
  }

  std::optional<model::Job> first(sql::Query query) { return query.next() ? decode(query) : std::nullopt; }

 private:
  std::optional<model::Job> decode(const sql::Query& row) {
    if (auto hit = m_cache.find(std::string(row.text(0)))) return *hit;
    auto job = decode_job(row.text(1), row.text(2), row.text(3));
    if (job) m_cache.put_if_unchanged(*job, m_seen);
    return job;
  }

  JobCache& m_cache;
  std::uint64_t m_seen;
};

// One read transaction over several statements, so they see one snapshot.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(sql::Connection& conn) : m_conn(conn) { conn.exec("BEGIN"); }
  ~ReadSnapshot() { m_conn.rollback(); }  // it wrote nothing: ending it is all
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  sql::Connection& m_conn;
};

std::vector<std::string> status_names(const std::vector<model::JobStatus>& statuses) {
  std::vector<std::string> names;
  for (auto status : statuses) names.emplace_back(model::to_string(status));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// The stored spelling of a workload type ("fine_tuning" is stored "fine-tuning").
std::string workload_column(const std::string& text) {
  auto type = model::parse_workload_type(text);
  return type ? std::string(model::to_string(*type)) : text;
}

// A page of the newest jobs of `query` with at most one status of `statuses`:
// SQLite then walks one index range (workspace, status, id) in id order.
Select page_select(const std::string& head, const JobQuery& query, const std::vector<std::string>& statuses,
                   std::int64_t rows) {
  Select select(head + "workspace = ?", {query.workspace});
  select.where_set("id < ?", query.before_id)
      .where_in("status", statuses)
      .where_set("workload_type = ?", query.workload_type.empty() ? "" : workload_column(query.workload_type))
      .where_set("gpu_vendor = ?", util::to_lower(query.gpu_vendor))
      .order_limit("id DESC", rows);
  return select;
}

// The newest `rows` ids over several statuses, one index range per status
// merged here: one query with `status IN (…)` walks every job of the
// workspace when the statuses are rare (the live ones among a million
// terminal jobs).
std::vector<std::string> newest_ids(sql::Connection& conn, const JobQuery& query,
                                    const std::vector<std::string>& statuses, std::int64_t rows) {
  std::vector<std::string> ids;
  for (const auto& status : statuses) {
    auto run = page_select(k_job_ids, query, {status}, rows).run(conn);
    while (run.next()) ids.emplace_back(run.text(0));
  }
  std::sort(ids.begin(), ids.end(), std::greater<>());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  if (ids.size() > static_cast<std::size_t>(rows)) ids.resize(rows);
  return ids;
}

}  // namespace

std::optional<model::Job> get_job(sql::Connection& conn, JobCache& cache, const std::string& job_id) {
  if (auto hit = cache.find(job_id)) return *hit;
  JobRows rows(cache);
  return rows.first(std::move(conn.query(k_get_job).bind(1, job_id)));
}

JobPage list_jobs(sql::Connection& conn, JobCache& cache, const JobQuery& query) {
  const int limit = std::max(query.limit, 0);
  const auto statuses = status_names(query.statuses);
  JobPage page;
  JobRows rows(cache);
  if (statuses.size() <= 1) {
    page.jobs = rows.all(page_select(k_job_columns, query, statuses, std::int64_t{limit} + 1).run(conn));
  } else {
    ReadSnapshot snapshot(conn);
    for (const auto& id : newest_ids(conn, query, statuses, std::int64_t{limit} + 1))
      if (auto job = rows.first(std::move(conn.query(k_get_job).bind(1, id)))) page.jobs.push_back(std::move(*job));
  }
  page.has_more = page.jobs.size() > static_cast<std::size_t>(limit);
  if (page.has_more) page.jobs.resize(limit);
  return page;
}

std::vector<model::Job> live_jobs(sql::Connection& conn, JobCache& cache) {
  std::vector<model::JobStatus> live;
  for (auto status : model::all_statuses())
    if (!model::is_terminal(status)) live.push_back(status);
  Select select(k_job_columns + "1");
  select.where_in("status", status_names(live));
  select.order_limit("id", -1);  // LIMIT -1: no limit
  JobRows rows(cache);
  return rows.all(select.run(conn));
}

std::optional<model::Job> find_by_idempotency_key(sql::Connection& conn, JobCache& cache,
                                                  const std::string& workspace, const std::string& key) {
  if (key.empty()) return std::nullopt;
  JobRows rows(cache);
  return rows.first(std::move(conn.query(k_find_by_key).bind(1, workspace).bind(2, key)));
}

// job_counts is kept by triggers on jobs (schema step 4).
std::int64_t count_jobs(sql::Connection& conn) { return conn.scalar("SELECT COALESCE(SUM(n), 0) FROM job_counts"); }

std::map<std::string, std::int64_t> count_jobs_by_status(sql::Connection& conn) {
  std::map<std::string, std::int64_t> out;
  auto query = conn.query("SELECT status, n FROM job_counts WHERE n > 0");
  while (query.next()) out[std::string(query.text(0))] = query.integer(1);
  return out;
}

// workspace_spend is kept by triggers on jobs (schema step 6).
double spent_usd(sql::Connection& conn, const std::string& workspace) {
  auto query = conn.query("SELECT usd FROM workspace_spend WHERE workspace = ?1");
  query.bind(1, workspace);
  return query.next() ? query.real(0) : 0.0;
}

}  // namespace jgrid::store::reads
