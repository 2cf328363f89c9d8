#pragma once
// Pure pieces of GPU detection: sysfs `properties` files, PCI device ids,
// gfx architectures and the group file. No I/O except read_text_file.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace jgrid::exec {

// A KFD `properties` file: one "key value" pair per line.
using Properties = std::map<std::string, std::string>;
Properties parse_properties(const std::string& text);
// The value of `key` as an unsigned integer; nullopt when absent or not a number.
std::optional<std::uint64_t> property_u64(const Properties& props, const std::string& key);

// The whole file, or nullopt when it cannot be read.
std::optional<std::string> read_text_file(const std::filesystem::path& path);

struct GpuModel {
  std::string model;      // "MI300X"
  std::string family;     // "instinct" | "radeon"
  std::string gpu_class;  // "datacenter" | "workstation" | "consumer"
};

// The model of an AMD PCI device id; when the id is unknown, a generic model
// guessed from the architecture ("instinct" for CDNA, else "radeon").
GpuModel gpu_model_for(int device_id, const std::string& gfx_arch);

// "AMD Instinct MI300X", "AMD Radeon RX 7900 XTX"; "AMD GPU gfx1151 (0x1586)" when unknown.
std::string marketing_name(int device_id, const std::string& gfx_arch);

// True for the architectures of APUs' integrated GPUs (gfx90c, gfx1035, gfx1103, …).
bool is_integrated_arch(const std::string& gfx_arch);

// The gid of `name` in a group(5) file's text; -1 when absent.
int group_id_in(const std::string& group_file_text, const std::string& name);

// GiB with one decimal (206141652992 bytes → 192.0).
double bytes_to_gib(std::uint64_t bytes);

}  // namespace jgrid::exec
