#pragma once
// A SELECT assembled from optional filters. Each distinct shape of query is
// prepared once per connection (the text is the statement cache key), and
// the values are bound, never pasted into the text.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "store/sqlite.hpp"

namespace jgrid::store {

class Select {
 public:
  using Value = std::variant<std::int64_t, std::string>;

  // `head` is "SELECT … FROM … WHERE <condition>" with its own values.
  explicit Select(std::string head, std::vector<Value> values = {});

  // Appends " AND <condition>" (one '?' per value).
  Select& where(const std::string& condition, Value value);
  // Appends " AND <condition>" only when `text` is not empty.
  Select& where_set(const std::string& condition, const std::string& text);
  // Appends " AND <column> IN (?, …)"; nothing when `values` is empty.
  Select& where_in(const std::string& column, const std::vector<std::string>& values);
  // Appends " ORDER BY <order> LIMIT ?".
  Select& order_limit(const std::string& order, std::int64_t limit);

  // Prepares (cached) and binds. The query is reset when it goes away.
  sql::Query run(sql::Connection& conn) const;
  const std::string& text() const { return m_text; }

 private:
  std::string m_text;
  std::vector<Value> m_values;
};

// Decodes column 0 of every row of `query` with `decode` (returning an
// optional), skipping the rows it cannot decode.
template <typename Decode>
auto collect(sql::Query query, Decode decode) {
  std::vector<typename decltype(decode(std::string_view{}))::value_type> items;
  while (query.next())
    if (auto item = decode(query.text(0))) items.push_back(std::move(*item));
  return items;
}

// Decodes column 0 of the first row of `query`; nullopt when there is none.
template <typename Decode>
auto first(sql::Query query, Decode decode) -> decltype(decode(std::string_view{})) {
  if (!query.next()) return std::nullopt;
  return decode(query.text(0));
}

}  // namespace jgrid::store
