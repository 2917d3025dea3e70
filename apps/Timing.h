#pragma once
// The wall clock the command-line tools time their parts with.
#include <chrono>

namespace swe::cli
{
using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start)
{
  return std::chrono::duration<double>(Clock::now() - start).count();
}
} // namespace swe::cli
