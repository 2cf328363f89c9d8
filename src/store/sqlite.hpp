#pragma once
// A thin RAII layer over the SQLite C API: a connection with a cache of
// prepared statements, and a Query that binds, steps and resets one of them.
// SQLite failures are thrown as SqliteError; the store's writer turns them
// into STORE_WRITE_FAILED, readers let them reach the edge (they are I/O
// errors or corruption, not expected outcomes).
//
// Not thread-safe: a connection (and its queries) belongs to one thread at a
// time; the store hands connections out under its own locks.
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

#include "jgrid/util/result.hpp"

namespace jgrid::store::sql {

class SqliteError : public std::runtime_error {
 public:
  SqliteError(int code, const std::string& message) : std::runtime_error(message), m_code(code) {}
  int code() const { return m_code; }

 private:
  int m_code;
};

// One use of a prepared statement. Reset (and unbound) when it ends, so a
// reader never keeps a read transaction open past its query.
class Query {
 public:
  Query(sqlite3* db, sqlite3_stmt* stmt) : m_db(db), m_stmt(stmt) {}
  Query(Query&& other) noexcept;
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  Query& operator=(Query&&) = delete;
  ~Query();

  // Parameter indexes start at 1, as in SQLite.
  Query& bind(int index, std::string_view text);
  // Binds without a copy: `text` must stay valid until this Query ends
  // (the row writers' hot path).
  Query& bind_static(int index, std::string_view text);
  Query& bind(int index, std::int64_t value);
  Query& bind_real(int index, double value);  // named apart: an int would fit both bind()s
  Query& bind_null(int index);

  // Steps once: true when a row is available, false when done.
  bool next();
  // Steps to the end (statements without rows).
  void run();

  std::int64_t integer(int column) const;
  double real(int column) const;
  // Valid until the next step; copy it to keep it.
  std::string_view text(int column) const;
  bool is_null(int column) const;

 private:
  void check_bind(int rc, int index);
  sqlite3* m_db;
  sqlite3_stmt* m_stmt;
};

class Connection {
 public:
  // Opens `path` (a file name, or ":memory:") with `flags` (SQLITE_OPEN_*).
  // Error STORE_OPEN_FAILED naming the path.
  static Result<std::unique_ptr<Connection>> open(const std::string& path, int flags, int busy_timeout_ms);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one or more statements that return nothing worth reading.
  void exec(const std::string& sql);
  // A cached prepared statement for `sql`, ready to bind.
  Query query(const std::string& sql);
  // The first column of the first row of `sql` as an integer (0 when no row).
  std::int64_t scalar(const std::string& sql);

  bool in_transaction() const { return sqlite3_get_autocommit(m_db) == 0; }
  // True when the file this connection opened is no longer at its path
  // (deleted, moved or replaced); false for ":memory:".
  bool file_moved() const;
  // Rolls back the open transaction, if any; never throws (used on error paths).
  void rollback() noexcept;
  const std::string& path() const { return m_path; }
  sqlite3* handle() const { return m_db; }
  std::size_t cached_statements() const { return m_statements.size(); }

 private:
  Connection(sqlite3* db, std::string path) : m_db(db), m_path(std::move(path)) {}
  struct Finalize {
    void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
  };
  sqlite3* m_db;
  std::string m_path;
  std::unordered_map<std::string, std::unique_ptr<sqlite3_stmt, Finalize>> m_statements;
};

// Throws SqliteError with SQLite's message for `rc` on `db`, prefixed by `what`.
[[noreturn]] void throw_error(sqlite3* db, int rc, std::string_view what);

}  // namespace jgrid::store::sql
