#include "store/readers.hpp"

namespace jgrid::store {

Readers::Lease::Lease(const Readers* owner, std::unique_ptr<sql::Connection> pooled, sql::Connection* shared,
                      std::unique_lock<std::mutex> lock)
    : m_owner(owner), m_pooled(std::move(pooled)), m_conn(m_pooled ? m_pooled.get() : shared),
      m_lock(std::move(lock)) {}

Readers::Lease::~Lease() {
  if (m_pooled) m_owner->give_back(std::move(m_pooled));
}

std::unique_ptr<Readers> Readers::pooled(std::string path, int busy_timeout_ms) {
  std::unique_ptr<Readers> readers(new Readers());
  readers->m_path = std::move(path);
  readers->m_busy_timeout_ms = busy_timeout_ms;
  return readers;
}

std::unique_ptr<Readers> Readers::shared(sql::Connection& conn, std::mutex& conn_mutex) {
  std::unique_ptr<Readers> readers(new Readers());
  readers->m_shared = &conn;
  readers->m_shared_mutex = &conn_mutex;
  return readers;
}

Readers::Lease Readers::acquire() const {
  if (m_shared) return Lease(this, nullptr, m_shared, std::unique_lock(*m_shared_mutex));
  {
    std::lock_guard lock(m_pool_mutex);
    if (!m_pool.empty()) {
      auto conn = std::move(m_pool.back());
      m_pool.pop_back();
      return Lease(this, std::move(conn), nullptr, {});
    }
  }
  auto conn = open_reader();
  if (!conn) throw sql::SqliteError(SQLITE_CANTOPEN, conn.error().message);
  return Lease(this, std::move(conn).value(), nullptr, {});
}

Status Readers::warm_up() const {
  if (m_shared) return Ok{};
  auto conn = open_reader();
  if (!conn) return conn.error();
  give_back(std::move(conn).value());
  return Ok{};
}

Result<std::unique_ptr<sql::Connection>> Readers::open_reader() const {
  auto conn = sql::Connection::open(m_path, SQLITE_OPEN_READWRITE, m_busy_timeout_ms);
  if (!conn) return conn.error();
  try {
    // Read-only by contract: only the writer changes the file.
    (*conn)->exec("PRAGMA query_only = ON");
  } catch (const sql::SqliteError& e) {
    return make_error("STORE_OPEN_FAILED", "cannot open database " + m_path + " for reading: " + e.what(),
                      {{"path", m_path}});
  }
  return conn;
}

void Readers::give_back(std::unique_ptr<sql::Connection> conn) const {
  std::lock_guard lock(m_pool_mutex);
  m_pool.push_back(std::move(conn));
}

}  // namespace jgrid::store
