#pragma once
// Hashes and MACs (OpenSSL behind this seam). Thread-safe.
#include <string>
#include <string_view>

namespace jgrid::util {

std::string sha256_hex(std::string_view data);
std::string hmac_sha256_hex(std::string_view key, std::string_view data);
// Compares in time that depends only on the lengths, not the contents.
bool constant_time_equal(std::string_view a, std::string_view b);

// Incremental SHA-256 for streamed files.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view data);
  std::string hex_digest();  // call once

 private:
  void* m_ctx;
};

}  // namespace jgrid::util
