#include "jgrid/route/fleet_index.hpp"

#include <algorithm>

namespace jgrid::route {
namespace {

const std::vector<std::uint32_t> k_no_classes;

// Everything the filters and scores read of a node besides its live state,
// its labels and its price (those are looked at node by node).
std::string description_key(const model::Node& node) {
  std::string key;
  for (const std::string* part :
       {&node.gpu_vendor, &node.runtime, &node.gpu_model, &node.gpu_family, &node.gpu_class, &node.region}) {
    key += *part;
    key += '\x1f';
  }
  return key + std::to_string(node.gpu_count) + '\x1f' + std::to_string(node.vram_gb) + '\x1f' +
         std::to_string(node.speed);
}

}  // namespace

std::uint64_t node_hash(std::uint64_t seed, std::string_view node_id) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  auto mix = [&hash](unsigned char byte) { hash = (hash ^ byte) * 0x100000001b3ULL; };
  for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(seed >> (8 * i)));
  for (char c : node_id) mix(static_cast<unsigned char>(c));
  hash ^= hash >> 33;  // FNV's low bits vary little between similar ids
  hash *= 0xff51afd7ed558ccdULL;
  hash ^= hash >> 33;
  return hash;
}

FleetIndex::FleetIndex(std::vector<model::Node> nodes, std::uint64_t seed) : m_seed(seed), m_nodes(std::move(nodes)) {
  std::map<std::string, std::uint32_t> by_description;
  m_class_of.resize(m_nodes.size());
  m_hash.resize(m_nodes.size());
  int widest = 0;
  for (const auto& node : m_nodes) widest = std::max(widest, node.gpu_count);
  m_free_counts[""] = std::vector<int>(static_cast<std::size_t>(widest) + 1, 0);
  for (std::size_t slot = 0; slot < m_nodes.size(); ++slot) {
    m_slots.emplace(m_nodes[slot].id, slot);
    m_hash[slot] = node_hash(seed, m_nodes[slot].id);
    add_class_member(slot, by_description);
  }
  for (std::size_t slot = 0; slot < m_nodes.size(); ++slot) {
    model::Node& node = m_nodes[slot];
    node.gpu_count = std::max(node.gpu_count, 0);
    node.gpus_free = std::clamp(node.gpus_free, 0, node.gpu_count);
    node.running_jobs = std::clamp(node.running_jobs, 0, node.gpu_count - node.gpus_free);
    if (node.status == model::NodeStatus::busy) node.status = model::NodeStatus::online;
    if (node.status == model::NodeStatus::draining) ++m_classes[m_class_of[slot]].draining;
    if (node.status == model::NodeStatus::offline) ++m_classes[m_class_of[slot]].offline;
    if (placeable(node.status)) enter(slot);
  }
}

void FleetIndex::add_class_member(std::size_t slot, std::map<std::string, std::uint32_t>& by_description) {
  const model::Node& node = m_nodes[slot];
  auto [it, added] = by_description.emplace(description_key(node), static_cast<std::uint32_t>(m_classes.size()));
  if (added) {
    NodeClass node_class;
    node_class.id = it->second;
    node_class.prototype = slot;
    node_class.min_price = node_class.max_price = node.price_per_gpu_hour;
    node_class.gpu_count = std::max(node.gpu_count, 0);
    node_class.buckets.resize(node_class.bucket_index(node_class.gpu_count, 0) + 1);
    node_class.occupied.assign((node_class.buckets.size() + 63) / 64, 0);
    node_class.online_by_free.assign(static_cast<std::size_t>(node_class.gpu_count) + 1, 0);
    m_classes.push_back(std::move(node_class));
    m_by_vendor[""].push_back(it->second);
    m_by_vendor[node.gpu_vendor].push_back(it->second);
    auto& counts = m_free_counts[node.gpu_vendor];
    counts.resize(std::max(counts.size(), static_cast<std::size_t>(node_class.gpu_count) + 1), 0);
  }
  m_class_of[slot] = it->second;
  NodeClass& node_class = m_classes[it->second];
  node_class.slots.push_back(slot);
  if (node.price_per_gpu_hour < node_class.min_price) {
    node_class.min_price = node.price_per_gpu_hour;
    node_class.prototype = slot;
  }
  node_class.max_price = std::max(node_class.max_price, node.price_per_gpu_hour);
}

std::optional<std::size_t> FleetIndex::slot_of(const std::string& node_id) const {
  auto it = m_slots.find(node_id);
  if (it == m_slots.end()) return std::nullopt;
  return it->second;
}

bool FleetIndex::placeable(model::NodeStatus status) {
  return status == model::NodeStatus::online || status == model::NodeStatus::busy;
}

void FleetIndex::count_free(std::size_t slot, int delta) {
  auto free = static_cast<std::size_t>(m_nodes[slot].gpus_free);
  m_free_counts.find(std::string_view(""))->second[free] += delta;
  m_free_counts.find(std::string_view(m_nodes[slot].gpu_vendor))->second[free] += delta;
}

void FleetIndex::enter(std::size_t slot) {
  const model::Node& node = m_nodes[slot];
  NodeClass& node_class = m_classes[m_class_of[slot]];
  std::size_t index = node_class.bucket_index(node.gpus_free, node.running_jobs);
  node_class.buckets[index].insert({node.price_per_gpu_hour, m_hash[slot], slot});
  node_class.occupied[index / 64] |= std::uint64_t{1} << (index % 64);
  ++node_class.online_by_free[static_cast<std::size_t>(node.gpus_free)];
  count_free(slot, +1);
}

void FleetIndex::leave(std::size_t slot) {
  const model::Node& node = m_nodes[slot];
  NodeClass& node_class = m_classes[m_class_of[slot]];
  std::size_t index = node_class.bucket_index(node.gpus_free, node.running_jobs);
  node_class.buckets[index].erase({node.price_per_gpu_hour, m_hash[slot], slot});
  if (node_class.buckets[index].empty()) node_class.occupied[index / 64] &= ~(std::uint64_t{1} << (index % 64));
  --node_class.online_by_free[static_cast<std::size_t>(node.gpus_free)];
  count_free(slot, -1);
}

void FleetIndex::set_load(std::size_t slot, int gpus_free, int running_jobs) {
  model::Node& node = m_nodes[slot];
  bool indexed = placeable(node.status);
  if (indexed) leave(slot);
  node.gpus_free = std::clamp(gpus_free, 0, node.gpu_count);
  node.running_jobs = std::clamp(running_jobs, 0, node.gpu_count - node.gpus_free);
  if (indexed) enter(slot);
}

void FleetIndex::set_status(std::size_t slot, model::NodeStatus status) {
  if (status == model::NodeStatus::busy) status = model::NodeStatus::online;
  model::Node& node = m_nodes[slot];
  NodeClass& node_class = m_classes[m_class_of[slot]];
  if (status == node.status) return;
  if (placeable(node.status)) leave(slot);
  node_class.draining -= node.status == model::NodeStatus::draining;
  node_class.offline -= node.status == model::NodeStatus::offline;
  node.status = status;
  node_class.draining += status == model::NodeStatus::draining;
  node_class.offline += status == model::NodeStatus::offline;
  if (placeable(status)) enter(slot);
}

int FleetIndex::max_free(std::string_view vendor) const {
  auto it = m_free_counts.find(vendor);
  if (it == m_free_counts.end()) return 0;
  for (std::size_t free = it->second.size(); free-- > 1;)
    if (it->second[free] > 0) return static_cast<int>(free);
  return 0;
}

const std::vector<std::uint32_t>& FleetIndex::classes_of_vendor(std::string_view vendor) const {
  auto it = m_by_vendor.find(vendor);
  return it == m_by_vendor.end() ? k_no_classes : it->second;
}

}  // namespace jgrid::route
