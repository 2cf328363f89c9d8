#pragma once
// Serialized response bodies that stay valid while the store is unchanged:
// every entry belongs to one store commit version, and the whole cache is
// dropped when the version moves. A hit therefore returns exactly what a
// fresh read would build. Used for GET /v1/jobs/{id}, the hottest route.
// Thread-safe.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace jgrid::api {

class BodyCache {
 public:
  // The body stored under `key` for store version `version`, if any.
  std::optional<std::string> find(std::uint64_t version, const std::string& key) const;
  // Stores `body` as built from a read that started at `version`.
  void put(std::uint64_t version, const std::string& key, std::string body);

 private:
  static constexpr std::size_t k_max_entries = 1024;
  mutable std::mutex m_mutex;
  std::uint64_t m_version = 0;
  std::unordered_map<std::string, std::string> m_bodies;
};

}  // namespace jgrid::api
