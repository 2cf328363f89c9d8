#pragma once
// A JSON object built member by member. nlohmann's initializer lists build
// each member as a two-element array and copy it once more: about three
// times the cost of this, for data made once per simulated event.
#include <nlohmann/json.hpp>
#include <utility>

namespace jgrid::util {

class JsonMembers {
 public:
  template <class T>
  JsonMembers& add(const char* key, T&& value) {
    m_object.emplace(key, std::forward<T>(value));
    return *this;
  }
  // The object; the builder is left empty.
  nlohmann::json take() { return nlohmann::json(std::move(m_object)); }

 private:
  nlohmann::json::object_t m_object;
};

}  // namespace jgrid::util
