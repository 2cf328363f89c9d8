#include <array>

#include "screen/signals.hpp"

namespace jgrid::screen {

namespace {

struct Tool {
  std::string_view name;
  bool prefix;  // name is a prefix (nvidia-cuda-mps-control, -server)
  std::string_view fix;
};

constexpr std::array<Tool, 5> k_nvidia_tools = {{
    {"nvidia-smi", false, "use rocm-smi or amd-smi instead of nvidia-smi"},
    {"nvcc", false, "compile with hipcc instead of nvcc"},
    {"nsys", false, "profile with rocprofv3 (or rocprof) instead of nsys"},
    {"ncu", false, "profile with rocprofv3 (or rocprof) instead of ncu"},
    {"nvidia-cuda-mps-", true, "drop the CUDA MPS daemon: ROCm has none; run the processes side by side"},
}};

constexpr std::string_view k_attach_fix = "drop the NVIDIA device flag: the grid attaches /dev/kfd and /dev/dri itself";

constexpr std::array<std::string_view, 3> k_nvidia_paths = {"/dev/nvidia", "/usr/local/cuda", "/proc/driver/nvidia"};

Evidence command_evidence(std::string found, std::string_view fix = {}) {
  return Evidence{"command", std::move(found), std::string(fix)};
}

const Tool* find_tool(std::string_view word) {
  for (const auto& tool : k_nvidia_tools)
    if (tool.prefix ? istarts_with(word, tool.name) : iequals(word, tool.name)) return &tool;
  return nullptr;
}

// `word` (followed by `next`) calls an NVIDIA tool or asks for NVIDIA devices.
Evidence nvidia_tool_word(std::string_view word, std::string_view next) {
  if (const Tool* tool = find_tool(word)) return command_evidence(std::string(word), tool->fix);
  if (iequals(word, "--gpus")) return command_evidence("--gpus", k_attach_fix);
  if (iequals(word, "--runtime") && iequals(next, "nvidia")) return command_evidence("--runtime nvidia", k_attach_fix);
  if (iequals(word, "--device") && istarts_with(next, "nvidia.com"))
    return command_evidence("--device nvidia.com/gpu", k_attach_fix);
  return {};
}

bool is_alnum(char c) { return (c >= '0' && c <= '9') || (lower(c) >= 'a' && lower(c) <= 'z'); }

// "cu" + three digits, then the end or a non-alphanumeric byte.
bool cu_version_at(std::string_view text, std::size_t at) {
  if (at + 5 > text.size() || !istarts_with(text.substr(at), "cu") || !all_digits(text.substr(at + 2, 3))) return false;
  return at + 5 == text.size() || !is_alnum(text[at + 5]);
}

// download.pytorch.org/whl/cu121 and /whl/nightly/cu121 style indexes: the
// matched "/whl/.../cuNNN" part, or empty.
std::string_view find_cuda_wheel_index(std::string_view text) {
  for (auto at = ifind(text, "/whl/"); at != std::string_view::npos; at = ifind(text, "/whl/", at + 1)) {
    std::size_t segment = at + 5;
    if (istarts_with(text.substr(segment), "nightly/")) segment += 8;
    if (cu_version_at(text, segment)) return text.substr(at, segment + 5 - at);
  }
  return {};
}

// nvidia-cublas-cu12, torch==2.3.0+cu121, cupy-cuda12x.
bool is_cuda_package_word(std::string_view word) {
  if (istarts_with(word, "cupy-cuda")) return true;
  if (auto plus = ifind(word, "+cu"); plus != std::string_view::npos && cu_version_at(word, plus + 1)) return true;
  if (!istarts_with(word, "nvidia-") || word.size() < 12) return false;
  auto tail = word.substr(word.size() - 5);
  return istarts_with(tail, "-cu1") && all_digits(tail.substr(4));
}

bool path_matches(std::string_view text, std::size_t at, std::string_view path) {
  if (path != "/usr/local/cuda") return true;  // /dev/nvidia0, /dev/nvidiactl: prefixes
  std::size_t end = at + path.size();
  return end == text.size() || !is_alnum(text[end]);
}

// The whole path that starts at `at`, for messages ("/dev/nvidia0").
std::string_view path_at(std::string_view text, std::size_t at) {
  auto end = text.find_first_of(" \t\n'\":;,&|()<>=`", at);
  return text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
}

std::string_view find_nvidia_path(std::string_view text) {
  for (auto path : k_nvidia_paths)
    for (auto at = ifind(text, path); at != std::string_view::npos; at = ifind(text, path, at + 1))
      if (path_matches(text, at, path)) return path_at(text, at);
  return {};
}

}  // namespace

std::string join_command(const std::vector<std::string>& command) {
  std::size_t size = 0;
  for (const auto& part : command) size += part.size() + 1;
  std::string text;
  text.reserve(size);
  for (const auto& part : command) {
    if (!text.empty()) text += ' ';
    text += part;
  }
  return text;
}

Evidence command_nvidia_tool(std::string_view command) {
  Evidence out;
  any_command_word(command, [&](std::string_view word, std::string_view next) {
    out = nvidia_tool_word(word, next);
    return bool(out);
  });
  return out;
}

Evidence command_cuda_wheels(std::string_view command) {
  if (auto index = find_cuda_wheel_index(command); !index.empty())
    return command_evidence("the CUDA wheel index …" + std::string(index));
  if (ifind(command, "[cuda") != std::string_view::npos || ifind(command, "[and-cuda]") != std::string_view::npos)
    return command_evidence("a [cuda] package extra");
  Evidence out;
  any_command_word(command, [&](std::string_view word, std::string_view) {
    if (is_cuda_package_word(word)) out = command_evidence("package " + std::string(word));
    return bool(out);
  });
  return out;
}

bool command_uses_torch_cuda(std::string_view command) {
  return any_command_word(command, [](std::string_view word, std::string_view) {
    return iequals(word, "torch.cuda") || istarts_with(word, "torch.cuda.");
  });
}

Evidence nvidia_path(std::string_view command, const Env& env) {
  if (auto path = find_nvidia_path(command); !path.empty()) return command_evidence(std::string(path));
  for (const auto& [key, value] : env)
    if (auto path = find_nvidia_path(value); !path.empty())
      return Evidence{"environment." + key, std::string(path), {}};
  return {};
}

Evidence env_nvidia(const Env& env) {
  static const std::array<std::string, 3> k_keys = {"NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
                                                    "NVIDIA_REQUIRE_CUDA"};
  for (const auto& key : k_keys)
    if (auto it = env.find(key); it != env.end()) return Evidence{"environment." + key, key + "=" + it->second, {}};
  return {};
}

}  // namespace jgrid::screen
