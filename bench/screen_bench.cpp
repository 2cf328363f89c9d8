// Cost of screening one request: the median time per screen() call, measured
// in batches of 50 calls (clock overhead stays out, and a batch is short
// enough that on a busy machine most batches run without being preempted),
// for the seed's example request (every rule passes) and for a request that
// several rules block.
// Usage: screen_bench [calls]   (default 200000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "jgrid/screen/screen.hpp"

namespace {

using namespace jgrid;

model::JobSpec example_request() {
  model::JobSpec spec;
  spec.image = "ghcr.io/acme/pytorch-rocm:latest";
  spec.gpu_vendor = "amd";
  spec.runtime = "rocm";
  spec.framework = "pytorch-rocm";
  spec.command = {"python", "infer.py"};
  return spec;
}

model::JobSpec blocked_request() {
  model::JobSpec spec = example_request();
  spec.image = "nvidia/cuda:12.4.0-runtime-ubuntu22.04";
  spec.command = {"bash", "-c", "nvidia-smi && pip install torch --index-url https://download.pytorch.org/whl/cu121"};
  spec.environment = {{"NVIDIA_VISIBLE_DEVICES", "all"}, {"LD_LIBRARY_PATH", "/usr/local/cuda/lib64"}};
  return spec;
}

double median_ns(const model::JobSpec& spec, const screen::ImageMetadata& image, long calls) {
  constexpr long k_batch = 50;
  std::vector<double> per_call;
  std::size_t sink = 0;
  for (long done = 0; done < calls; done += k_batch) {
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < k_batch; ++i) sink += screen::screen(spec, image).checks.size();
    std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    per_call.push_back(elapsed.count() / k_batch);
  }
  if (sink == 0) std::puts("");  // keeps the calls observable
  std::nth_element(per_call.begin(), per_call.begin() + per_call.size() / 2, per_call.end());
  return per_call[per_call.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  long calls = argc > 1 ? std::atol(argv[1]) : 200000;
  if (calls < 1000) calls = 1000;
  screen::ImageMetadata catalog{{{"io.junglegrid.runtime", "rocm"}}, {{"ROCM_VERSION", "6.2"}}, "sha256:0", true};
  std::printf("screen example request: %.0f ns median per call (%ld calls)\n",
              median_ns(example_request(), catalog, calls), calls);
  std::printf("screen blocked request: %.0f ns median per call (%ld calls)\n", median_ns(blocked_request(), {}, calls),
              calls);
  return 0;
}
