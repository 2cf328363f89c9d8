#include "jgrid/engine/engine.hpp"

#include "engine_metrics.hpp"
#include "estimate.hpp"
#include "impl.hpp"

namespace jgrid::engine {

Engine::Engine(store::Store& store, std::shared_ptr<util::Clock> clock, exec::Fleet fleet,
               exec::ExecutorRegistry executors, EngineOptions options)
    : m_impl(std::make_unique<Impl>(store, std::move(clock), std::move(fleet), std::move(executors),
                                    std::move(options))) {
  m_impl->m_queue.watch(&m_impl->m_history);
  m_impl->m_pool.watch(&m_impl->m_history);
  declare_engine_metrics();
}

Engine::~Engine() { stop(); }

Status Engine::start() { return m_impl->start(); }
void Engine::stop() { m_impl->stop(); }
bool Engine::ready() const { return m_impl->m_ready; }

Result<SubmitResult> Engine::submit(SubmitRequest request) { return m_impl->submit(std::move(request)); }

Result<PreparedSubmit> Engine::prepare(SubmitRequest request) const { return m_impl->prepare(std::move(request)); }

Result<SubmitResult> Engine::submit_prepared(PreparedSubmit prepared) {
  return m_impl->submit_prepared(std::move(prepared));
}

Result<model::Job> Engine::cancel(const std::string& job_id, const std::string& workspace, const std::string& reason) {
  return m_impl->cancel(job_id, workspace, reason);
}

model::Json Engine::estimate(const model::JobSpec& spec, model::Framing framing) const {
  auto image = m_impl->read_image(spec.image, m_impl->m_options.image_lookup_bound);
  screen::Screening screening = m_impl->screen_read(spec, image);
  route::RouteResult route;
  {
    std::lock_guard lock(m_impl->m_mutex);
    route = route::report(route::RouteRequest{spec, screening.intent}, m_impl->m_pool.index());
  }
  return estimate_body(spec, screening, route, framing);
}

std::vector<model::Node> Engine::nodes() const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_pool.snapshot();
}

std::vector<model::Node> Engine::nodes(std::size_t offset, std::size_t limit) const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_pool.snapshot(offset, limit);
}

std::size_t Engine::node_count() const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_pool.index().size();
}

std::optional<model::Node> Engine::node(const std::string& node_id) const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_pool.find(node_id);
}

Result<model::JobInput> Engine::create_input(const std::string& workspace, const std::string& filename,
                                             const std::string& content_type, const std::string& kind) {
  return m_impl->create_input(workspace, filename, content_type, kind);
}

Status Engine::check_upload_slot(const model::JobInput& input) const { return m_impl->check_upload_slot(input); }

Result<model::JobInput> Engine::record_upload(const std::string& input_id, const std::filesystem::path& received,
                                              std::int64_t size_bytes, const std::string& sha256) {
  return m_impl->record_upload(input_id, received, size_bytes, sha256);
}

Result<model::JobInput> Engine::complete_input(const InputCompletion& completion) {
  return m_impl->complete_input(completion);
}

void Engine::sweep_expired_inputs() { m_impl->sweep_expired_inputs(); }

Result<model::Node> Engine::set_node_status(const std::string& node, const std::string& operation) {
  return m_impl->set_node_status(node, operation);
}

exec::FaultBook* Engine::faults() const {
  auto it = m_impl->m_executors.find("simulated");
  return it == m_impl->m_executors.end() || !it->second ? nullptr : it->second->faults();
}

Result<ResetReport> Engine::reset_simulation() { return m_impl->reset(); }

std::string Engine::event_digest() const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_recorder.digest();
}

std::int64_t Engine::digested_events() const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_recorder.digested_events();
}

void Engine::advance_clock(std::int64_t ms) { m_impl->m_clock->advance(ms); }

void Engine::settle() const { m_impl->settle(); }

std::size_t Engine::live_jobs() const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_live.size();
}

FleetSeries Engine::fleet_history() const {
  std::lock_guard lock(m_impl->m_mutex);
  return m_impl->m_history.read();
}

const EngineOptions& Engine::options() const { return m_impl->m_options; }
const util::Clock& Engine::clock() const { return *m_impl->m_clock; }

}  // namespace jgrid::engine
