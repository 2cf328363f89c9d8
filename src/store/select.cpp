#include "store/select.hpp"

namespace jgrid::store {

Select::Select(std::string head, std::vector<Value> values) : m_text(std::move(head)), m_values(std::move(values)) {}

Select& Select::where(const std::string& condition, Value value) {
  m_text += " AND " + condition;
  m_values.push_back(std::move(value));
  return *this;
}

Select& Select::where_set(const std::string& condition, const std::string& text) {
  return text.empty() ? *this : where(condition, text);
}

Select& Select::where_in(const std::string& column, const std::vector<std::string>& values) {
  if (values.empty()) return *this;
  m_text += " AND " + column + " IN (";
  for (std::size_t i = 0; i < values.size(); ++i) {
    m_text += i ? ", ?" : "?";
    m_values.push_back(values[i]);
  }
  m_text += ")";
  return *this;
}

Select& Select::order_limit(const std::string& order, std::int64_t limit) {
  m_text += " ORDER BY " + order + " LIMIT ?";
  m_values.emplace_back(std::in_place_type<std::int64_t>, limit);
  return *this;
}

sql::Query Select::run(sql::Connection& conn) const {
  sql::Query query = conn.query(m_text);
  for (std::size_t i = 0; i < m_values.size(); ++i)
    std::visit([&](const auto& value) { query.bind(static_cast<int>(i + 1), value); }, m_values[i]);
  return query;
}

}  // namespace jgrid::store
