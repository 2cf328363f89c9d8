// The engine with image metadata from a lookup: a scripted lookup stands in
// for the registry client here (e2e.registry drives the real one against a
// real registry), so the tests control when a lookup ends.
#include <map>
#include <mutex>
#include <set>

#include "engine_fixture.hpp"
#include "jgrid/exec/image_lookup.hpp"

using namespace jgrid;
using jgrid::test::EngineFixture;
using jgrid::test::eventually;
using jgrid::test::make_node;
using jgrid::test::make_spec;
using State = exec::ImageLookupResult::State;

namespace {

class ScriptedLookup final : public exec::ImageLookup {
 public:
  exec::ImageLookupResult lookup(const std::string& ref, std::chrono::milliseconds,
                                 std::function<void()> on_done) override {
    std::lock_guard lock(m_mutex);
    ++asked[ref];
    if (m_held.count(ref)) {
      if (on_done) m_waiting[ref].push_back(std::move(on_done));
      return {State::pending, {}, "still fetching"};
    }
    auto it = m_answers.find(ref);
    return it == m_answers.end() ? exec::ImageLookupResult{State::absent, {}, "not found (HTTP 404)"} : it->second;
  }

  void answer(const std::string& ref, std::map<std::string, std::string> labels,
              std::map<std::string, std::string> env = {}) {
    exec::ImageInfo image;
    image.ref = ref;
    image.labels = std::move(labels);
    image.env = std::move(env);
    image.digest = "sha256:feed";
    image.source = "registry";
    std::lock_guard lock(m_mutex);
    m_answers[ref] = {State::found, image, ""};
  }
  void hold(const std::string& ref) {
    std::lock_guard lock(m_mutex);
    m_held.insert(ref);
  }
  // Ends the fetch of `ref`: callbacks run here, as on a lookup thread.
  void release(const std::string& ref) {
    std::vector<std::function<void()>> callbacks;
    {
      std::lock_guard lock(m_mutex);
      m_held.erase(ref);
      callbacks.swap(m_waiting[ref]);
    }
    for (auto& callback : callbacks) callback();
  }

  std::map<std::string, int> asked;

 private:
  std::mutex m_mutex;
  std::map<std::string, exec::ImageLookupResult> m_answers;
  std::set<std::string> m_held;
  std::map<std::string, std::vector<std::function<void()>>> m_waiting;
};

const std::string k_image = "registry.example:5000/team/trainer:1.4";

model::JobSpec undeclared(const std::string& image = k_image) {
  model::JobSpec spec = make_spec("");
  spec.image = image;
  return spec;
}

model::JobSpec rocm(const std::string& image = k_image) {
  model::JobSpec spec = make_spec("amd");
  spec.image = image;
  spec.runtime = "rocm";
  return spec;
}

engine::EngineOptions with_lookup(std::shared_ptr<ScriptedLookup> lookup) {
  engine::EngineOptions options;
  options.image_lookup = std::move(lookup);
  options.image_lookup_bound = std::chrono::milliseconds(10);
  return options;
}

std::vector<model::Node> mixed() { return {make_node("mi300x-1", "amd", 8), make_node("h100-1", "nvidia", 8)}; }

bool has_event(EngineFixture& f, const std::string& id, const std::string& type, const std::string& text = "") {
  f.store->flush();
  for (const auto& event : f.store->list_events(store::EventQuery{id, 0, "", 0, 1000}))
    if (event.type == type && event.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("engine: registry labels are ROCm evidence for estimate and placement", "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  lookup->answer(k_image, {{"io.junglegrid.runtime", "rocm"}});
  EngineFixture f(mixed(), with_lookup(lookup));
  auto body = f.engine->estimate(undeclared(), model::Framing::plain);
  CHECK(body["classification"]["gpu_vendor"] == "amd");
  CHECK(body["classification"]["image_source"] == "registry");
  CHECK(body["routing"]["selected_node_id"] == "node_mi300x-1");
  auto job = f.submit(undeclared());
  REQUIRE(eventually([&] { return f.stored(job.id)->placement.has_value(); }));
  CHECK(f.stored(job.id)->placement->node_id == "node_mi300x-1");
}

TEST_CASE("engine: an image the registry does not know is screened by name, saying why", "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  EngineFixture f(mixed(), with_lookup(lookup));
  auto body = f.engine->estimate(undeclared(), model::Framing::plain);
  CHECK(body["classification"]["image_source"] == "name only (registry: not found (HTTP 404))");
  CHECK(body["classification"]["gpu_vendor"] == "nvidia");  // no ROCm evidence
  CHECK(body["classification"]["unknown_stack"] == true);
}

TEST_CASE("engine: the fleet's catalog is read before any lookup", "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  exec::ImageInfo listed = jgrid::test::example_image();
  EngineFixture f(mixed(), with_lookup(lookup), nullptr, {listed});
  auto body = f.engine->estimate(rocm(listed.ref), model::Framing::plain);
  CHECK(body["classification"]["image_source"] == "catalog");
  CHECK(lookup->asked.count(listed.ref) == 0);
}

TEST_CASE("engine: a job accepted past the lookup's bound waits, then is rejected by the second screening",
          "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  lookup->hold(k_image);
  lookup->answer(k_image, {}, {{"CUDA_VERSION", "12.4.1"}});
  EngineFixture f(mixed(), with_lookup(lookup));
  auto job = f.submit(rocm());
  CHECK(job.status == model::JobStatus::queued);
  CHECK(job.status_message.find("registry metadata") != std::string::npos);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // several scheduling passes
  CHECK_FALSE(f.stored(job.id)->placement.has_value());         // never placed unscreened
  lookup->release(k_image);
  REQUIRE(eventually([&] { return f.stored(job.id)->status == model::JobStatus::rejected; }));
  auto stored = f.stored(job.id);
  CHECK(stored->status_reason == "rejected: image.cuda_metadata");
  CHECK_FALSE(stored->placement.has_value());
  CHECK(has_event(f, job.id, "job.screened", "Screened again before running, with the image's registry metadata"));
  CHECK(has_event(f, job.id, "job.rejected"));
}

TEST_CASE("engine: a waiting job with no ROCm evidence in its name is not refused for capacity at submit",
          "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  lookup->hold(k_image);
  lookup->answer(k_image, {{"io.junglegrid.runtime", "rocm"}});
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, with_lookup(lookup));
  auto job = f.submit(undeclared());  // by name alone: NVIDIA only, and there is none
  lookup->release(k_image);
  REQUIRE(eventually([&] { return f.stored(job.id)->placement.has_value(); }));
  CHECK(f.stored(job.id)->placement->node_id == "node_mi300x-1");
}

TEST_CASE("engine: a waiting job the registry says nothing about is rejected when no node could run it",
          "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  lookup->hold(k_image);
  EngineFixture f({make_node("mi300x-1", "amd", 8)}, with_lookup(lookup));
  auto job = f.submit(undeclared());
  lookup->release(k_image);  // absent: name only, no ROCm evidence, no NVIDIA node
  REQUIRE(eventually([&] { return f.stored(job.id)->status == model::JobStatus::rejected; }));
  CHECK(f.stored(job.id)->status_reason == "rejected: intent.no_rocm_evidence");
  CHECK(f.stored(job.id)->status_message.find("declare gpu_vendor: amd and runtime: rocm") != std::string::npos);
}

TEST_CASE("engine: a waiting job can be cancelled, and the lookup's end then changes nothing", "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  lookup->hold(k_image);
  lookup->answer(k_image, {{"io.junglegrid.runtime", "rocm"}});
  EngineFixture f(mixed(), with_lookup(lookup));
  auto job = f.submit(rocm());
  REQUIRE(f.engine->cancel(job.id, "local", ""));
  lookup->release(k_image);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto stored = f.stored(job.id);
  CHECK(stored->status == model::JobStatus::cancelled);
  CHECK_FALSE(stored->placement.has_value());
}

TEST_CASE("engine: a lookup that ends after the engine is gone reaches nothing", "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  lookup->hold(k_image);
  {
    EngineFixture f(mixed(), with_lookup(lookup));
    f.submit(rocm());
  }
  lookup->release(k_image);  // the callback finds the engine's gate closed
  SUCCEED("no use after free (the sanitizer build runs this)");
}

TEST_CASE("engine: a job still waiting for its image at a restart waits again, then runs", "[engine][registry]") {
  auto lookup = std::make_shared<ScriptedLookup>();
  lookup->hold(k_image);
  lookup->answer(k_image, {{"io.junglegrid.runtime", "rocm"}});
  auto opened = store::Store::open(store::StoreOptions{});
  REQUIRE(opened);
  std::shared_ptr<store::Store> shared = std::move(*opened);
  std::string id;
  {
    EngineFixture first(mixed(), with_lookup(lookup), shared);
    id = first.submit(rocm()).id;
  }
  EngineFixture second(mixed(), with_lookup(lookup), shared);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK_FALSE(second.stored(id)->placement.has_value());
  lookup->release(k_image);
  REQUIRE(eventually([&] { return second.stored(id)->placement.has_value(); }));
  CHECK(second.stored(id)->placement->node_id == "node_mi300x-1");
}
