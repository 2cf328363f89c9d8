#include "store/sqlite.hpp"

#include <mutex>
#include <utility>

namespace jgrid::store::sql {

void throw_error(sqlite3* db, int rc, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw SqliteError(rc, message);
}

Query::Query(Query&& other) noexcept : m_db(other.m_db), m_stmt(std::exchange(other.m_stmt, nullptr)) {}

Query::~Query() {
  if (!m_stmt) return;
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
}

void Query::check_bind(int rc, int index) {
  if (rc != SQLITE_OK) throw_error(m_db, rc, "binding parameter " + std::to_string(index));
}

Query& Query::bind(int index, std::string_view text) {
  check_bind(sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT),
             index);
  return *this;
}

Query& Query::bind_static(int index, std::string_view text) {
  check_bind(sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC), index);
  return *this;
}

Query& Query::bind(int index, std::int64_t value) {
  check_bind(sqlite3_bind_int64(m_stmt, index, value), index);
  return *this;
}

Query& Query::bind_real(int index, double value) {
  check_bind(sqlite3_bind_double(m_stmt, index, value), index);
  return *this;
}

Query& Query::bind_null(int index) {
  check_bind(sqlite3_bind_null(m_stmt, index), index);
  return *this;
}

bool Query::next() {
  int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  throw_error(m_db, rc, std::string("running '") + sqlite3_sql(m_stmt) + "'");
}

void Query::run() {
  while (next()) {
  }
}

std::int64_t Query::integer(int column) const { return sqlite3_column_int64(m_stmt, column); }

double Query::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string_view Query::text(int column) const {
  auto* data = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
  if (!data) return {};
  return {data, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))};
}

bool Query::is_null(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }

Result<std::unique_ptr<Connection>> Connection::open(const std::string& path, int flags, int busy_timeout_ms) {
  // Before SQLite initialises (its first open): its allocation statistics,
  // which nothing reads, take a process-wide mutex on every malloc and free.
  static std::once_flag configured;
  std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
  sqlite3* db = nullptr;
  // NOMUTEX: each connection is used by one thread at a time (see header).
  int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string reason = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return make_error("STORE_OPEN_FAILED", "cannot open database " + path + ": " + reason, {{"path", path}});
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  return std::unique_ptr<Connection>(new Connection(db, path));
}

Connection::~Connection() {
  m_statements.clear();  // statements must be finalized before the close
  sqlite3_close(m_db);
}

void Connection::exec(const std::string& sql) {
  char* message = nullptr;
  int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message);
  if (rc == SQLITE_OK) return;
  std::string text = message ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  throw SqliteError(rc, "running '" + sql + "': " + text);
}

void Connection::rollback() noexcept {
  if (in_transaction()) sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

Query Connection::query(const std::string& sql) {
  auto found = m_statements.find(sql);
  if (found != m_statements.end()) return Query(m_db, found->second.get());
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(m_db, sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt,
                              nullptr);
  if (rc != SQLITE_OK) throw_error(m_db, rc, "preparing '" + sql + "'");
  m_statements.emplace(sql, stmt);
  return Query(m_db, stmt);
}

bool Connection::file_moved() const {
  int moved = 0;
  return sqlite3_file_control(m_db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0;
}

std::int64_t Connection::scalar(const std::string& sql) {
  Query q = query(sql);
  return q.next() ? q.integer(0) : 0;
}

}  // namespace jgrid::store::sql
