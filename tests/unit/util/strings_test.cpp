#include <catch2/catch.hpp>

#include "jgrid/util/strings.hpp"

using namespace jgrid::util;
using Words = std::vector<std::string>;

namespace {

Words words(std::string_view text) {
  auto result = split_shell_words(text);
  INFO(text);
  REQUIRE(result.ok());
  return result.value();
}

}  // namespace

TEST_CASE("util::to_lower and trim handle ASCII only", "[util]") {
  CHECK(to_lower("ROCm-6.2") == "rocm-6.2");
  CHECK(to_lower("\xC3\x89") == "\xC3\x89");
  CHECK(trim("  a b \t\r\n") == "a b");
  CHECK(trim(" \t ") == "");
}

TEST_CASE("util::split keeps empty parts", "[util]") {
  CHECK(split("a,,b", ',') == Words{"a", "", "b"});
  CHECK(split("", ',') == Words{""});
  CHECK(split("a,", ',') == Words{"a", ""});
}

TEST_CASE("util::split_shell_words splits on blanks without expanding", "[util]") {
  CHECK(words("python  -c\tprint(1)") == Words{"python", "-c", "print(1)"});
  CHECK(words("echo $HOME *") == Words{"echo", "$HOME", "*"});
  CHECK(words("") == Words{});
  CHECK(words("   ") == Words{});
}

TEST_CASE("util::split_shell_words honours quotes and backslashes", "[util]") {
  CHECK(words("sh -c 'echo \"hi there\"'") == Words{"sh", "-c", "echo \"hi there\""});
  CHECK(words("a \"b c\" d") == Words{"a", "b c", "d"});
  CHECK(words("\"say \\\"x\\\"\"") == Words{"say \"x\""});
  CHECK(words("'it'\\''s'") == Words{"it's"});
  CHECK(words("a\\ b") == Words{"a b"});
  CHECK(words("'' \"\"") == Words{"", ""});
  CHECK(words("pre'mid dle'post") == Words{"premid dlepost"});
  CHECK(words("'a\\b'") == Words{"a\\b"});
}

TEST_CASE("util::split_shell_words refuses an unterminated quote", "[util]") {
  for (const char* text : {"echo 'oops", "echo \"oops", "\"a\\\""}) {
    auto result = split_shell_words(text);
    INFO(text);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == "INVALID_REQUEST");
    CHECK(result.error().message.find("unterminated quote") != std::string::npos);
  }
}

TEST_CASE("util::percent_decode decodes escapes", "[util]") {
  CHECK(percent_decode("job%2F1") == std::optional<std::string>("job/1"));
  CHECK(percent_decode("a%20b%7e") == std::optional<std::string>("a b~"));
  CHECK(percent_decode("plain+text") == std::optional<std::string>("plain+text"));
  CHECK(percent_decode("") == std::optional<std::string>(""));
}

TEST_CASE("util::percent_decode refuses malformed escapes", "[util]") {
  for (const char* text : {"%", "%4", "abc%", "%zz", "%4g", "%-1", "%+1", "% 1", "a%2"}) {
    INFO(text);
    CHECK_FALSE(percent_decode(text));
  }
}

TEST_CASE("util::percent_encode is undone by percent_decode", "[util]") {
  std::string raw = "job/1 ü?&=%";
  std::string encoded = percent_encode(raw);
  CHECK(encoded.find_first_of("/ ?&=") == std::string::npos);
  CHECK(percent_decode(encoded) == std::optional<std::string>(raw));
  CHECK(percent_encode("A-z_0.~") == "A-z_0.~");
}

TEST_CASE("util::parse_int uses the whole text", "[util]") {
  CHECK(parse_int("42") == 42);
  CHECK(parse_int("-7") == -7);
  CHECK_FALSE(parse_int(""));
  CHECK_FALSE(parse_int("4x"));
  CHECK_FALSE(parse_int(" 4"));
  CHECK_FALSE(parse_int("99999999999999999999"));
}

TEST_CASE("util::has_control_char finds C0 and DEL bytes", "[util]") {
  CHECK(has_control_char("a\nb"));
  CHECK(has_control_char(std::string_view("a\0b", 3)));
  CHECK(has_control_char("\x7f"));
  CHECK_FALSE(has_control_char("plain text \xC3\xA9"));
}
