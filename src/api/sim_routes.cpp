// docs/simulation.md §3–4: the simulation's clock, fault rules, node operations, reset
// and event digest under /v1/sim/.
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

}  // namespace jgrid::api
