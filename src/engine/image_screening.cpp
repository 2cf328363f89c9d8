#include <chrono>

#include "impl.hpp"
#include "lifecycle.hpp"

namespace jgrid::engine {

// Lets a lookup thread call back into the engine only while it lives: the
// engine closes it (waiting for a callback in progress) before it goes.
struct Engine::Impl::LookupGate {
  std::mutex mutex;
  Impl* impl = nullptr;
};

namespace {

using State = exec::ImageLookupResult::State;

screen::ImageMetadata name_only(std::string why) {
  screen::ImageMetadata metadata;
  metadata.source = "name only (" + std::move(why) + ")";
  return metadata;
}

// The warning rule whose routing decision made a re-screened job unplaceable.
std::string unplaceable_rule(const screen::Intent& intent) {
  if (intent.unknown_cuda_heavy) return "intent.unknown_cuda_heavy";
  if (intent.unknown_stack) return "intent.no_rocm_evidence";
  return "route.unavailable";
}

}  // namespace

Engine::Impl::ImageRead Engine::Impl::read_image(const std::string& image, std::chrono::milliseconds bound) const {
  screen::ImageMetadata catalog = image_metadata(m_fleet, image);
  if (catalog.known || !m_options.image_lookup || image.empty()) return {catalog, false};
  auto result = m_options.image_lookup->lookup(image, bound);
  switch (result.state) {
    case State::found:
      return {screen::ImageMetadata{result.image.labels, result.image.env, result.image.digest, true, "registry"},
              false};
    case State::pending:
      return {name_only("registry lookup still running"), true};
    case State::absent:
    case State::failed:
      break;
  }
  return {name_only("registry: " + result.note), false};
}

screen::Screening Engine::Impl::screen_read(const model::JobSpec& spec, const ImageRead& read) const {
  return screen_with(spec, read.metadata, screen_options(m_fleet));
}

void Engine::Impl::park_locked(LiveJob& live) {
  live.awaiting_image = true;
  live.job.status_message = "waiting for the image's registry metadata before screening it again";
}

void Engine::Impl::open_lookup_gate() {
  if (!m_lookup_gate) m_lookup_gate = std::make_shared<LookupGate>();
  std::lock_guard lock(m_lookup_gate->mutex);
  m_lookup_gate->impl = this;
}

void Engine::Impl::close_lookup_gate() {
  if (!m_lookup_gate) return;
  std::lock_guard lock(m_lookup_gate->mutex);
  m_lookup_gate->impl = nullptr;
}

// Call without the mutex: when the lookup has ended meanwhile, the job is
// screened again at once, here.
void Engine::Impl::watch_image(const std::string& job_id, const std::string& image) {
  std::shared_ptr<LookupGate> gate = m_lookup_gate;
  auto result = m_options.image_lookup->lookup(image, std::chrono::milliseconds(0), [gate, job_id] {
    std::lock_guard lock(gate->mutex);
    if (gate->impl) gate->impl->image_read(job_id);
  });
  if (result.state != State::pending) image_read(job_id);
}

// The lookup a parked job waited for has ended: screened again with what it
// found (or by name when it found nothing), then rejected, or queued.
void Engine::Impl::image_read(const std::string& job_id) {
  model::JobSpec spec;
  {
    std::lock_guard lock(m_mutex);
    LiveJob* live = find_live_locked(job_id);
    if (!live || !live->awaiting_image || live->cancelling || m_stopping) return;
    spec = *live->job.spec;
  }
  ImageRead read = read_image(spec.image, std::chrono::milliseconds(0));
  if (read.pending) read.metadata = name_only("registry lookup did not finish");
  screen::Screening screening = screen_read(spec, read);
  std::lock_guard lock(m_mutex);
  LiveJob* live = find_live_locked(job_id);
  if (!live || !live->awaiting_image || live->cancelling || m_stopping) return;
  live->awaiting_image = false;
  store::WriteBatch batch;
  live->job.screening = screen::job_screening_json(screening);
  EventSpec screened = screened_event(screening);
  const std::string& source = screening.intent.image_source;
  screened.message = "Screened again before running, with " +
                     (source == "registry" ? std::string("the image's registry metadata") : source) + ": " +
                     screened.message;
  m_recorder.event(*live, batch, std::move(screened));
  if (screening.blocked()) {
    reject_locked(*live, screening_error(screening).message, screening.blocked_rules().front(), batch);
  } else {
    live->intent = screening.intent;
    live->route_key.clear();
    auto route = route::place(route::RouteRequest{live->job.spec, live->intent}, m_pool.index());
    if (route.status == route::RouteResult::Status::unavailable) {
      reject_locked(*live, route.explanation, unplaceable_rule(live->intent), batch);
    } else {
      live->job.status_message = "waiting for a node";
      stage_locked(*live, batch);
      queue_job_locked(*live);
    }
  }
  enqueue_locked(std::move(batch));
}

void Engine::Impl::reject_locked(LiveJob& live, const std::string& message, const std::string& rule,
                                 store::WriteBatch& batch) {
  live.job.status_reason = "rejected: " + rule;
  live.job.status_message = message;
  end_locked(live, model::JobStatus::rejected, {"job.rejected", "screener", message, {{"rule", rule}}, "error"}, batch);
}

}  // namespace jgrid::engine
