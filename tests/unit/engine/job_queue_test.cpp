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

TEST_CASE("engine::JobQueue::visit walks in order, stops on false and allows removing the visited job", "[engine]") {
  JobQueue queue;
  for (const char* id : {"a", "b", "c", "d"}) queue.push(id, "balanced");
  std::vector<std::string> seen;
  queue.visit([&](const std::string& id) {
    std::string copy = id;
    seen.push_back(copy);
    if (copy == "b") queue.remove(copy);
    return copy != "c";
  });
  CHECK(seen == std::vector<std::string>{"a", "b", "c"});
  CHECK(queue.ordered() == std::vector<std::string>{"a", "c", "d"});
}
