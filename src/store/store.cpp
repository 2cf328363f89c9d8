#include "jgrid/store/store.hpp"

#include "jgrid/util/log.hpp"
#include "store/codec.hpp"
#include "store/job_cache.hpp"
#include "store/readers.hpp"
#include "store/reads.hpp"
#include "store/schema.hpp"
#include "store/wipe.hpp"
#include "store/writer.hpp"

namespace jgrid::store {
namespace {

constexpr const char* k_memory_path = ":memory:";

Error unavailable(const std::string& path, const std::string& reason) {
  return make_error("STORE_UNAVAILABLE", "database " + path + ": " + reason, {{"path", path}});
}

// The file first (a query on a deleted file may fail with a bare "disk I/O
// error"), then job_counts: a few rows, read from the file or its WAL like
// any table.
Status ping_on(sql::Connection& conn) {
  if (conn.file_moved())
    return unavailable(conn.path(), "the file was deleted, moved or replaced since it was opened");
  conn.scalar("SELECT COUNT(*) FROM job_counts");
  return Ok{};
}
// Decoded jobs kept in memory: a job is ~2-20 KiB decoded (tails included).
constexpr std::size_t k_job_cache_capacity = 2048;

class SqliteStore final : public Store {
 public:
  SqliteStore(std::unique_ptr<sql::Connection> conn, bool memory, int busy_timeout_ms)
      : m_conn(std::move(conn)), m_cache(k_job_cache_capacity) {
    m_readers = memory ? Readers::shared(*m_conn, m_conn_mutex) : Readers::pooled(m_conn->path(), busy_timeout_ms);
    m_writer = std::make_unique<Writer>(*m_conn, memory ? &m_conn_mutex : nullptr,
                                        [this](std::vector<WriteBatch*>& batches) { on_commit(batches); });
  }

  Status warm_up() const { return m_readers->warm_up(); }

  Status commit(WriteBatch batch) override {
    repair_text(batch);
    return m_writer->commit(std::move(batch));
  }
  void commit_async(WriteBatch batch) override {
    repair_text(batch);
    m_writer->commit_async(std::move(batch));
  }
  void flush() override { m_writer->flush(); }
  const util::Notifier& committed() const override { return m_committed; }

  std::optional<model::Job> get_job(const std::string& job_id) const override {
    if (auto hit = m_cache.find(job_id)) return *hit;  // no connection needed
    return read([&](sql::Connection& c) { return reads::get_job(c, m_cache, job_id); });
  }
  JobPage list_jobs(const JobQuery& query) const override {
    return read([&](sql::Connection& c) { return reads::list_jobs(c, m_cache, query); });
  }
  std::vector<model::Job> live_jobs() const override {
    return read([&](sql::Connection& c) { return reads::live_jobs(c, m_cache); });
  }
  std::optional<model::Job> find_by_idempotency_key(const std::string& workspace,
                                                    const std::string& key) const override {
    return read([&](sql::Connection& c) { return reads::find_by_idempotency_key(c, m_cache, workspace, key); });
  }
  std::vector<model::Event> list_events(const EventQuery& query) const override {
    return read([&](sql::Connection& c) { return reads::list_events(c, query); });
  }
  std::vector<model::LogEntry> list_logs(const LogQuery& query) const override {
    return read([&](sql::Connection& c) { return reads::list_logs(c, query); });
  }
  std::int64_t max_log_sequence(const std::string& job_id) const override {
    return read([&](sql::Connection& c) { return reads::max_log_sequence(c, job_id); });
  }
  std::int64_t max_event_sequence(const std::string& job_id) const override {
    return read([&](sql::Connection& c) { return reads::max_event_sequence(c, job_id); });
  }
  std::vector<model::Artifact> list_artifacts(const std::string& job_id) const override {
    return read([&](sql::Connection& c) { return reads::list_artifacts(c, job_id); });
  }
  std::optional<model::Artifact> get_artifact(const std::string& artifact_id) const override {
    return read([&](sql::Connection& c) { return reads::get_artifact(c, artifact_id); });
  }
  std::optional<model::JobInput> get_input(const std::string& input_id) const override {
    return read([&](sql::Connection& c) { return reads::get_input(c, input_id); });
  }
  std::vector<model::JobInput> list_inputs(const InputQuery& query) const override {
    return read([&](sql::Connection& c) { return reads::list_inputs(c, query); });
  }
  std::vector<model::Delivery> pending_deliveries(int limit, const DeliveryCursor& after) const override {
    return read([&](sql::Connection& c) { return reads::pending_deliveries(c, limit, after); });
  }
  std::vector<model::Delivery> list_deliveries(const std::string& job_id) const override {
    return read([&](sql::Connection& c) { return reads::list_deliveries(c, job_id); });
  }
  std::optional<std::string> get_setting(const std::string& key) const override {
    return read([&](sql::Connection& c) { return reads::get_setting(c, key); });
  }
  Counters counters() const override {
    return read([&](sql::Connection& c) { return reads::counters(c); });
  }
  std::int64_t count_jobs() const override {
    return read([&](sql::Connection& c) { return reads::count_jobs(c); });
  }
  std::map<std::string, std::int64_t> count_jobs_by_status() const override {
    return read([&](sql::Connection& c) { return reads::count_jobs_by_status(c); });
  }
  Result<std::vector<std::string>> delete_expired_inputs(std::int64_t now_ms) override {
    std::vector<std::string> ids;
    Status status = m_writer->run_alone([&](sql::Connection& c) { ids = store::delete_expired_inputs(c, now_ms); });
    if (!status) return status.error();
    return ids;
  }

  double spent_usd(const std::string& workspace) const override {
    return read([&](sql::Connection& c) { return reads::spent_usd(c, workspace); });
  }
  Status ping() const override {
    try {
      return read([&](sql::Connection& c) { return ping_on(c); });
    } catch (const std::exception& e) {  // a failed query, or no read connection to be had
      return unavailable(m_conn->path(), e.what());
    }
  }

  Result<DeletedRows> delete_all_jobs() override {
    DeletedRows deleted;
    Status status = m_writer->run_alone([&](sql::Connection& c) { deleted = store::delete_all_jobs(c); });
    if (!status) return status.error();
    m_cache.clear();
    return deleted;
  }

 private:
  // On the writer thread, before the committers return: the cache never
  // lags a commit() that has returned.
  void on_commit(std::vector<WriteBatch*>& batches) {
    for (auto* batch : batches)
      for (auto& job : batch->jobs) m_cache.put(std::move(job));
    m_committed.notify();
  }

  template <typename Query>
  auto read(Query query) const -> decltype(query(std::declval<sql::Connection&>())) {
    auto lease = m_readers->acquire();
    return query(*lease);
  }

  std::unique_ptr<sql::Connection> m_conn;
  std::mutex m_conn_mutex;
  util::Notifier m_committed;
  mutable JobCache m_cache;
  std::unique_ptr<Readers> m_readers;
  std::unique_ptr<Writer> m_writer;  // last: drained and stopped first
};

Error open_failed(const std::string& path, const std::string& reason) {
  return make_error("STORE_OPEN_FAILED", "cannot open database " + path + ": " + reason, {{"path", path}});
}

void use_wal(sql::Connection& conn) {
  auto query = conn.query("PRAGMA journal_mode = WAL");
  if (query.next() && query.text(0) != "wal")
    util::log(util::LogLevel::warn, "store", "database is not in WAL mode; readers will wait for writes",
              {{"path", conn.path()}, {"journal_mode", std::string(query.text(0))}});
}

// The first statements to touch the file: a file that is not a database fails here.
Status configure(sql::Connection& conn, const StoreOptions& options, bool memory) {
  try {
    if (!memory) use_wal(conn);
    conn.exec(options.synchronous_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
    return Ok{};
  } catch (const sql::SqliteError& e) {
    return open_failed(conn.path(), e.what());
  }
}

}  // namespace

Result<std::unique_ptr<Store>> Store::open(const StoreOptions& options) {
  if (options.path.empty()) return open_failed("\"\"", "the database path is empty");
  const bool memory = options.path == k_memory_path;
  auto conn = sql::Connection::open(options.path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, options.busy_timeout_ms);
  if (!conn) return conn.error();
  if (auto status = configure(**conn, options, memory); !status) return status.error();
  if (auto status = migrate(**conn, migration_steps()); !status) return status.error();
  auto store = std::make_unique<SqliteStore>(std::move(conn).value(), memory, options.busy_timeout_ms);
  if (auto status = store->warm_up(); !status) return status.error();
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace jgrid::store
