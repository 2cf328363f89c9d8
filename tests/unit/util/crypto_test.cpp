#include <catch2/catch.hpp>

#include "jgrid/util/crypto.hpp"

using namespace jgrid::util;

TEST_CASE("util::sha256_hex matches the FIPS 180-2 vectors", "[util]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("util::hmac_sha256_hex matches RFC 4231 test cases", "[util]") {
  CHECK(hmac_sha256_hex(std::string(20, '\x0b'), "Hi There") ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(hmac_sha256_hex("", "") == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

TEST_CASE("util::Sha256 streams to the same digest as one call", "[util]") {
  Sha256 hasher;
  hasher.update("a");
  hasher.update("");
  hasher.update("bc");
  CHECK(hasher.hex_digest() == sha256_hex("abc"));
}

TEST_CASE("util::Sha256 reports the digest so far and keeps going; reset starts over", "[util]") {
  Sha256 hasher;
  hasher.update("ab");
  CHECK(hasher.hex_digest_so_far() == sha256_hex("ab"));
  hasher.update("c");
  CHECK(hasher.hex_digest_so_far() == sha256_hex("abc"));
  hasher.reset();
  CHECK(hasher.hex_digest_so_far() == sha256_hex(""));
  hasher.update("abc");
  CHECK(hasher.hex_digest() == sha256_hex("abc"));
}

TEST_CASE("util::constant_time_equal compares contents and lengths", "[util]") {
  CHECK(constant_time_equal("", ""));
  CHECK(constant_time_equal("jg_key", "jg_key"));
  CHECK_FALSE(constant_time_equal("jg_key", "jg_kez"));
  CHECK_FALSE(constant_time_equal("jg_key", "jg_ke"));
  CHECK_FALSE(constant_time_equal("a", ""));
  CHECK_FALSE(constant_time_equal(std::string_view("a\0b", 3), std::string_view("a\0c", 3)));
}
