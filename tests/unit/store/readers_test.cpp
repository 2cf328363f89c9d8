#include "store/readers.hpp"

#include "store_fixtures.hpp"

using namespace jgrid::store;
using jgrid::store::testing::TempDir;

namespace {

std::string make_database(const TempDir& dir) {
  const std::string path = dir.file("r.db").string();
  auto conn = sql::Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE(conn.ok());
  (*conn)->exec("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)");
  return path;
}

}  // namespace

TEST_CASE("store::Readers pooled gives a connection back for the next read", "[store]") {
  TempDir dir;
  auto readers = Readers::pooled(make_database(dir), 1000);
  REQUIRE(readers->warm_up().ok());
  sql::Connection* first = nullptr;
  {
    auto lease = readers->acquire();
    first = &*lease;
    CHECK((*lease).scalar("SELECT n FROM t") == 1);
  }
  auto again = readers->acquire();
  CHECK(&*again == first);
  auto other = readers->acquire();  // held at the same time: another connection
  CHECK(&*other != first);
}

TEST_CASE("store::Readers pooled connections cannot write", "[store]") {
  TempDir dir;
  auto readers = Readers::pooled(make_database(dir), 1000);
  auto lease = readers->acquire();
  CHECK_THROWS_AS((*lease).exec("INSERT INTO t VALUES (2)"), sql::SqliteError);
}

TEST_CASE("store::Readers pooled fails to warm up on a missing directory", "[store]") {
  TempDir dir;
  auto readers = Readers::pooled(dir.file("no/such/r.db").string(), 1000);
  auto status = readers->warm_up();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == "STORE_OPEN_FAILED");
}

TEST_CASE("store::Readers shared holds the connection's lock for the lease", "[store]") {
  auto conn = sql::Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE(conn.ok());
  std::mutex conn_mutex;
  auto readers = Readers::shared(**conn, conn_mutex);
  {
    auto lease = readers->acquire();
    CHECK(&*lease == conn->get());
    CHECK_FALSE(conn_mutex.try_lock());
  }
  REQUIRE(conn_mutex.try_lock());
  conn_mutex.unlock();
}
