#pragma once
// Hashes and MACs (OpenSSL behind this seam). Thread-safe.
#include <string>
#include <string_view>

namespace jgrid::util {

std::string sha256_hex(std::string_view data);
std::string hmac_sha256_hex(std::string_view key, std::string_view data);
// Compares in time that depends only on the lengths, not the contents.
bool constant_time_equal(std::string_view a, std::string_view b);

// Incremental SHA-256 for streamed files and running digests.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view data);
  std::string hex_digest();  // call once
  // The digest of what was fed so far; update() may go on afterwards.
  std::string hex_digest_so_far() const;
  // Back to the state of a new Sha256.
  void reset();

 private:
  void* m_ctx;
};

}  // namespace jgrid::util
