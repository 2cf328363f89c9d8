#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "jgrid/util/json_writer.hpp"

using jgrid::util::JsonWriter;
using nlohmann::json;

namespace {

std::string nlohmann_dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string written_string(std::string_view text) {
  std::string out;
  JsonWriter(out).value(text);
  return out;
}

std::string written_double(double number) {
  std::string out;
  JsonWriter(out).value(number);
  return out;
}

}  // namespace

TEST_CASE("util::JsonWriter writes strings as nlohmann::json dumps them", "[util]") {
  for (std::string text : {std::string("plain"), std::string("quote \" and \\ backslash"),
                           std::string("\b\f\n\r\t and \x01\x1f\x7f"), std::string("é ✓ 𝄞"),
                           std::string("bad \xff\xfe bytes"),
                           std::string("overlong \xc0\xaf"), std::string("surrogate \xed\xa0\x80"),
                           std::string("beyond \xf8\x88\x80\x80\x80"), std::string("nul \0 inside", 13)})
    CHECK(written_string(text) == nlohmann_dump(json(text)));
  // A truncated sequence: one U+FFFD per byte (nlohmann writes one for both).
  CHECK(json::parse(written_string("cut \xe2\x9c")) == "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("util::JsonWriter finds every special byte at any offset of a long string", "[util]") {
  // The plain-ASCII fast path reads 8 bytes at a time: each special byte must
  // be caught in every lane and in the tail.
  const std::string specials[] = {"\"", "\\", "\x01", "\x1f", "\n", "\x7f", "\x80", "\xff", "é", "✓", "\0"};
  for (const auto& special : specials)
    for (std::size_t at = 0; at < 20; ++at) {
      std::string text = std::string(at, 'a') + special + std::string(19 - at, 'b');
      INFO("byte " << int(static_cast<unsigned char>(special[0])) << " at " << at);
      CHECK(written_string(text) == nlohmann_dump(json(text)));
    }
}

TEST_CASE("util::JsonWriter writes doubles that read back exactly", "[util]") {
  for (double number : {0.0, 1.0, -2.5, 0.1 + 0.2, 1e300, 123456789.125, 5e-324}) {
    std::string text = written_double(number);
    CHECK(json::parse(text).is_number_float());
    CHECK(json::parse(text).get<double>() == number);
  }
  CHECK(written_double(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(written_double(std::numeric_limits<double>::infinity()) == "null");
}

TEST_CASE("util::JsonWriter separates members and nested containers", "[util]") {
  std::string out;
  JsonWriter w(out);
  w.begin_object().key("a").value(1).key("b").begin_array().value(true).null().begin_object().end_object().end_array();
  w.key("c").raw(R"({"x":[1,2]})").key("d").value("s").end_object();
  CHECK(out == R"({"a":1,"b":[true,null,{}],"c":{"x":[1,2]},"d":"s"})");
  CHECK(json::parse(out)["c"]["x"][1] == 2);
}
