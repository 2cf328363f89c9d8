#pragma once
// The simulation's random numbers: splitmix64, whose sequence is the same on
// every platform, so a seed gives the same run everywhere. Not thread-safe.
#include <cstdint>
#include <string_view>

namespace jgrid::exec {

class Random {
 public:
  explicit Random(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [min, max).
  double uniform(double min, double max) {
    double unit = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return min + (max - min) * unit;
  }
  // True with probability p.
  bool chance(double p) { return p > 0 && uniform(0, 1) < p; }

 private:
  std::uint64_t m_state;
};

// The seed of one draw stream: `seed` mixed with a stream number.
inline std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream) {
  return Random(seed ^ (stream * 0xd1342543de82ef95ULL)).next();
}

}  // namespace jgrid::exec
