#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "jgrid/api/registry_lookup.hpp"
#include "jgrid/util/crypto.hpp"
#include "jgrid/util/files.hpp"
#include "registry_fetch.hpp"

namespace jgrid::api {
namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using State = exec::ImageLookupResult::State;
using exec::ImageInfo;
using exec::ImageLookupResult;

// How long an answer that found nothing is reused before asking again.
constexpr auto k_negative_ttl = std::chrono::seconds(30);
// Bounds against a flood of distinct references: fetches at once (each is a
// thread for up to four request timeouts), and answers kept in memory (the
// disk cache keeps what was found).
constexpr std::size_t k_max_flights = 64;
constexpr std::size_t k_max_remembered = 10000;

std::int64_t unix_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// One fetch of one reference, shared by everyone who asks meanwhile.
struct Flight {
  std::mutex mutex;
  std::condition_variable done_cv;
  bool done = false;
  ImageLookupResult result;
  std::vector<std::function<void()>> on_done;
};

struct Remembered {
  ImageLookupResult result;
  Clock::time_point expires;
};

// Results on disk: images/<digest hex>.json holds labels and env (an image
// by digest never changes); tags/<sha256 of ref>.json maps a tag to its
// digest with the time it was read (trusted for the tag TTL).
class DiskCache {
 public:
  explicit DiskCache(std::filesystem::path dir) : m_dir(std::move(dir)) {}

  std::optional<ImageInfo> find(const std::string& ref, const RegistryRef& parsed, std::chrono::seconds tag_ttl) const {
    if (m_dir.empty()) return std::nullopt;
    std::string digest = parsed.reference;
    if (!parsed.by_digest()) {
      Json tag = read(tag_path(ref));
      if (!tag.is_object() || !tag["digest"].is_string() || !tag["read_at"].is_number_integer()) return std::nullopt;
      if (unix_seconds() - tag["read_at"].get<std::int64_t>() > tag_ttl.count()) return std::nullopt;
      digest = tag["digest"].get<std::string>();
    }
    Json image = read(image_path(digest));
    if (!image.is_object()) return std::nullopt;
    ImageInfo info;
    info.ref = ref;
    info.digest = image.value("digest", digest);
    info.labels = image.value("labels", std::map<std::string, std::string>{});
    info.env = image.value("env", std::map<std::string, std::string>{});
    info.source = "registry";
    return info;
  }

  // Best effort: a cache that cannot be written only costs a later fetch.
  void store(const std::string& ref, const RegistryRef& parsed, const ImageInfo& image) const {
    if (m_dir.empty() || image.digest.rfind("sha256:", 0) != 0) return;
    Json doc = {{"ref", ref}, {"digest", image.digest}, {"labels", image.labels}, {"env", image.env}};
    (void)util::write_file_atomic(image_path(image.digest), doc.dump());
    if (parsed.by_digest()) return;
    Json tag = {{"ref", ref}, {"digest", image.digest}, {"read_at", unix_seconds()}};
    (void)util::write_file_atomic(tag_path(ref), tag.dump());
  }

 private:
  std::filesystem::path image_path(const std::string& digest) const {
    return m_dir / "images" / (util::sha256_hex(digest) + ".json");
  }
  std::filesystem::path tag_path(const std::string& ref) const {
    return m_dir / "tags" / (util::sha256_hex(ref) + ".json");
  }
  static Json read(const std::filesystem::path& path) {
    auto text = util::read_file(path);
    return text.ok() ? Json::parse(*text, nullptr, false) : Json();
  }

  std::filesystem::path m_dir;
};

class RegistryLookup final : public exec::ImageLookup, public std::enable_shared_from_this<RegistryLookup> {
 public:
  explicit RegistryLookup(RegistryOptions options) : m_options(std::move(options)), m_cache(m_options.cache_dir) {
    if (m_options.auth_files.empty()) m_options.auth_files = default_auth_files();
    if (!m_options.cache_dir.empty()) {
      std::error_code ignored;
      std::filesystem::create_directories(m_options.cache_dir / "images", ignored);
      std::filesystem::create_directories(m_options.cache_dir / "tags", ignored);
    }
  }

  ImageLookupResult lookup(const std::string& ref, std::chrono::milliseconds bound,
                           std::function<void()> on_done) override {
    auto parsed = parse_registry_ref(ref);
    if (!parsed) return {State::failed, {}, ref + " is not an image reference a registry could serve"};
    std::shared_ptr<Flight> flight;
    {
      std::lock_guard lock(m_mutex);
      if (auto known = remembered_locked(ref)) return *known;
      if (auto cached = m_cache.find(ref, *parsed, m_options.tag_ttl)) {
        ImageLookupResult found{State::found, *cached, ""};
        remember_locked(ref, {found, Clock::now() + m_options.tag_ttl});
        return found;
      }
      if (!m_flights.count(ref) && m_flights.size() >= k_max_flights)
        return {State::failed, {}, "too many registry lookups in flight (" + std::to_string(k_max_flights) + ")"};
      flight = flight_locked(ref, *parsed);
    }
    return wait(*flight, bound, std::move(on_done));
  }

 private:
  std::optional<ImageLookupResult> remembered_locked(const std::string& ref) {
    auto it = m_remembered.find(ref);
    if (it == m_remembered.end()) return std::nullopt;
    if (Clock::now() < it->second.expires) return it->second.result;
    m_remembered.erase(it);
    return std::nullopt;
  }

  void remember_locked(const std::string& ref, Remembered entry) {
    if (m_remembered.size() >= k_max_remembered) {
      auto now = Clock::now();
      std::erase_if(m_remembered, [&](const auto& item) { return item.second.expires <= now; });
      if (m_remembered.size() >= k_max_remembered) m_remembered.clear();
    }
    m_remembered[ref] = std::move(entry);
  }

  std::shared_ptr<Flight> flight_locked(const std::string& ref, const RegistryRef& parsed) {
    auto& slot = m_flights[ref];
    if (slot) return slot;
    slot = std::make_shared<Flight>();
    std::thread([self = shared_from_this(), ref, parsed, flight = slot] { self->fly(ref, parsed, *flight); })
        .detach();  // owns what it uses; a hung registry is cut by the fetch timeout
    return slot;
  }

  void fly(const std::string& ref, const RegistryRef& parsed, Flight& flight) {
    ImageLookupResult result = fetch(ref, parsed);
    {
      std::lock_guard lock(m_mutex);
      auto ttl = result.state == State::found ? std::chrono::duration_cast<Clock::duration>(m_options.tag_ttl)
                                              : std::chrono::duration_cast<Clock::duration>(k_negative_ttl);
      remember_locked(ref, {result, Clock::now() + ttl});
      m_flights.erase(ref);
    }
    std::vector<std::function<void()>> callbacks;
    {
      std::lock_guard lock(flight.mutex);
      flight.result = result;
      flight.done = true;
      callbacks.swap(flight.on_done);
    }
    flight.done_cv.notify_all();
    for (auto& callback : callbacks) callback();
  }

  ImageLookupResult fetch(const std::string& ref, const RegistryRef& parsed) {
    FetchSettings settings;
    settings.plain_http = std::find(m_options.insecure_hosts.begin(), m_options.insecure_hosts.end(),
                                    parsed.registry) != m_options.insecure_hosts.end();
    settings.credentials = read_credentials(m_options.auth_files, parsed.registry);
    settings.ca_file = m_options.ca_file;
    settings.os = m_options.os;
    settings.architecture = m_options.architecture;
    settings.timeout = m_options.fetch_timeout;
    auto fetched = fetch_image_metadata(parsed, settings);
    if (!fetched) {
      State state = fetched.error().code == "IMAGE_NOT_FOUND" ? State::absent : State::failed;
      return {state, {}, fetched.error().message};
    }
    fetched->ref = ref;
    m_cache.store(ref, parsed, *fetched);
    return {State::found, std::move(*fetched), ""};
  }

  static ImageLookupResult wait(Flight& flight, std::chrono::milliseconds bound, std::function<void()> on_done) {
    std::unique_lock lock(flight.mutex);
    if (flight.done_cv.wait_for(lock, bound, [&] { return flight.done; })) return flight.result;
    if (on_done) flight.on_done.push_back(std::move(on_done));
    return {State::pending, {}, "still fetching after " + std::to_string(bound.count()) + " ms"};
  }

  RegistryOptions m_options;
  DiskCache m_cache;
  std::mutex m_mutex;  // the maps below; never held during a fetch
  std::map<std::string, std::shared_ptr<Flight>> m_flights;
  std::map<std::string, Remembered> m_remembered;
};

}  // namespace

std::shared_ptr<exec::ImageLookup> make_registry_lookup(RegistryOptions options) {
  return std::make_shared<RegistryLookup>(std::move(options));
}

}  // namespace jgrid::api
