#include "exec/gpu_detect_smi.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::exec;

TEST_CASE("exec::parse_amd_smi_names reads market names by GPU index", "[exec][gpu]") {
  std::string bare = R"([{"gpu": 0, "asic": {"market_name": "AMD Instinct MI300X", "device_id": "0x74a1"}},
                          {"gpu": 1, "asic": {"market_name": "AMD Instinct MI300X "}}])";
  auto names = parse_amd_smi_names(bare);
  REQUIRE(names.size() == 2);
  CHECK(names[0] == "AMD Instinct MI300X");
  CHECK(names[1] == "AMD Instinct MI300X");
  auto wrapped = parse_amd_smi_names(R"({"gpu_data": [{"gpu": 3, "asic": {"market_name": "Radeon RX 7900 XTX"}}]})");
  CHECK(wrapped.at(3) == "Radeon RX 7900 XTX");
  CHECK(parse_amd_smi_names("not json").empty());
  CHECK(parse_amd_smi_names(R"([{"gpu": "x", "asic": {"market_name": "n"}}])").empty());
}

TEST_CASE("exec::parse_rocm_smi_names reads card series by card index", "[exec][gpu]") {
  auto names = parse_rocm_smi_names(
      R"({"card0": {"Card Series": "AMD Instinct MI300X", "Card Model": "0x74a1"},
          "card1": {"Card series": "AMD Instinct MI300X"}, "system": {"Driver version": "6.8"}})");
  REQUIRE(names.size() == 2);
  CHECK(names[0] == "AMD Instinct MI300X");
  CHECK(names[1] == "AMD Instinct MI300X");
  CHECK(parse_rocm_smi_names("[]").empty());
}
