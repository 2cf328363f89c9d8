// The API reference in docs/api.md is the project's own, kept by hand: this
// test keeps it complete, one row per route the server serves.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "api/route_table.hpp"

namespace {

std::string read_doc(const std::string& relative) {
  std::ifstream in(std::string(JGRID_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("docs/api.md names every route the server serves", "[docs]") {
  const std::string doc = read_doc("docs/api.md");
  REQUIRE_FALSE(doc.empty());
  for (const auto& route : jgrid::api::routes()) {
    INFO(route.method << " " << route.pattern);
    CHECK(doc.find("`" + route.pattern + "`") != std::string::npos);
  }
}

TEST_CASE("docs/api.md documents every constraints member and workload_type value", "[docs]") {
  const std::string doc = read_doc("docs/api.md");
  for (const char* member : {"max_price_per_hour", "gpu_type", "gpu_class", "preferred_gpu_family", "avoid_gpu_families",
                             "region_preference", "region_mode", "latency_priority", "cost_priority", "min_vram_gb",
                             "model_size_gb", "disk_gb"}) {
    INFO(member);
    CHECK(doc.find(std::string("`") + member + "`") != std::string::npos);
  }
  for (const char* value : {"inference", "training", "fine-tuning", "fine_tuning", "batch"}) {
    INFO(value);
    CHECK(doc.find(std::string("`") + value + "`") != std::string::npos);
  }
}
