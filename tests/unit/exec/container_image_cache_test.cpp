#include <catch2/catch.hpp>
#include <thread>

#include "exec/container_image_cache.hpp"

using namespace jgrid::exec;
using namespace std::chrono_literals;

namespace {

InspectedImage image(const std::string& reference, const std::string& digest) {
  InspectedImage out;
  out.reference = reference;
  out.digest = digest;
  return out;
}

}  // namespace

TEST_CASE("image cache: an inspection is reused under its reference", "[exec][image_cache]") {
  ImageCache cache;
  CHECK_FALSE(cache.find("localhost/a:latest"));
  cache.put(image("localhost/a:latest", "sha256:aa"));
  auto found = cache.find("localhost/a:latest");
  REQUIRE(found);
  CHECK(found->digest == "sha256:aa");
  CHECK_FALSE(cache.find("localhost/b:latest"));
}

TEST_CASE("image cache: a forgotten image is inspected again", "[exec][image_cache]") {
  ImageCache cache;
  cache.put(image("localhost/a:latest", "sha256:aa"));
  cache.forget("localhost/a:latest");
  CHECK_FALSE(cache.find("localhost/a:latest"));
}

TEST_CASE("image cache: an entry older than the ttl is gone", "[exec][image_cache]") {
  ImageCache cache(1ms);
  cache.put(image("localhost/a:latest", "sha256:aa"));
  std::this_thread::sleep_for(5ms);
  CHECK_FALSE(cache.find("localhost/a:latest"));
}
