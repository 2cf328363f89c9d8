#include "jgrid/util/metrics.hpp"

#include <cmath>
#include <cstdio>

namespace jgrid::util {
namespace {

const char* type_name(MetricType type) {
  switch (type) {
    case MetricType::counter: return "counter";
    case MetricType::gauge: return "gauge";
    case MetricType::histogram: return "histogram";
  }
  return "untyped";
}

std::string label_key(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (std::size_t i = 0; i < labels.size(); ++i)
    out += (i ? "," : "") + labels[i].first + "=\"" + escape_label(labels[i].second) + "\"";
  return out + "}";
}

// The label set with one more pair (the histogram's "le").
std::string with_le(const std::string& key, const std::string& le) {
  std::string pair = "le=\"" + le + "\"";
  if (key.empty()) return "{" + pair + "}";
  return key.substr(0, key.size() - 1) + "," + pair + "}";
}

std::string number(double value) {
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == std::floor(value) && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  char text[40];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

}  // namespace

std::string escape_label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\', out += c;
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

MetricFamily::MetricFamily(std::string name, MetricType type, std::string help, std::vector<double> buckets)
    : m_name(std::move(name)), m_help(std::move(help)), m_type(type), m_buckets(std::move(buckets)) {}

MetricFamily::Series& MetricFamily::series_locked(const Labels& labels) {
  auto& series = m_series[label_key(labels)];
  if (m_type == MetricType::histogram && series.le.empty()) series.le.assign(m_buckets.size(), 0);
  return series;
}

void MetricFamily::add(const Labels& labels, double by) {
  std::lock_guard lock(m_mutex);
  series_locked(labels).value += by;
}

void MetricFamily::declare(const Labels& labels) {
  std::lock_guard lock(m_mutex);
  series_locked(labels);
}

void MetricFamily::set(const Labels& labels, double value) {
  std::lock_guard lock(m_mutex);
  series_locked(labels).value = value;
}

void MetricFamily::observe(const Labels& labels, double value) {
  std::lock_guard lock(m_mutex);
  observe_locked(series_locked(labels), value);
}

MetricFamily::Handle MetricFamily::handle(const Labels& labels) {
  std::lock_guard lock(m_mutex);
  return Handle(*this, series_locked(labels));  // std::map nodes stay where they are
}

void MetricFamily::Handle::add(double by) {
  std::lock_guard lock(m_family->m_mutex);
  m_series->value += by;
}

void MetricFamily::Handle::observe(double value) {
  std::lock_guard lock(m_family->m_mutex);
  m_family->observe_locked(*m_series, value);
}

void MetricFamily::observe_locked(Series& series, double value) {
  series.value += value;
  series.count += 1;
  for (std::size_t i = 0; i < m_buckets.size(); ++i)
    if (value <= m_buckets[i]) {
      series.le[i] += 1;
      break;
    }
}

std::string MetricFamily::render() const {
  std::lock_guard lock(m_mutex);
  std::string out = "# HELP " + m_name + " " + m_help + "\n# TYPE " + m_name + " " + type_name(m_type) + "\n";
  for (const auto& [key, series] : m_series) {
    if (m_type != MetricType::histogram) {
      out += m_name + key + " " + number(series.value) + "\n";
      continue;
    }
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < m_buckets.size(); ++i) {
      cumulative += series.le[i];
      out += m_name + "_bucket" + with_le(key, number(m_buckets[i])) + " " + std::to_string(cumulative) + "\n";
    }
    out += m_name + "_bucket" + with_le(key, "+Inf") + " " + std::to_string(series.count) + "\n";
    out += m_name + "_sum" + key + " " + number(series.value) + "\n";
    out += m_name + "_count" + key + " " + std::to_string(series.count) + "\n";
  }
  return out;
}

MetricFamily& Metrics::family(const std::string& name, MetricType type, const std::string& help,
                              std::vector<double> buckets) {
  std::lock_guard lock(m_mutex);
  auto& slot = m_families[name];
  if (!slot) slot = std::make_unique<MetricFamily>(name, type, help, std::move(buckets));
  return *slot;
}

std::string Metrics::render() const {
  std::lock_guard lock(m_mutex);
  std::string out;
  for (const auto& [name, family] : m_families) out += family->render();
  return out;
}

Metrics& metrics() {
  static Metrics k_metrics;
  return k_metrics;
}

const std::vector<double>& latency_buckets() {
  static const std::vector<double> k_buckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                0.1,    0.25,  0.5,    1,     2.5,  5,     10};
  return k_buckets;
}

}  // namespace jgrid::util
