#include "trace.hpp"

#include <algorithm>
#include <thread>

namespace jgrid::cli {
namespace {

using Json = nlohmann::json;

Error bad_line(const std::string& path, int line, const std::string& problem) {
  return make_error("INVALID_TRACE", path + ":" + std::to_string(line) + ": " + problem);
}

std::optional<double> seconds(const Json& doc, const char* key) {
  auto it = doc.find(key);
  if (it == doc.end() || !it->is_number() || it->get<double>() < 0) return std::nullopt;
  return it->get<double>();
}

Result<exec::FaultRule> decode_fault(const std::string& path, int number, const Json& doc) {
  if (doc.contains("job")) return bad_line(path, number, "expected either \"job\" or \"fault\", not both");
  if (!doc["fault"].is_object()) return bad_line(path, number, "fault: expected a fault rule object");
  auto rule = exec::decode_fault_rule(doc["fault"]);
  if (!rule) return bad_line(path, number, "fault." + rule.error().message);
  return rule;
}

Result<model::JobSpec> decode_job(const std::string& path, int number, const Json& doc) {
  if (!doc.contains("job") || !doc["job"].is_object()) return bad_line(path, number, "job: expected a submit body object");
  auto spec = model::decode_job_spec(doc["job"], model::SpecMode::submit);
  if (!spec) return bad_line(path, number, "job." + spec.error().message);
  return spec;
}

Result<Json> parse(const std::string& path, int number, const std::string& text) {
  Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return bad_line(path, number, "expected a JSON object");
  return doc;
}

// Checks the whole line (its job or rule is decoded and dropped again).
Result<TraceEntry> check_line(const std::string& path, int number, const std::string& text) {
  auto doc = parse(path, number, text);
  if (!doc) return doc.error();
  TraceEntry entry;
  entry.line = number;
  auto at = seconds(*doc, "at_s");
  if (!at) return bad_line(path, number, "at_s: expected a number of seconds >= 0");
  entry.at_s = *at;
  if (doc->contains("fault")) {
    entry.fault = true;
    if (auto rule = decode_fault(path, number, *doc); !rule) return rule.error();
    return entry;
  }
  if (doc->contains("cancel_at_s")) {
    entry.cancel_at_s = seconds(*doc, "cancel_at_s");
    if (!entry.cancel_at_s) return bad_line(path, number, "cancel_at_s: expected a number of seconds >= 0");
  }
  if (auto spec = decode_job(path, number, *doc); !spec) return spec.error();
  return entry;
}

// A stretch of the file from one line's start to another's, checked on a
// thread of its own: checking a line (parsing and decoding its job) is
// most of a load, a million lines take seconds, and the run waits for it.
struct Chunk {
  std::uint64_t begin = 0, end = 0;
  int first_line = 1;  // the 1-based number of the line at `begin`
  std::vector<TraceEntry> entries;
  std::optional<Error> error;  // its first bad line
};

// The file cut at about `parts` equal sizes, each cut moved to the next line start.
std::vector<Chunk> cut(std::ifstream& in, std::uint64_t size, unsigned parts) {
  std::vector<Chunk> chunks;
  std::uint64_t begin = 0;
  std::string skipped;
  for (unsigned k = 1; k <= parts && begin < size; ++k) {
    std::uint64_t end = size;
    if (k < parts) {
      in.clear();
      in.seekg(static_cast<std::streamoff>(std::max(begin, size * k / parts)));
      std::getline(in, skipped);
      end = in ? static_cast<std::uint64_t>(in.tellg()) : size;
    }
    if (end > begin) chunks.push_back(Chunk{begin, end});
    begin = end;
  }
  return chunks;
}

// Numbers each chunk's first line by counting the newlines before it.
void number_lines(std::ifstream& in, std::vector<Chunk>& chunks) {
  in.clear();
  in.seekg(0);
  std::vector<char> block(1 << 20);
  std::uint64_t at = 0;
  int newlines = 0;
  for (auto& chunk : chunks) {
    while (at < chunk.begin) {
      auto want = static_cast<std::streamsize>(std::min<std::uint64_t>(block.size(), chunk.begin - at));
      in.read(block.data(), want);
      newlines += static_cast<int>(std::count(block.data(), block.data() + in.gcount(), '\n'));
      at += static_cast<std::uint64_t>(in.gcount());
      if (in.gcount() < want) break;
    }
    chunk.first_line = newlines + 1;
  }
}

void check_chunk(const std::string& path, Chunk& chunk) {
  std::ifstream in(path);
  in.seekg(static_cast<std::streamoff>(chunk.begin));
  std::string text;
  for (int number = chunk.first_line;; ++number) {
    auto offset = static_cast<std::uint64_t>(in.tellg());
    if (!in || offset >= chunk.end || !std::getline(in, text)) break;
    auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '#') continue;
    auto entry = check_line(path, number, text);
    if (!entry) return void(chunk.error = entry.error());
    entry->offset = offset;
    chunk.entries.push_back(*entry);
  }
}

}  // namespace

Result<Trace> Trace::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return make_error("INVALID_TRACE", path + ": cannot be read");
  auto size = static_cast<std::uint64_t>(in.tellg());
  auto chunks = cut(in, size, size < (1u << 20) ? 1 : std::max(1u, std::thread::hardware_concurrency()));
  number_lines(in, chunks);
  std::vector<std::thread> checkers;
  for (std::size_t k = 1; k < chunks.size(); ++k) checkers.emplace_back([&path, &chunk = chunks[k]] { check_chunk(path, chunk); });
  if (!chunks.empty()) check_chunk(path, chunks.front());
  for (auto& checker : checkers) checker.join();
  Trace trace;
  trace.m_path = path;
  for (auto& chunk : chunks) {
    if (chunk.error) return *chunk.error;  // the file's first bad line
    trace.m_entries.insert(trace.m_entries.end(), chunk.entries.begin(), chunk.entries.end());
    chunk.entries = {};
  }
  std::stable_sort(trace.m_entries.begin(), trace.m_entries.end(),
                   [](const TraceEntry& a, const TraceEntry& b) { return a.at_s < b.at_s; });
  trace.m_entries.shrink_to_fit();
  trace.m_file.open(path);
  if (!trace.m_file) return make_error("INVALID_TRACE", path + ": cannot be read");
  return std::move(trace);
}

Result<std::string> Trace::line_at(const TraceEntry& entry) const {
  m_file.clear();
  m_file.seekg(static_cast<std::streamoff>(entry.offset));
  std::string text;
  if (!std::getline(m_file, text)) return bad_line(m_path, entry.line, "the file changed while it was simulated");
  return text;
}

Result<model::JobSpec> Trace::job(const TraceEntry& entry) const {
  auto text = line_at(entry);
  if (!text) return text.error();
  auto doc = parse(m_path, entry.line, *text);
  if (!doc) return doc.error();
  return decode_job(m_path, entry.line, *doc);
}

Result<exec::FaultRule> Trace::fault(const TraceEntry& entry) const {
  auto text = line_at(entry);
  if (!text) return text.error();
  auto doc = parse(m_path, entry.line, *text);
  if (!doc || !doc->contains("fault")) return bad_line(m_path, entry.line, "the file changed while it was simulated");
  return decode_fault(m_path, entry.line, *doc);
}

}  // namespace jgrid::cli
