// docs/simulation.md §3–4: the simulation's clock, fault rules, node operations, reset,
// event digest and fleet utilisation under /v1/sim/.
#include <cmath>

#include "api/errors.hpp"
#include "api/handlers.hpp"
#include "jgrid/exec/faults.hpp"
#include "jgrid/util/time.hpp"

namespace jgrid::api {
namespace {

constexpr double k_max_advance_s = 365.0 * 24 * 3600;

Json clock_body(const Context& ctx) {
  const util::Clock& clock = ctx.engine.clock();
  std::int64_t now = clock.now_ms();
  return Json{{"mode", clock.mode()},
              {"now", util::format_time(now)},
              {"now_ms", now},
              {"scale", clock.is_virtual() ? Json(nullptr) : Json(clock.scale())},
              {"pending_timers", clock.pending_timers()}};
}

Result<exec::FaultBook*> fault_book(const Context& ctx) {
  if (auto* faults = ctx.engine.faults()) return faults;
  return make_error("CONFLICT", "this server has no simulated executor to inject faults into");
}

// GPUs in use over GPUs not offline, to 4 decimals; null without GPUs.
Json busy_shares(const std::vector<std::int64_t>& running, const std::vector<std::int64_t>& total) {
  Json shares = Json::array();
  for (std::size_t i = 0; i < running.size(); ++i)
    shares.push_back(total[i] > 0 ? Json(std::round(10000.0 * running[i] / total[i]) / 10000.0) : Json(nullptr));
  return shares;
}

// The shape of the `series` of a `simulate --report` run (t_s, queued,
// running_gpus by pool), plus absolute times, capacity and busy shares.
Json utilisation_body(const engine::FleetSeries& s, const std::string& mode) {
  Json t_s = Json::array(), running = Json::object(), total = Json::object(), busy = Json::object();
  for (auto t : s.t_ms) t_s.push_back(static_cast<double>(t - s.t_ms.front()) / 1000.0);
  for (std::size_t p = 0; p < s.pools.size(); ++p) {
    running[s.pools[p]] = s.running_gpus[p];
    total[s.pools[p]] = s.total_gpus[p];
    busy[s.pools[p]] = busy_shares(s.running_gpus[p], s.total_gpus[p]);
  }
  return Json{{"interval_seconds", static_cast<double>(s.interval_ms) / 1000.0},
              {"max_samples", s.capacity},
              {"clock", mode},
              {"now", util::format_time(s.now_ms)},
              {"now_ms", s.now_ms},
              {"start", s.t_ms.empty() ? Json(nullptr) : Json(util::format_time(s.t_ms.front()))},
              {"pools", s.pools},
              {"t_ms", s.t_ms},
              {"t_s", t_s},
              {"queued", s.queued},
              {"running_gpus", running},
              {"total_gpus", total},
              {"busy_share", busy}};
}

}  // namespace

Result<Json> get_sim_clock(const Context& ctx, const Call&) { return clock_body(ctx); }

Result<Json> advance_sim_clock(const Context& ctx, const Call& call) {
  if (!ctx.engine.clock().is_virtual())
    return make_error("CONFLICT", "the clock is real: start the server with --clock virtual to move time by hand");
  auto seconds = call.body.is_object() ? call.body.find("seconds") : call.body.end();
  if (!call.body.is_object() || seconds == call.body.end() || !seconds->is_number() || seconds->get<double>() < 0 ||
      seconds->get<double>() > k_max_advance_s)
    return invalid_request("seconds: expected a number of seconds between 0 and one year", "seconds");
  ctx.engine.advance_clock(static_cast<std::int64_t>(seconds->get<double>() * 1000.0));
  return clock_body(ctx);
}

Result<Json> list_sim_faults(const Context& ctx, const Call&) {
  auto book = fault_book(ctx);
  if (!book) return book.error();
  Json faults = Json::array();
  for (const auto& rule : (*book)->list()) faults.push_back(exec::fault_to_json(rule));
  return Json{{"faults", faults}};
}

Result<Reply> add_sim_fault(const Context& ctx, const Call& call) {
  auto book = fault_book(ctx);
  if (!book) return book.error();
  auto rule = exec::decode_fault_rule(call.body);
  if (!rule) return rule.error();
  return Reply::of(exec::fault_to_json((*book)->add(std::move(*rule))), 201);
}

Result<Json> delete_sim_fault(const Context& ctx, const Call& call) {
  auto book = fault_book(ctx);
  if (!book) return book.error();
  if (!(*book)->remove(call.capture(0))) return not_found("fault rule", call.capture(0));
  return Json{{"id", call.capture(0)}, {"deleted", true}};
}

Result<Json> sim_node_operation(const Context& ctx, const Call& call) {
  auto node = ctx.engine.set_node_status(call.capture(0), call.capture(1));
  if (!node) return node.error();
  return model::node_to_api(*node);
}

Result<Json> reset_sim(const Context& ctx, const Call&) {
  auto report = ctx.engine.reset_simulation();
  if (!report) return report.error();
  const store::DeletedRows& d = report->deleted;
  return Json{{"ok", true},
              {"cancelled_jobs", report->cancelled_jobs},
              {"deleted", {{"jobs", d.jobs},
                           {"events", d.events},
                           {"log_lines", d.log_lines},
                           {"artifacts", d.artifacts},
                           {"inputs", d.inputs},
                           {"callback_deliveries", d.deliveries}}}};
}

Result<Json> get_sim_digest(const Context& ctx, const Call&) {
  return Json{{"digest", ctx.engine.event_digest()},
              {"events", ctx.engine.digested_events()},
              {"clock", clock_body(ctx)}};
}

Result<Json> get_sim_utilisation(const Context& ctx, const Call&) {
  return utilisation_body(ctx.engine.fleet_history(), ctx.engine.clock().mode());
}

}  // namespace jgrid::api
