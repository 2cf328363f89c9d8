#include "jgrid/exec/faults.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "exec/json_checker.hpp"
#include "exec/sim_failures.hpp"
#include "exec/sim_random.hpp"
#include "jgrid/model/job_spec.hpp"

namespace jgrid::exec {
namespace {

// The largest `slow` factor of a fault rule (a run of a week × 1000 still
// fits a clock timer).
constexpr double k_max_fault_value = 1000;

bool known_effect(const std::string& effect) {
  return std::any_of(std::begin(k_fault_effects), std::end(k_fault_effects),
                     [&](const char* known) { return effect == known; });
}

std::string effect_list() {
  std::string out;
  for (const char* effect : k_fault_effects) out += (out.empty() ? "" : ", ") + std::string(effect);
  return out;
}

bool is_interrupt(const std::string& effect) {
  return effect == "node_lost" || effect == "ecc_error" || effect == "preempt";
}

void read_target(JsonChecker& checker, const Json& body, FaultRule& rule) {
  const Json* target = checker.object(body, "", "target");
  if (!target) return;
  rule.node = checker.text(*target, "target", "node", "");
  rule.pool = checker.text(*target, "target", "pool", "");
  rule.job = checker.text(*target, "target", "job", "");
  bool any = checker.boolean(*target, "target", "any", false);
  int given = !rule.node.empty() + !rule.pool.empty() + !rule.job.empty() + any;
  if (checker.ok() && given > 1) checker.fail("target", "one of node, pool, job or any", target);
}

bool matches(const FaultRule& rule, const model::Node& node, const std::string& job_id) {
  if (!rule.node.empty()) return rule.node == node.name || rule.node == node.id;
  if (!rule.pool.empty()) return rule.pool == node.pool;
  if (!rule.job.empty()) return rule.job == job_id;
  return true;
}

void apply(RunFaults& faults, const std::string& effect, std::optional<double> value, std::optional<double> after_s) {
  if (effect == "start_error") faults.fail_start = true;
  if (effect == "image_pull_failed") faults.pull_fails = true;
  if (effect == "oom") faults.oom = true;
  if (effect == "exit_code") faults.exit_code = static_cast<int>(value.value_or(1));
  if (effect == "slow") faults.slow_factor *= value.value_or(2.0);
  const auto& failures = sim_failure_effects();
  if (faults.failure.empty() && std::find(failures.begin(), failures.end(), effect) != failures.end())
    faults.failure = effect;
  if (is_interrupt(effect) && faults.interrupt.empty()) {
    faults.interrupt = effect;
    faults.interrupt_after_s = after_s;
  }
}

void draw_pool_rates(RunFaults& faults, const PoolFaults& pool, const std::string& name, Random& random) {
  auto fire = [&](double rate, const char* effect, std::optional<double> value) {
    if (!random.chance(rate)) return;
    apply(faults, effect, value, std::nullopt);
    faults.rules.push_back("pool:" + name + ":" + effect);
  };
  fire(pool.start_error_rate, "start_error", std::nullopt);
  fire(pool.image_pull_failure_rate, "image_pull_failed", std::nullopt);
  fire(pool.exit_code_rate, "exit_code", pool.exit_code);
  fire(pool.oom_rate, "oom", std::nullopt);
  fire(pool.slow_rate, "slow", pool.slow_factor);
}

}  // namespace

Result<FaultRule> decode_fault_rule(const nlohmann::json& body) {
  JsonChecker checker("INVALID_REQUEST", "");
  FaultRule rule;
  if (!body.is_object()) checker.fail("(body)", "a JSON object", &body);
  if (checker.ok()) read_target(checker, body, rule);
  if (checker.ok()) rule.effect = checker.text(body, "", "effect", std::nullopt);
  if (checker.ok() && !known_effect(rule.effect)) checker.fail("effect", "one of " + effect_list(), &body.at("effect"));
  if (checker.ok() && body.contains("value") && !body.at("value").is_null()) {
    double min = rule.effect == "exit_code" ? 1 : 0;
    rule.value = checker.number(body, "", "value", std::nullopt, min, rule.effect != "exit_code");
    if (checker.ok() && rule.effect == "exit_code" && (*rule.value > 255 || std::floor(*rule.value) != *rule.value))
      checker.fail("value", "an exit code 1..255", &body.at("value"));
    if (checker.ok() && rule.effect != "exit_code" && *rule.value > k_max_fault_value)
      checker.fail("value", "a number > 0 and <= 1000", &body.at("value"));
  }
  rule.probability = checker.number(body, "", "probability", 1.0, 0);
  if (checker.ok() && rule.probability > 1) checker.fail("probability", "a number between 0 and 1", &body.at("probability"));
  if (checker.ok() && body.contains("after_s") && !body.at("after_s").is_null())
    rule.after_s = checker.number(body, "", "after_s", std::nullopt, 0);
  if (checker.ok() && rule.after_s && *rule.after_s > model::k_max_sim_duration_s)
    checker.fail("after_s", "a number of seconds 0..604800 (a week)", &body.at("after_s"));
  if (checker.ok() && body.contains("count") && !body.at("count").is_null())
    rule.count = static_cast<int>(checker.integer(body, "", "count", std::nullopt, 1, INT_MAX));
  if (!checker.ok()) return checker.error();
  return rule;
}

nlohmann::json fault_to_json(const FaultRule& rule) {
  nlohmann::json target = nlohmann::json::object();
  if (!rule.node.empty()) target["node"] = rule.node;
  else if (!rule.pool.empty()) target["pool"] = rule.pool;
  else if (!rule.job.empty()) target["job"] = rule.job;
  else target["any"] = true;
  auto optional = [](const auto& value) { return value ? nlohmann::json(*value) : nlohmann::json(nullptr); };
  return {{"id", rule.id},         {"target", target},         {"effect", rule.effect},
          {"value", optional(rule.value)}, {"probability", rule.probability}, {"after_s", optional(rule.after_s)},
          {"count", optional(rule.count)}, {"fired", rule.fired}};
}

void draw_pool_interrupt(RunFaults& faults, const PoolFaults& pool, const std::string& pool_name, double run_s,
                         std::uint64_t seed) {
  if (!faults.interrupt.empty() || run_s <= 0) return;
  Random random(mix_seed(seed, 7));
  double hours = run_s / 3600.0;
  std::pair<double, const char*> rates[] = {
      {pool.node_lost_per_hour, "node_lost"}, {pool.ecc_error_per_hour, "ecc_error"}, {pool.preempt_per_hour, "preempt"}};
  for (auto [rate, effect] : rates) {
    if (!random.chance(1 - std::exp(-rate * hours))) continue;
    apply(faults, effect, std::nullopt, random.uniform(0, run_s));
    faults.rules.push_back("pool:" + pool_name + ":" + effect);
    return;
  }
}

FaultRule FaultBook::add(FaultRule rule) {
  std::lock_guard lock(m_mutex);
  rule.id = "flt_" + std::to_string(++m_next_id);
  rule.fired = 0;
  m_rules.push_back(rule);
  return rule;
}

std::vector<FaultRule> FaultBook::list() const {
  std::lock_guard lock(m_mutex);
  return m_rules;
}

bool FaultBook::remove(const std::string& id) {
  std::lock_guard lock(m_mutex);
  return std::erase_if(m_rules, [&](const FaultRule& rule) { return rule.id == id; }) > 0;
}

void FaultBook::clear() {
  std::lock_guard lock(m_mutex);
  m_rules.clear();
}

RunFaults FaultBook::draw(const model::Node& node, const std::string& job_id, const PoolFaults* pool,
                          std::uint64_t seed) {
  Random random(mix_seed(seed, 3));
  RunFaults faults;
  {
    std::lock_guard lock(m_mutex);
    for (auto& rule : m_rules) {
      if ((rule.count && *rule.count <= 0) || !matches(rule, node, job_id)) continue;
      if (rule.probability < 1 && !random.chance(rule.probability)) continue;
      if (rule.count) --*rule.count;
      ++rule.fired;
      apply(faults, rule.effect, rule.value, rule.after_s);
      faults.rules.push_back(rule.id);
    }
  }
  if (pool) draw_pool_rates(faults, *pool, node.pool, random);
  return faults;
}

}  // namespace jgrid::exec
