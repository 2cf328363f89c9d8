#include "store/sqlite.hpp"

#include "store_fixtures.hpp"

using namespace jgrid::store;
using jgrid::store::testing::TempDir;

namespace {

std::unique_ptr<sql::Connection> memory_connection() {
  auto conn = sql::Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE(conn.ok());
  (*conn)->exec("CREATE TABLE t (n INTEGER, s TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)");
  return std::move(conn).value();
}

}  // namespace

TEST_CASE("sql::Connection::open names the path it cannot open", "[store]") {
  TempDir dir;
  std::string path = dir.file("missing/dir/db.sqlite").string();
  auto conn = sql::Connection::open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE_FALSE(conn.ok());
  CHECK(conn.error().code == "STORE_OPEN_FAILED");
  CHECK_THAT(conn.error().message, Catch::Contains(path));
}

TEST_CASE("sql::Connection::query prepares each text once", "[store]") {
  auto conn = memory_connection();
  const std::string text = "SELECT s FROM t WHERE n = ?1";
  for (std::int64_t n : {1, 2}) {
    auto query = conn->query(text);
    query.bind(1, n);
    REQUIRE(query.next());
    CHECK(query.text(0) == (n == 1 ? "a" : "b"));
  }
  CHECK(conn->cached_statements() == 1);
}

TEST_CASE("sql::Query resets its statement when it ends", "[store]") {
  auto conn = memory_connection();
  const std::string text = "SELECT n FROM t ORDER BY n";
  {
    auto query = conn->query(text);
    REQUIRE(query.next());
    CHECK(query.integer(0) == 1);
  }
  auto again = conn->query(text);
  REQUIRE(again.next());
  CHECK(again.integer(0) == 1);
}

TEST_CASE("sql::Query reads NULL as empty text and reports it", "[store]") {
  auto conn = memory_connection();
  auto query = conn->query("SELECT s FROM t WHERE n = 3");
  REQUIRE(query.next());
  CHECK(query.is_null(0));
  CHECK(query.text(0).empty());
  CHECK_FALSE(query.next());
}

TEST_CASE("sql::Connection::exec throws SqliteError with the statement and reason", "[store]") {
  auto conn = memory_connection();
  try {
    conn->exec("INSERT INTO nowhere VALUES (1)");
    FAIL("exec did not throw");
  } catch (const sql::SqliteError& e) {
    CHECK_THAT(e.what(), Catch::Contains("nowhere"));
    CHECK(e.code() == SQLITE_ERROR);
  }
}

TEST_CASE("sql::Connection::rollback undoes an open transaction and is safe without one", "[store]") {
  auto conn = memory_connection();
  conn->rollback();
  conn->exec("BEGIN");
  conn->exec("DELETE FROM t");
  CHECK(conn->in_transaction());
  conn->rollback();
  CHECK_FALSE(conn->in_transaction());
  CHECK(conn->scalar("SELECT COUNT(*) FROM t") == 3);
}
