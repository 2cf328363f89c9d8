#include "jgrid/util/crypto.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace jgrid::util {
namespace {

std::string to_hex(const unsigned char* data, unsigned length) {
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(length * 2);
  for (unsigned i = 0; i < length; ++i) {
    out.push_back(k_hex[data[i] >> 4]);
    out.push_back(k_hex[data[i] & 15]);
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  Sha256 hasher;
  hasher.update(data);
  return hasher.hex_digest();
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &length);
  return to_hex(out, length);
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new()) {
  if (!m_ctx || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(m_ctx), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("sha256 init failed");
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(m_ctx)); }

void Sha256::update(std::string_view data) {
  EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(m_ctx), data.data(), data.size());
}

std::string Sha256::hex_digest() {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned length = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(m_ctx), out, &length);
  return to_hex(out, length);
}

std::string Sha256::hex_digest_so_far() const {
  EVP_MD_CTX* copy = EVP_MD_CTX_new();
  if (!copy || EVP_MD_CTX_copy_ex(copy, static_cast<EVP_MD_CTX*>(m_ctx)) != 1) {
    EVP_MD_CTX_free(copy);
    throw std::runtime_error("sha256 copy failed");
  }
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned length = 0;
  EVP_DigestFinal_ex(copy, out, &length);
  EVP_MD_CTX_free(copy);
  return to_hex(out, length);
}

void Sha256::reset() {
  if (EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(m_ctx), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("sha256 init failed");
}

}  // namespace jgrid::util
