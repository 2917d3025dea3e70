#pragma once
// The wall time its parts report (setup, tuning, stepping), measured on the steady clock.
#include <chrono>

namespace swe
{
using Clock = std::chrono::steady_clock;

// Seconds from start to now.
inline double secondsSince(Clock::time_point start)
{
  return std::chrono::duration<double>(Clock::now() - start).count();
}
} // namespace swe
