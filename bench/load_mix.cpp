// Mixed load against a running server: C connections (default 64), each a
// keep-alive client in its own thread, for S seconds. Each request is drawn
// from the mix: submit 20%, get 30%, list 20%, logs page 20%, and an SSE
// subscription 10% (live logs of a recent job or the /v1/events feed, read
// for up to 1 s and then closed by the client).
// Prints requests served and 2xx answers per kind (for sse: subscriptions
// opened with a 2xx), 5xx responses, failed connections and the p50/p99
// latency of the non-streaming requests; exits 1 when any response was a 5xx
// or any connection failed (a stream closed by the client on purpose is
// neither), or when a kind got fewer 2xx answers than min_2xx: a server
// refusing everything (401 to all) must not pass as "no 5xx".
// Usage: load_mix URL [seconds] [connections] [min_2xx]
//   min_2xx: the least 2xx answers each kind must get (default 5, a floor
//   far below what a working server gives even in 10 s; 0 checks nothing).
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* k_body =
    R"({"workload_type":"inference","image":"ghcr.io/acme/pytorch-rocm:latest","gpu_vendor":"amd",)"
    R"("runtime":"rocm","sim":{"duration_s":2}})";

enum Kind { submit, get, list, logs, sse, k_kinds };
constexpr const char* k_names[] = {"submit", "get", "list", "logs", "sse"};

struct Tally {
  std::uint64_t served[k_kinds] = {};
  std::uint64_t ok[k_kinds] = {};  // 2xx answers (sse: subscriptions opened)
  std::uint64_t server_errors = 0, failed = 0;
  std::vector<double> latency_ms;
};

// Job ids submitted so far, shared by the workers (recent ones are read).
class Recent {
 public:
  void add(std::string id) {
    std::lock_guard lock(m_mutex);
    if (m_ids.size() < 256) m_ids.push_back(std::move(id));
    else m_ids[m_next++ % m_ids.size()] = std::move(id);
  }
  std::string pick(std::mt19937& rng) {
    std::lock_guard lock(m_mutex);
    if (m_ids.empty()) return "";
    return m_ids[std::uniform_int_distribution<std::size_t>(0, m_ids.size() - 1)(rng)];
  }

 private:
  std::mutex m_mutex;
  std::vector<std::string> m_ids;
  std::size_t m_next = 0;
};

Kind draw(std::mt19937& rng) {
  int r = std::uniform_int_distribution<int>(0, 99)(rng);
  return r < 20 ? submit : r < 50 ? get : r < 70 ? list : r < 90 ? logs : sse;
}

class Worker {
 public:
  Worker(const std::string& url, Recent& recent, unsigned seed) : m_http(url), m_recent(recent), m_rng(seed) {
    m_http.set_keep_alive(true);
    m_http.set_connection_timeout(5, 0);
    m_http.set_read_timeout(10, 0);
  }

  void run(Clock::time_point until) {
    while (Clock::now() < until) one(draw(m_rng));
  }

  Tally tally;

 private:
  void one(Kind kind) {
    std::string id = m_recent.pick(m_rng);
    if (id.empty() && kind != list) kind = submit;
    if (kind == sse) return stream(id);
    auto start = Clock::now();
    httplib::Result result = send(kind, id);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    tally.latency_ms.push_back(ms);
    record(kind, result, ms);
    if (kind == submit && result && result->status == 202) {
      auto job = nlohmann::json::parse(result->body, nullptr, false);
      if (job.is_object() && job.contains("job_id")) m_recent.add(job["job_id"].get<std::string>());
    }
  }

  httplib::Result send(Kind kind, const std::string& id) {
    switch (kind) {
      case submit: return m_http.Post("/v1/jobs", k_body, "application/json");
      case get: return m_http.Get("/v1/jobs/" + id);
      case list: return m_http.Get("/v1/jobs?limit=20");
      default: return m_http.Get("/v1/jobs/" + id + "/logs?limit=100");
    }
  }

  void record(Kind kind, const httplib::Result& result, double ms) {
    if (!result) {
      ++tally.failed;
      std::fprintf(stderr, "%s: connection failed after %.0f ms: %s\n", k_names[kind], ms,
                   httplib::to_string(result.error()).c_str());
      return;
    }
    ++tally.served[kind];
    if (result->status >= 200 && result->status < 300) ++tally.ok[kind];
    if (result->status >= 500) {
      ++tally.server_errors;
      std::fprintf(stderr, "%s: HTTP %d: %.200s\n", k_names[kind], result->status, result->body.c_str());
    }
  }

  // A subscription read for up to 1 s, then closed by this side.
  void stream(const std::string& id) {
    bool feed = std::uniform_int_distribution<int>(0, 1)(m_rng) == 0;
    std::string path = feed ? "/v1/events" : "/v1/jobs/" + id + "/logs/live";
    auto until = Clock::now() + std::chrono::seconds(1);
    bool closed_by_us = false;
    int status = 0;  // the answer's status, kept: a stream we close leaves no response
    auto result = m_http.Get(
        path,
        [&](const httplib::Response& response) {
          status = response.status;
          return true;
        },
        [&](const char*, std::size_t) {
          closed_by_us = Clock::now() >= until;
          return !closed_by_us;
        });
    if (!result && closed_by_us && result.error() == httplib::Error::Canceled) {
      ++tally.served[sse];
      if (status >= 200 && status < 300) ++tally.ok[sse];
      return;
    }
    record(sse, result, 0);
  }

  httplib::Client m_http;
  Recent& m_recent;
  std::mt19937 m_rng;
};

double percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
  return values[index];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: load_mix URL [seconds] [connections] [min_2xx]\n");
    return 2;
  }
  std::string url = argv[1];
  int seconds = argc > 2 ? std::atoi(argv[2]) : 60;
  int connections = argc > 3 ? std::atoi(argv[3]) : 64;
  std::uint64_t min_ok = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 5;
  Recent recent;
  std::vector<Worker> workers;
  workers.reserve(static_cast<std::size_t>(connections));
  for (int i = 0; i < connections; ++i) workers.emplace_back(url, recent, 1000u + static_cast<unsigned>(i));
  auto until = Clock::now() + std::chrono::seconds(seconds);
  std::vector<std::thread> threads;
  for (auto& worker : workers) threads.emplace_back([&worker, until] { worker.run(until); });
  for (auto& thread : threads) thread.join();

  Tally total;
  for (auto& worker : workers) {
    for (int k = 0; k < k_kinds; ++k) {
      total.served[k] += worker.tally.served[k];
      total.ok[k] += worker.tally.ok[k];
    }
    total.server_errors += worker.tally.server_errors;
    total.failed += worker.tally.failed;
    total.latency_ms.insert(total.latency_ms.end(), worker.tally.latency_ms.begin(), worker.tally.latency_ms.end());
  }
  std::uint64_t served = 0;
  for (auto n : total.served) served += n;
  std::printf("requests served: %llu in %d s over %d connections (%.0f/s)\n", static_cast<unsigned long long>(served),
              seconds, connections, static_cast<double>(served) / seconds);
  for (int k = 0; k < k_kinds; ++k)
    std::printf("  %-6s %llu (%llu 2xx)\n", k_names[k], static_cast<unsigned long long>(total.served[k]),
                static_cast<unsigned long long>(total.ok[k]));
  std::printf("5xx responses: %llu\nfailed connections: %llu\n", static_cast<unsigned long long>(total.server_errors),
              static_cast<unsigned long long>(total.failed));
  std::printf("latency (non-streaming): p50 %.2f ms, p99 %.2f ms\n", percentile(total.latency_ms, 0.50),
              percentile(total.latency_ms, 0.99));
  bool short_of_2xx = false;
  for (int k = 0; k < k_kinds; ++k) {
    if (total.ok[k] >= min_ok) continue;
    short_of_2xx = true;
    std::fprintf(stderr, "FAIL: %s got %llu 2xx answers, fewer than the minimum %llu\n", k_names[k],
                 static_cast<unsigned long long>(total.ok[k]), static_cast<unsigned long long>(min_ok));
  }
  return total.server_errors == 0 && total.failed == 0 && !short_of_2xx ? 0 : 1;
}
