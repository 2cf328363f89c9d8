// Cost of routing at fleet scale (docs/simulation.md §5):
//   1. route::place() for one job over N fake nodes (default 10,000; a mixed
//      fleet, 60% AMD, half loaded): median µs per placement, per job shape;
//   2. a submit-like call: screening + placement, median µs;
//   3. route::report() (every node with its reasons: the estimate's slow path);
//   4. the engine with Q jobs queued on a full fleet (default 30,000): median
//      submit latency early and late in the queue (flat = no O(queue) pass),
//      and the time from a GPU freeing up to the next job's start.
// Medians are over batches, so clock overhead stays out.
// Usage: route_bench [nodes] [queued]
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <random>
#include <vector>

#include "jgrid/engine/engine.hpp"
#include "jgrid/route/placer.hpp"
#include "jgrid/screen/screen.hpp"
#include "jgrid/util/ids.hpp"

namespace {

using namespace jgrid;
using Clock = std::chrono::steady_clock;

struct Pool {
  const char* name;
  const char* vendor;
  const char* model;
  const char* family;
  const char* gpu_class;
  int gpus;
  double vram, price, speed;
  const char* region;
  double share;  // of the fleet
};

// 60% AMD, 40% NVIDIA, two regions, four classes of price and speed.
const std::vector<Pool> k_pools = {
    {"mi300x-east", "amd", "MI300X", "instinct", "datacenter", 8, 192, 2.10, 1.0, "us-east", 0.20},
    {"mi300x-west", "amd", "MI300X", "instinct", "datacenter", 8, 192, 2.25, 1.0, "us-west", 0.15},
    {"mi250-east", "amd", "MI250", "instinct", "datacenter", 4, 128, 1.40, 0.7, "us-east", 0.10},
    {"w7900-west", "amd", "Radeon PRO W7900", "radeon", "workstation", 2, 48, 0.90, 0.5, "us-west", 0.10},
    {"rx7900-east", "amd", "RX 7900 XTX", "radeon", "consumer", 1, 24, 0.45, 0.4, "us-east", 0.05},
    {"h100-west", "nvidia", "H100", "hopper", "datacenter", 8, 80, 2.90, 1.2, "us-west", 0.15},
    {"a100-east", "nvidia", "A100", "ampere", "datacenter", 8, 80, 1.80, 0.8, "us-east", 0.15},
    {"l40s-west", "nvidia", "L40S", "ada", "workstation", 4, 48, 1.10, 0.6, "us-west", 0.10},
};

std::vector<model::Node> make_fleet(int count) {
  std::vector<model::Node> nodes;
  for (const Pool& pool : k_pools) {
    int members = static_cast<int>(count * pool.share + 0.5);
    for (int i = 1; i <= members && static_cast<int>(nodes.size()) < count; ++i) {
      model::Node node;
      node.name = std::string(pool.name) + "-" + std::to_string(i);
      node.id = "node_" + node.name;
      node.pool = pool.name;
      node.gpu_vendor = pool.vendor;
      node.runtime = node.gpu_vendor == "amd" ? "rocm" : "cuda";
      node.runtime_version = node.gpu_vendor == "amd" ? "6.2" : "12.4";
      node.gpu_model = pool.model;
      node.gpu_family = pool.family;
      node.gpu_class = pool.gpu_class;
      node.gpu_count = node.gpus_free = pool.gpus;
      node.vram_gb = pool.vram;
      node.price_per_gpu_hour = pool.price;
      node.speed = pool.speed;
      node.region = pool.region;
      nodes.push_back(std::move(node));
    }
  }
  return nodes;
}

// About half the GPUs taken, one job per taken GPU at most.
void load_half(route::FleetIndex& fleet) {
  std::mt19937 random(42);
  for (std::size_t slot = 0; slot < fleet.size(); ++slot) {
    int gpus = fleet.node(slot).gpu_count;
    int free = static_cast<int>(random() % static_cast<unsigned>(gpus + 1));
    int running = free == gpus ? 0 : 1 + static_cast<int>(random() % static_cast<unsigned>(gpus - free));
    fleet.set_load(slot, free, running);
  }
}

model::JobSpec example_request() {
  model::JobSpec spec;
  spec.image = "ghcr.io/acme/pytorch-rocm:latest";
  spec.gpu_vendor = "amd";
  spec.runtime = "rocm";
  spec.framework = "pytorch-rocm";
  spec.command = {"python", "infer.py"};
  return spec;
}

struct Shape {
  const char* label;
  model::JobSpec spec;
};

std::vector<Shape> job_shapes() {
  std::vector<Shape> shapes;
  shapes.push_back({"example request (AMD, 1 GPU, balanced)", example_request()});
  model::JobSpec big = example_request();
  big.gpu_count = 8;
  big.optimize_for = "speed";
  shapes.push_back({"AMD, 8 GPUs, speed", big});
  model::JobSpec cheap = example_request();
  cheap.optimize_for = "cost";
  cheap.constraints = {{"region_preference", "us-west"}, {"avoid_gpu_families", {"radeon"}}};
  shapes.push_back({"AMD, cost, region prefer + avoid family", cheap});
  model::JobSpec cuda;
  cuda.image = "nvcr.io/nvidia/pytorch:24.01-py3";
  cuda.gpu_count = 2;
  shapes.push_back({"no intent, CUDA image (NVIDIA only), 2 GPUs", cuda});
  model::JobSpec any;
  any.image = "ghcr.io/acme/app:latest";
  shapes.push_back({"no intent, any vendor, 1 GPU", any});
  return shapes;
}

// Runs `call` in batches of about a millisecond for about `budget_s`
// seconds; the median batch's time per call.
template <typename F>
double median_us(F&& call, double budget_s = 0.5) {
  auto probe = Clock::now();
  call();
  double once_us = std::max(std::chrono::duration<double, std::micro>(Clock::now() - probe).count(), 0.01);
  long batch = std::max(1L, static_cast<long>(1000.0 / once_us));
  std::vector<double> per_call;
  auto deadline = Clock::now() + std::chrono::duration<double>(budget_s);
  while (per_call.size() < 5 || Clock::now() < deadline) {
    auto start = Clock::now();
    for (long i = 0; i < batch; ++i) call();
    std::chrono::duration<double, std::micro> elapsed = Clock::now() - start;
    per_call.push_back(elapsed.count() / static_cast<double>(batch));
  }
  std::nth_element(per_call.begin(), per_call.begin() + static_cast<long>(per_call.size() / 2), per_call.end());
  return per_call[per_call.size() / 2];
}

enum class Variant { pools, host_labels, unique_prices, unique_regions };

void bench_router(int node_count, Variant variant) {
  auto nodes = make_fleet(node_count);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (variant == Variant::host_labels) nodes[i].labels["host"] = nodes[i].name;
    if (variant == Variant::unique_prices) nodes[i].price_per_gpu_hour += static_cast<double>(i) * 1e-6;
    if (variant == Variant::unique_regions) nodes[i].region += "-" + std::to_string(i);
  }
  route::FleetIndex fleet(std::move(nodes), 42);
  load_half(fleet);
  const char* what = variant == Variant::pools         ? "nodes as pools make them"
                     : variant == Variant::host_labels   ? "a label of its own on every node"
                     : variant == Variant::unique_prices ? "a price of its own on every node"
                                                         : "a region of its own on every node: worst case";
  std::printf("== router: %zu nodes (60%% AMD, about half the GPUs taken; %s), %zu node classes\n", fleet.size(), what,
              fleet.classes().size());
  std::size_t sink = 0;
  for (const Shape& shape : job_shapes()) {
    screen::Screening screening = screen::screen(shape.spec, {});
    route::RouteRequest request{shape.spec, screening.intent};
    double place = median_us([&] { sink += route::place(request, fleet).placement.has_value(); });
    double submit = median_us([&] {
      screen::Screening screened = screen::screen(shape.spec, {});
      sink += route::place(route::RouteRequest{shape.spec, screened.intent}, fleet).candidates.size();
    });
    double report = median_us([&] { sink += route::report(request, fleet).candidates.size(); });
    std::printf("%-45s place %7.1f us   screening+place %7.1f us   report (every node) %8.0f us\n", shape.label, place,
                submit, report);
    std::fflush(stdout);
  }
  if (sink == 0) std::puts("");
}

// An executor whose runs last until the bench ends one.
class HoldExecutor final : public exec::Executor {
 public:
  std::string kind() const override { return "hold"; }
  Status start(exec::RunRequest request, exec::RunSink& sink) override {
    std::lock_guard lock(m_mutex);
    m_sink = &sink;
    m_started.push_back(request.job.id);
    m_changed.notify_all();
    return Ok{};
  }
  void cancel(const std::string&) override {}
  void shutdown() override {}
  bool wait_started(std::size_t count) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, std::chrono::seconds(60), [&] { return m_started.size() >= count; });
  }
  void finish(const std::string& job_id) {
    exec::RunSink* sink = nullptr;
    {
      std::lock_guard lock(m_mutex);
      sink = m_sink;
    }
    exec::RunOutcome outcome;
    outcome.exit_code = 0;
    sink->finished(job_id, outcome);
  }
  std::string last_started() {
    std::lock_guard lock(m_mutex);
    return m_started.back();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  exec::RunSink* m_sink = nullptr;
  std::vector<std::string> m_started;
};

double median_ms(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + static_cast<long>(values.size() / 2), values.end());
  return values[values.size() / 2];
}

void bench_engine_queue(int queued) {
  constexpr int k_nodes = 1000;
  auto dir = std::filesystem::temp_directory_path() / util::new_id("jgrid-route-bench", util::wall_now_ms());
  auto store = store::Store::open(store::StoreOptions{});
  if (!store) return;
  exec::Fleet fleet;
  for (auto& node : make_fleet(k_nodes)) {
    node.gpu_count = node.gpus_free = 1;
    fleet.nodes.push_back(std::move(node));
  }
  auto executor = std::make_shared<HoldExecutor>();
  engine::EngineOptions options;
  options.data_dir = dir;
  engine::Engine engine(**store, util::make_real_clock(), fleet, {{"simulated", executor}}, options);
  if (!engine.start()) return;
  model::JobSpec cuda = job_shapes()[3].spec;
  cuda.gpu_count = 1;
  std::vector<std::string> running;
  for (int i = 0; i < k_nodes; ++i) {
    auto submitted = engine.submit({i < k_nodes * 6 / 10 ? example_request() : cuda});
    if (!submitted) {
      std::printf("submit failed: %s\n", submitted.error().message.c_str());
      return;
    }
    running.push_back(submitted->job.id);
  }
  executor->wait_started(k_nodes);

  std::vector<double> latencies;
  for (int i = 0; i < queued; ++i) {
    auto start = Clock::now();
    (void)engine.submit({example_request()});
    latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::size_t tenth = std::max<std::size_t>(latencies.size() / 10, 1);
  double early = median_ms({latencies.begin(), latencies.begin() + static_cast<long>(tenth)});
  double late = median_ms({latencies.end() - static_cast<long>(tenth), latencies.end()});
  auto freed = Clock::now();
  executor->finish(running.front());
  executor->wait_started(k_nodes + 1);
  double handover = std::chrono::duration<double, std::milli>(Clock::now() - freed).count();
  std::printf("== engine: %d one-GPU nodes full, %d ROCm jobs queued behind them\n", k_nodes, queued);
  std::printf("submit (durable, in-memory store): median %.3f ms for the first 10%%, %.3f ms for the last 10%%\n",
              early, late);
  std::printf("GPU freed -> next queued job started: %.1f ms\n", handover);
  engine.stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = argc > 1 ? std::atoi(argv[1]) : 10000;
  int queued = argc > 2 ? std::atoi(argv[2]) : 30000;
  const char* only = std::getenv("ROUTE_BENCH_VARIANT");  // pools | host_labels | unique_prices | unique_regions
  const std::vector<std::pair<const char*, Variant>> variants = {{"pools", Variant::pools},
                                                                 {"host_labels", Variant::host_labels},
                                                                 {"unique_prices", Variant::unique_prices},
                                                                 {"unique_regions", Variant::unique_regions}};
  for (const auto& [name, variant] : variants)
    if (!only || std::string(only) == name) bench_router(std::max(nodes, 1), variant);
  if (queued > 0) bench_engine_queue(queued);
  return 0;
}
