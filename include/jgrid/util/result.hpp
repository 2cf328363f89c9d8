#pragma once
// Result<T>: the value of an operation that can fail in an expected way
// (bad input, unknown id, busy port). Shaped like std::expected, which g++ 12
// lacks. Bugs are not Results; they are exceptions caught at the edge.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace jgrid {

// A failure: a stable machine code (e.g. "INVALID_REQUEST"), a message for a
// human that names what failed on what, and optional structured details.
struct Error {
  std::string code;
  std::string message;
  nlohmann::json details = nlohmann::json::object();
};

inline Error make_error(std::string code, std::string message,
                        nlohmann::json details = nlohmann::json::object()) {
  return Error{std::move(code), std::move(message), std::move(details)};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_state(std::move(value)) {}
  Result(Error error) : m_state(std::move(error)) {}

  bool ok() const { return m_state.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Precondition: ok().
  T& value() & { return std::get<0>(m_state); }
  const T& value() const& { return std::get<0>(m_state); }
  T&& value() && { return std::get<0>(std::move(m_state)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  // Precondition: !ok().
  const Error& error() const { return std::get<1>(m_state); }

 private:
  std::variant<T, Error> m_state;
};

// Result<void>: success carries nothing.
struct Ok {};
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Ok) {}
  Result(Error error) : m_error(std::move(error)) {}
  bool ok() const { return !m_error.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *m_error; }

 private:
  std::optional<Error> m_error;
};

using Status = Result<void>;

}  // namespace jgrid
