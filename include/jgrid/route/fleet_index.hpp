#pragma once
// FleetIndex: the node snapshot the router places jobs on, organised so that
// placing a job does not look at every node.
//
// Nodes with the same description (everything the filters and scores read
// except live state, labels and price: vendor, runtime, model, family, class,
// GPU count, VRAM, region, speed) form a node class; a fleet built from pools
// has about one class per pool. Labels and prices stay per node (a label or a
// price per host must not make every node a class of its own): every score
// falls as the price rises, so inside a bucket the cheapest node is the best.
// Only jobs that ask for node labels look at nodes one by one. Each class
// keeps its online nodes in buckets by live state (free GPUs, running jobs);
// inside a bucket nodes are ordered by price, then a seeded hash of their id,
// so the first node of a bucket is the one the scores and the tie-break would
// choose among them. The class's prototype is its cheapest node, so the
// static filters (max price included) pass on it when they pass on any node
// of the class. route::place() evaluates them once per class and scores one
// node per non-empty bucket: its cost grows with classes × buckets, not with
// nodes (a fleet whose nodes all differ in region is the worst case: one
// class per node).
//
// Invariant: for every node, running_jobs <= gpu_count - gpus_free (each job
// holds at least one GPU), so a bucket's nodes all score alike.
//
// Not synchronised: the owner (the engine's node pool) guards it. A
// default-constructed index is an empty fleet.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "jgrid/model/node.hpp"

namespace jgrid::route {

// A node in its bucket: cheapest first, then by tie hash.
struct BucketEntry {
  double price = 0;
  std::uint64_t hash = 0;
  std::size_t slot = 0;
  bool operator<(const BucketEntry& other) const {
    return std::tie(price, hash, slot) < std::tie(other.price, other.hash, other.slot);
  }
};

// Nodes sharing one description.
struct NodeClass {
  std::uint32_t id = 0;
  std::size_t prototype = 0;  // slot of its cheapest node (first among equals): the description
  double min_price = 0, max_price = 0;  // price_per_gpu_hour of its cheapest and dearest nodes
  int gpu_count = 0;
  std::vector<std::size_t> slots;  // every node of the class, in fleet order
  int draining = 0, offline = 0;   // nodes of the class in those states
  // Online (or busy) nodes by live state: buckets[bucket_index(free, running)],
  // each ordered by (price, tie hash, slot), so begin() is the bucket's winner.
  std::vector<std::set<BucketEntry>> buckets;
  std::vector<std::uint64_t> occupied;  // bit i set: buckets[i] is not empty
  std::vector<int> online_by_free;      // online nodes per free GPU count

  std::size_t bucket_index(int gpus_free, int running_jobs) const {
    return static_cast<std::size_t>(gpus_free) * static_cast<std::size_t>(gpu_count + 1) +
           static_cast<std::size_t>(running_jobs);
  }
  // Calls visit(bucket index) for each non-empty bucket from `first` on, in order.
  template <typename Visit>
  void each_occupied(std::size_t first, Visit&& visit) const {
    for (std::size_t word = first / 64; word < occupied.size(); ++word) {
      std::uint64_t bits = occupied[word];
      if (word == first / 64) bits &= ~std::uint64_t{0} << (first % 64);
      while (bits) {
        visit(word * 64 + static_cast<std::size_t>(__builtin_ctzll(bits)));
        bits &= bits - 1;
      }
    }
  }
};

class FleetIndex {
 public:
  FleetIndex() = default;
  // Takes the nodes with their live state (gpus_free, running_jobs, status)
  // as given; `seed` keys the tie-break hash.
  FleetIndex(std::vector<model::Node> nodes, std::uint64_t seed);

  std::uint64_t seed() const { return m_seed; }
  std::size_t size() const { return m_nodes.size(); }
  // Nodes in fleet order with their live state as last set. Status is the
  // node's own (online/draining/offline); "busy" is for displays to derive.
  const std::vector<model::Node>& nodes() const { return m_nodes; }
  const model::Node& node(std::size_t slot) const { return m_nodes[slot]; }
  std::optional<std::size_t> slot_of(const std::string& node_id) const;

  // Sets a node's live state in O(log n). Values are clamped to the
  // invariant: gpus_free to [0, gpu_count], running_jobs to
  // [0, gpu_count - gpus_free]. Precondition: slot < size().
  void set_load(std::size_t slot, int gpus_free, int running_jobs);
  // online and busy nodes can take jobs; draining and offline ones leave the
  // buckets until they come back. Precondition: slot < size().
  void set_status(std::size_t slot, model::NodeStatus status);

  // The most free GPUs on one online node of `vendor` ("" = any vendor);
  // 0 when none. O(largest GPU count).
  int max_free(std::string_view vendor) const;

  const std::vector<NodeClass>& classes() const { return m_classes; }
  std::uint32_t class_of(std::size_t slot) const { return m_class_of[slot]; }
  // Ids of the classes whose nodes are of `vendor`, ascending ("" = all).
  const std::vector<std::uint32_t>& classes_of_vendor(std::string_view vendor) const;
  // The seeded tie-break hash of a node: lower wins among equal scores.
  std::uint64_t tie_hash(std::size_t slot) const { return m_hash[slot]; }

 private:
  static bool placeable(model::NodeStatus status);
  void enter(std::size_t slot);
  void leave(std::size_t slot);
  void count_free(std::size_t slot, int delta);
  void add_class_member(std::size_t slot, std::map<std::string, std::uint32_t>& by_description);

  std::uint64_t m_seed = 0;
  std::vector<model::Node> m_nodes;
  std::vector<std::uint32_t> m_class_of;
  std::vector<std::uint64_t> m_hash;
  std::vector<NodeClass> m_classes;
  std::unordered_map<std::string, std::size_t> m_slots;
  std::map<std::string, std::vector<std::uint32_t>, std::less<>> m_by_vendor;  // "" holds every class
  std::map<std::string, std::vector<int>, std::less<>> m_free_counts;          // online nodes per free count
};

// FNV-1a of (seed, node id), finished with a 64-bit mixer.
std::uint64_t node_hash(std::uint64_t seed, std::string_view node_id);

}  // namespace jgrid::route
