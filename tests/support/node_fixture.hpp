#pragma once
// A fake GPU node for tests of the router and the engine: AMD nodes are MI300X/ROCm 6.2,
// anything else H100/CUDA 12.4, every GPU free.
#include <string>

#include "jgrid/model/node.hpp"

namespace jgrid::test {

inline model::Node make_node(const std::string& name, const std::string& vendor, int gpus, double price = 2.0,
                             const std::string& region = "us-east") {
  model::Node node;
  node.id = "node_" + name;
  node.name = name;
  node.gpu_vendor = vendor;
  node.runtime = vendor == "amd" ? "rocm" : "cuda";
  node.runtime_version = vendor == "amd" ? "6.2" : "12.4";
  node.gpu_model = vendor == "amd" ? "MI300X" : "H100";
  node.gpu_family = vendor == "amd" ? "instinct" : "hopper";
  node.gpu_class = "datacenter";
  node.gpu_count = gpus;
  node.gpus_free = gpus;
  node.vram_gb = vendor == "amd" ? 192 : 80;
  node.region = region;
  node.price_per_gpu_hour = price;
  return node;
}

}  // namespace jgrid::test
