// Sequential POST /v1/jobs/estimate on one keep-alive connection: the
// latency one client sees. Prints one line: requests, p50, p99 and mean in
// microseconds; exits 1 when any answer is not a 200.
// Usage: estimate_latency URL IMAGE [requests, default 500]
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: estimate_latency URL IMAGE [requests]\n");
    return 2;
  }
  const std::string image = argv[2];
  const int requests = argc > 3 ? std::atoi(argv[3]) : 500;
  nlohmann::json body = {{"workload_type", "inference"}, {"image", image}, {"gpu_count", 1},
                         {"command", {"python", "serve.py"}}};
  const std::string text = body.dump();
  httplib::Client client(argv[1]);
  client.set_keep_alive(true);
  client.set_tcp_nodelay(true);  // headers and body go in two writes: without it, delayed ACKs add 40 ms
  std::vector<double> micros;
  micros.reserve(static_cast<std::size_t>(requests));
  for (int i = 0; i < requests; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto answer = client.Post("/v1/jobs/estimate", text, "application/json");
    auto end = std::chrono::steady_clock::now();
    if (!answer || answer->status != 200) {
      std::fprintf(stderr, "estimate %d failed: %s\n", i, answer ? std::to_string(answer->status).c_str() : "no answer");
      return 1;
    }
    micros.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  std::sort(micros.begin(), micros.end());
  double mean = 0;
  for (double m : micros) mean += m;
  mean /= static_cast<double>(micros.size());
  auto at = [&](double q) { return micros[static_cast<std::size_t>(q * static_cast<double>(micros.size() - 1))]; };
  std::printf("requests %d p50_us %.0f p99_us %.0f mean_us %.0f\n", requests, at(0.5), at(0.99), mean);
  return 0;
}
