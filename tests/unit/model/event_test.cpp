#include <catch2/catch.hpp>

#include "jgrid/model/event.hpp"

using namespace jgrid::model;

TEST_CASE("model::event_title names known and unknown types", "[model]") {
  CHECK(event_title("job.route_selected") == "Route selected");
  CHECK(event_title("job.completed") == "Job completed");
  CHECK(event_title("job.capacity_waiting") == "Waiting for capacity");
  CHECK(event_title("node.gpu_reset") == "Node gpu reset");
  for (const char* type : {"job.submitted", "job.screened", "job.queued", "job.assigned", "job.provisioning",
                           "job.image_inspected", "job.inputs_prepared", "job.container_starting", "job.running",
                           "job.retrying", "job.artifacts_collected", "job.callback_delivered",
                           "job.callback_failed", "job.failed", "job.rejected", "job.cancel_requested",
                           "job.cancelled", "job.timed_out"}) {
    std::string title = event_title(type);
    CHECK_FALSE(title.empty());
    CHECK(title.find('.') == std::string::npos);
    CHECK(title.find('_') == std::string::npos);
  }
}

TEST_CASE("model::event_to_api carries every docs/api.md event field", "[model]") {
  Event event;
  event.id = "evt_1";
  event.job_id = "job_1";
  event.sequence = 4;
  event.type = "job.route_selected";
  event.phase = "scheduling";
  event.message = "MI300X on mi300x-east-1";
  event.source = "router";
  event.created_ms = 1'790'000'000'123;
  event.data = {{"node_id", "node_x"}};
  nlohmann::json api = event_to_api(event);
  CHECK(api == nlohmann::json{{"id", "evt_1"},           {"job_id", "job_1"},
                              {"sequence", 4},           {"type", "job.route_selected"},
                              {"phase", "scheduling"},   {"title", "Route selected"},
                              {"message", "MI300X on mi300x-east-1"}, {"source", "router"},
                              {"level", "info"},         {"created_at", "2026-09-21T14:13:20.123Z"},
                              {"data", {{"node_id", "node_x"}}}});
}

TEST_CASE("model::event_to_api always sets title and message, never job_id of node events", "[model]") {
  Event event;
  event.id = "evt_2";
  event.type = "node.offline";
  event.title = "Custom";
  nlohmann::json api = event_to_api(event);
  CHECK(api["title"] == "Custom");
  CHECK(api["message"] == "Custom");
  CHECK_FALSE(api.contains("job_id"));
  CHECK(api["data"] == nlohmann::json::object());
}
