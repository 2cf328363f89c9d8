#include "store/select.hpp"

#include "store_fixtures.hpp"

using namespace jgrid::store;

TEST_CASE("store::Select adds only the filters that are set", "[store]") {
  Select select("SELECT n FROM t WHERE a = ?", {std::string("x")});
  select.where_set("b = ?", "")
      .where_set("c = ?", "y")
      .where_in("d", {})
      .where_in("e", {"1", "2"})
      .where("f > ?", std::int64_t{3})
      .order_limit("n DESC", 5);
  CHECK(select.text() == "SELECT n FROM t WHERE a = ? AND c = ? AND e IN (?, ?) AND f > ? ORDER BY n DESC LIMIT ?");
}

TEST_CASE("store::Select binds its values in order", "[store]") {
  auto conn = sql::Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE(conn.ok());
  auto& db = **conn;
  db.exec("CREATE TABLE t (n INTEGER, kind TEXT); "
          "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'a'), (4, 'c'), (5, 'a')");
  Select select("SELECT n FROM t WHERE n > ?", {std::int64_t{1}});
  select.where_in("kind", {"a", "c"}).order_limit("n", 2);
  std::vector<std::int64_t> found;
  auto rows = select.run(db);
  while (rows.next()) found.push_back(rows.integer(0));
  CHECK(found == std::vector<std::int64_t>{3, 4});
}

TEST_CASE("store::collect and first decode column 0 and skip what does not decode", "[store]") {
  auto conn = sql::Connection::open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 1000);
  REQUIRE(conn.ok());
  auto& db = **conn;
  db.exec("CREATE TABLE t (s TEXT); INSERT INTO t VALUES ('1'), ('x'), ('3')");
  auto digit = [](std::string_view text) -> std::optional<int> {
    if (text.size() != 1 || text[0] < '0' || text[0] > '9') return std::nullopt;
    return text[0] - '0';
  };
  CHECK(collect(db.query("SELECT s FROM t ORDER BY rowid"), digit) == std::vector<int>{1, 3});
  CHECK(first(db.query("SELECT s FROM t ORDER BY rowid DESC"), digit) == 3);
  CHECK_FALSE(first(db.query("SELECT s FROM t WHERE 0"), digit));
}
