#include "exec/gpu_detect_tables.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string_view>

#include "jgrid/exec/gpu_detect.hpp"
#include "jgrid/util/strings.hpp"

namespace jgrid::exec {
namespace {

struct KnownDevice {
  int device_id;
  GpuModel model;
};

// PCI device ids of the amdgpu driver (a device id can cover several boards
// of one chip; the most common board names it).
const std::array<KnownDevice, 14> k_devices{{
    {0x74a1, {"MI300X", "instinct", "datacenter"}},
    {0x74a5, {"MI325X", "instinct", "datacenter"}},
    {0x74a0, {"MI300A", "instinct", "datacenter"}},
    {0x740c, {"MI250X", "instinct", "datacenter"}},
    {0x740f, {"MI210", "instinct", "datacenter"}},
    {0x738c, {"MI100", "instinct", "datacenter"}},
    {0x66a1, {"MI50", "instinct", "datacenter"}},
    {0x7448, {"Radeon PRO W7900", "radeon", "workstation"}},
    {0x744c, {"Radeon RX 7900 XTX", "radeon", "consumer"}},
    {0x747e, {"Radeon RX 7800 XT", "radeon", "consumer"}},
    {0x73bf, {"Radeon RX 6900 XT", "radeon", "consumer"}},
    {0x15bf, {"Radeon 780M", "radeon", "consumer"}},
    {0x1681, {"Radeon 680M", "radeon", "consumer"}},
    {0x164e, {"Radeon 610M", "radeon", "consumer"}},
}};

// CDNA: Instinct only (gfx906 is shared with the Radeon VII, so not here).
constexpr std::array<std::string_view, 6> k_instinct_archs{"gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"};
constexpr std::array<std::string_view, 13> k_integrated_archs{"gfx902",  "gfx909",  "gfx90c",  "gfx1013", "gfx1033",
                                                              "gfx1035", "gfx1036", "gfx1037", "gfx1103", "gfx1150",
                                                              "gfx1151", "gfx1152", "gfx1153"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

const KnownDevice* find_device(int device_id) {
  auto it = std::find_if(k_devices.begin(), k_devices.end(),
                         [&](const KnownDevice& device) { return device.device_id == device_id; });
  return it == k_devices.end() ? nullptr : &*it;
}

std::string hex4(int value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%04x", static_cast<unsigned>(value));
  return buffer;
}

}  // namespace

Properties parse_properties(const std::string& text) {
  Properties props;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    auto space = line.find(' ');
    if (space == std::string::npos) continue;
    props[line.substr(0, space)] = util::trim(line.substr(space + 1));
  }
  return props;
}

std::optional<std::uint64_t> property_u64(const Properties& props, const std::string& key) {
  auto it = props.find(key);
  if (it == props.end()) return std::nullopt;
  std::uint64_t value = 0;
  const std::string& text = it->second;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::string> read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string gfx_arch_name(unsigned version) {
  if (version == 0) return "";
  unsigned major = version / 10000, minor = (version / 100) % 100, stepping = version % 100;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "gfx%u%u%x", major, minor, stepping);
  return buffer;
}

GpuModel gpu_model_for(int device_id, const std::string& gfx_arch) {
  if (const KnownDevice* device = find_device(device_id)) return device->model;
  if (contains(k_instinct_archs, gfx_arch)) return {gfx_arch, "instinct", "datacenter"};
  return {gfx_arch, "radeon", "consumer"};
}

std::string marketing_name(int device_id, const std::string& gfx_arch) {
  const KnownDevice* device = find_device(device_id);
  if (!device) return "AMD GPU " + gfx_arch + " (" + hex4(device_id) + ")";
  return device->model.family == "instinct" ? "AMD Instinct " + device->model.model : "AMD " + device->model.model;
}

bool is_integrated_arch(const std::string& gfx_arch) { return contains(k_integrated_archs, gfx_arch); }

int group_id_in(const std::string& group_file_text, const std::string& name) {
  std::istringstream lines(group_file_text);
  std::string line;
  while (std::getline(lines, line)) {
    auto fields = util::split(line, ':');
    if (fields.size() < 3 || fields[0] != name) continue;
    auto gid = util::parse_int(fields[2]);
    return gid && *gid >= 0 ? static_cast<int>(*gid) : -1;
  }
  return -1;
}

double bytes_to_gib(std::uint64_t bytes) {
  return std::round(static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) * 10.0) / 10.0;
}

}  // namespace jgrid::exec
