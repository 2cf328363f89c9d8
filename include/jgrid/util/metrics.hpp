#pragma once
// Process-wide counters, gauges and histograms rendered in the Prometheus
// text exposition format (version 0.0.4). Generic: names and labels come
// from the callers. A family is created on first use and lives for the
// process; handles stay valid. Thread-safe.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace jgrid::util {

// Label pairs of one series, e.g. {{"route", "/v1/jobs"}, {"code", "202"}}.
using Labels = std::vector<std::pair<std::string, std::string>>;

enum class MetricType { counter, gauge, histogram };

// One metric name with all its labelled series.
class MetricFamily {
  struct Series;

 public:
  MetricFamily(std::string name, MetricType type, std::string help, std::vector<double> buckets);

  // Counter: adds `by` (>= 0). Gauge: adds `by` (any sign).
  void add(const Labels& labels, double by = 1);
  // Gauge: sets the value.
  void set(const Labels& labels, double value);
  // Histogram: counts `value` in its bucket, _sum and _count.
  void observe(const Labels& labels, double value);
  // Creates the series at zero when it does not exist yet, so a scrape shows
  // it before its first event (any type).
  void declare(const Labels& labels);

  // One series, found once: its add() and observe() skip rendering and
  // looking up the labels (for counts made per scheduled job). Declares it.
  class Handle {
   public:
    void add(double by = 1);
    void observe(double value);

   private:
    friend class MetricFamily;
    Handle(MetricFamily& family, Series& series) : m_family(&family), m_series(&series) {}
    MetricFamily* m_family;
    Series* m_series;
  };
  Handle handle(const Labels& labels);

  // "# HELP", "# TYPE" and every series, each line ending in '\n'.
  std::string render() const;

  const std::string& name() const { return m_name; }

 private:
  struct Series {
    double value = 0;                  // counter/gauge; histogram: sum
    std::uint64_t count = 0;           // histogram
    std::vector<std::uint64_t> le;     // histogram: per bucket (not cumulative)
  };
  Series& series_locked(const Labels& labels);
  void observe_locked(Series& series, double value);

  std::string m_name, m_help;
  MetricType m_type;
  std::vector<double> m_buckets;
  mutable std::mutex m_mutex;
  std::map<std::string, Series> m_series;  // key: rendered label set "{a=\"x\"}"
};

class Metrics {
 public:
  // The family `name`, created on first call with `type`, `help` and (for
  // histograms) upper bucket bounds; later calls return the same family.
  MetricFamily& family(const std::string& name, MetricType type, const std::string& help,
                       std::vector<double> buckets = {});
  // Every family, sorted by name.
  std::string render() const;

 private:
  mutable std::mutex m_mutex;
  std::map<std::string, std::unique_ptr<MetricFamily>> m_families;
};

// The process-wide registry.
Metrics& metrics();

// Latency buckets in seconds, 0.5 ms to 10 s.
const std::vector<double>& latency_buckets();

// Escapes a label value ('\\', '"', newline).
std::string escape_label(const std::string& value);

}  // namespace jgrid::util
