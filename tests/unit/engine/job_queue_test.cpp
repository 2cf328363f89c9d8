#include "engine/job_queue.hpp"

#include <catch2/catch.hpp>

using jgrid::engine::JobQueue;

TEST_CASE("engine::JobQueue orders by priority, then arrival", "[engine]") {
  JobQueue queue;
  queue.push("a", "low");
  queue.push("b", "balanced");
  queue.push("c", "high");
  queue.push("d", "balanced");
  queue.push("e", "unknown");  // counts as balanced
  CHECK(queue.ordered() == std::vector<std::string>{"c", "b", "d", "e", "a"});
}

TEST_CASE("engine::JobQueue removes jobs and keeps a job's place on a second push", "[engine]") {
  JobQueue queue;
  queue.push("a", "balanced");
  queue.push("b", "balanced");
  queue.push("a", "high");
  CHECK(queue.ordered() == std::vector<std::string>{"a", "b"});
  queue.remove("a");
  queue.remove("missing");
  CHECK(queue.ordered() == std::vector<std::string>{"b"});
  CHECK(queue.size() == 1);
  CHECK_FALSE(queue.contains("a"));
  CHECK(jgrid::engine::priority_rank("high") < jgrid::engine::priority_rank("low"));
}

TEST_CASE("engine::JobQueue::visit_lanes walks in order, stops on stop and allows removing the visited job", "[engine]") {
  JobQueue queue;
  for (const char* id : {"a", "b", "c", "d"}) queue.push(id, "balanced");
  std::vector<std::string> seen;
  queue.visit_lanes([&](const std::string& id) {
    std::string copy = id;
    seen.push_back(copy);
    if (copy == "b") queue.remove(copy);
    return copy == "c" ? JobQueue::Next::stop : JobQueue::Next::same_lane;
  });
  CHECK(seen == std::vector<std::string>{"a", "b", "c"});
  CHECK(queue.ordered() == std::vector<std::string>{"a", "c", "d"});
}

TEST_CASE("engine::JobQueue::visit_lanes leaves a lane after other_lanes and keeps the order across lanes", "[engine]") {
  JobQueue queue;
  queue.push("amd1", "balanced", "amd");
  queue.push("nv1", "balanced", "nvidia");
  queue.push("amd2", "balanced", "amd");
  queue.push("nv2", "balanced", "nvidia");
  queue.push("amd3", "high", "amd");
  std::vector<std::string> seen;
  queue.visit_lanes([&](const std::string& id) {
    seen.push_back(id);
    if (id.rfind("amd", 0) == 0) return JobQueue::Next::other_lanes;
    std::string copy = id;
    queue.remove(copy);
    return JobQueue::Next::same_lane;
  });
  // amd3 (high) heads the amd lane and waits, so amd1 and amd2 are not visited;
  // the nvidia lane is walked to its end in arrival order.
  CHECK(seen == std::vector<std::string>{"amd3", "nv1", "nv2"});
  CHECK(queue.ordered() == std::vector<std::string>{"amd3", "amd1", "amd2"});
  seen.clear();
  queue.visit_lanes([&](const std::string& id) {
    seen.push_back(id);
    return JobQueue::Next::same_lane;
  });
  CHECK(seen == std::vector<std::string>{"amd3", "amd1", "amd2"});
}
