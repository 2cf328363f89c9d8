#include "jgrid/util/ids.hpp"

#include <atomic>
#include <fstream>
#include <mutex>
#include <random>
#include <stdexcept>

namespace jgrid::util {
namespace {

constexpr char k_base32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Writes `chars` base32 digits of `value` at `out`; returns the end.
char* write_base32(char* out, std::uint64_t value, int chars) {
  for (int i = chars - 1; i >= 0; --i) *out++ = k_base32[(value >> (i * 5)) & 31];
  return out;
}

std::mutex& id_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::uint64_t& id_salt() {
  static std::uint64_t salt = std::random_device{}();
  return salt;
}

}  // namespace

void seed_ids(std::uint64_t salt) {
  std::lock_guard lock(id_mutex());
  id_salt() = salt;
}

std::string new_id(std::string_view prefix, std::int64_t now_ms) {
  // A 48-bit time plus a counter that never goes backwards keeps ids made in
  // one process strictly increasing even within one millisecond.
  static std::uint64_t last_time = 0, counter = 0;
  std::uint64_t time_part, count_part, salt;
  {
    std::lock_guard lock(id_mutex());
    salt = id_salt();
    auto now = static_cast<std::uint64_t>(now_ms);
    if (now > last_time) {
      last_time = now;
      counter = 0;
    } else {
      ++counter;
    }
    time_part = last_time;
    count_part = counter;
  }
  // One allocation: every event of a simulation gets an id.
  char digits[26];
  char* end = write_base32(digits, time_part, 10);
  end = write_base32(end, count_part, 6);
  write_base32(end, (salt * 0x9E3779B97F4A7C15ULL + count_part) >> 14, 10);
  std::string id;
  id.reserve(prefix.size() + 1 + sizeof digits);
  id.append(prefix).append(1, '_').append(digits, sizeof digits);
  return id;
}

std::string random_hex(std::size_t bytes) {
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  if (!urandom) throw std::runtime_error("cannot open /dev/urandom");
  std::string raw(bytes, '\0');
  if (!urandom.read(raw.data(), static_cast<std::streamsize>(bytes))) throw std::runtime_error("cannot read /dev/urandom");
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out.push_back(k_hex[c >> 4]);
    out.push_back(k_hex[c & 15]);
  }
  return out;
}

}  // namespace jgrid::util
