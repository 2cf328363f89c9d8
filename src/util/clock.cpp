#include "jgrid/util/clock.hpp"

#include <chrono>

namespace jgrid::util {
namespace {

class RealClock final : public Clock {
 public:
  explicit RealClock(double scale) : m_scale(scale), m_origin(wall_now_ms()) {}
  std::int64_t now_ms() const override {
    auto elapsed = static_cast<double>(wall_now_ms() - m_origin);
    return m_origin + static_cast<std::int64_t>(elapsed * m_scale);
  }
  double scale() const override { return m_scale; }

 private:
  double m_scale;
  std::int64_t m_origin;
};

}  // namespace

std::int64_t wall_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::shared_ptr<Clock> make_real_clock(double scale) { return std::make_shared<RealClock>(scale); }

}  // namespace jgrid::util
