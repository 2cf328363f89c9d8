#include "exec/gpu_detect_tables.hpp"

#include <catch2/catch.hpp>

using namespace jgrid::exec;

TEST_CASE("exec::parse_properties reads KFD key value lines", "[exec][gpu]") {
  Properties props =
      parse_properties("cpu_cores_count 0\ngfx_target_version 90402\nhive_id 5280137374541384302\nbad\n");
  CHECK(property_u64(props, "gfx_target_version") == 90402u);
  CHECK(property_u64(props, "hive_id") == 5280137374541384302ull);
  CHECK(property_u64(props, "cpu_cores_count") == 0u);
  CHECK_FALSE(property_u64(props, "bad"));
  CHECK_FALSE(property_u64(props, "absent"));
  CHECK_FALSE(property_u64(parse_properties("x 12abc\n"), "x"));
}

TEST_CASE("exec::marketing_name knows common AMD device ids and falls back to the arch", "[exec][gpu]") {
  CHECK(marketing_name(0x74a1, "gfx942") == "AMD Instinct MI300X");
  CHECK(marketing_name(0x744c, "gfx1100") == "AMD Radeon RX 7900 XTX");
  CHECK(marketing_name(0x7448, "gfx1100") == "AMD Radeon PRO W7900");
  CHECK(marketing_name(0x1234, "gfx1151") == "AMD GPU gfx1151 (0x1234)");
  CHECK(gpu_model_for(0x1234, "gfx950").family == "instinct");
  CHECK(gpu_model_for(0x1234, "gfx950").gpu_class == "datacenter");
  CHECK(gpu_model_for(0x1234, "gfx1201").family == "radeon");
  CHECK(gpu_model_for(0x7448, "gfx1100").gpu_class == "workstation");
}

TEST_CASE("exec::is_integrated_arch tells APU graphics from discrete GPUs", "[exec][gpu]") {
  CHECK(is_integrated_arch("gfx1103"));
  CHECK(is_integrated_arch("gfx90c"));
  CHECK_FALSE(is_integrated_arch("gfx942"));
  CHECK_FALSE(is_integrated_arch("gfx1100"));
}

TEST_CASE("exec::group_id_in reads a group file", "[exec][gpu]") {
  std::string text = "root:x:0:\nvideo:x:44:alice\nrender:x:110:\nodd:x:notanumber:\n";
  CHECK(group_id_in(text, "video") == 44);
  CHECK(group_id_in(text, "render") == 110);
  CHECK(group_id_in(text, "odd") == -1);
  CHECK(group_id_in(text, "absent") == -1);
  CHECK(group_id_in(text, "vid") == -1);
}

TEST_CASE("exec::bytes_to_gib rounds to one decimal", "[exec][gpu]") {
  CHECK(bytes_to_gib(206141652992ull) == Approx(192.0));
  CHECK(bytes_to_gib(536870912ull) == Approx(0.5));
  CHECK(bytes_to_gib(0) == 0.0);
}
