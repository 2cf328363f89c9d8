#pragma once
// Where reads get a connection.
//
// File databases: a pool of read connections; a reading thread takes one,
// queries and gives it back, so many HTTP threads read in parallel (WAL lets
// readers run beside the writer). The pool grows to the number of threads
// reading at once and closes its connections when it goes away.
//
// ":memory:": a private in-memory database exists only on its one
// connection, so readers share the writer's connection under a mutex that the
// writer also holds for each whole transaction (readers never see half of one).
//
// Thread-safe.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "store/sqlite.hpp"

namespace jgrid::store {

class Readers {
 public:
  // A connection held for the duration of one read.
  class Lease {
   public:
    Lease(Lease&&) = default;
    ~Lease();
    sql::Connection& operator*() const { return *m_conn; }

   private:
    friend class Readers;
    Lease(const Readers* owner, std::unique_ptr<sql::Connection> pooled, sql::Connection* shared,
          std::unique_lock<std::mutex> lock);
    const Readers* m_owner;
    std::unique_ptr<sql::Connection> m_pooled;
    sql::Connection* m_conn;
    std::unique_lock<std::mutex> m_lock;
  };

  // Readers that open their own connections to the file `path`.
  static std::unique_ptr<Readers> pooled(std::string path, int busy_timeout_ms);
  // Readers that share `conn` under `conn_mutex`; both outlive the Readers.
  static std::unique_ptr<Readers> shared(sql::Connection& conn, std::mutex& conn_mutex);

  // Throws SqliteError when a new read connection cannot be opened.
  Lease acquire() const;
  // Opens one read connection now, so a bad file fails at open, not at the first read.
  Status warm_up() const;

 private:
  Readers() = default;
  Result<std::unique_ptr<sql::Connection>> open_reader() const;
  void give_back(std::unique_ptr<sql::Connection> conn) const;

  std::string m_path;
  int m_busy_timeout_ms = 0;
  sql::Connection* m_shared = nullptr;
  std::mutex* m_shared_mutex = nullptr;
  mutable std::mutex m_pool_mutex;
  mutable std::vector<std::unique_ptr<sql::Connection>> m_pool;
};

}  // namespace jgrid::store
