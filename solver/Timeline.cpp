#include "Timeline.h"

#include "Error.h"

#include <chrono>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace swe
{
namespace
{
void requireInterval(double interval)
{
  requireFinite(interval, "output interval");
  if (!(interval > 0))
    throw Error("output interval must be > 0 s, got " + formatValue(interval));
}
} // namespace

Timeline::Timeline(const SimulationParameters& params,
  const InitialState& initial,
  double outputInterval)
  : Timeline(params, initial, outputInterval, Limits())
{
}

Timeline::Timeline(const SimulationParameters& params,
  const InitialState& initial,
  double outputInterval,
  const Limits& limits)
  : interval_(outputInterval)
  , limits_(limits)
  , spacing_(outputInterval)
{
  requireInterval(outputInterval);
  simulation_ = std::make_unique<Simulation>(params, initial);
  checkpoints_.emplace(0.0, simulation_->snapshot());
}

void Timeline::setOutputInterval(double interval)
{
  requireInterval(interval);
  interval_ = interval;
  spacing_ = std::max(spacing_, interval);
}

bool Timeline::seek(double t, const ProgressCallback& progress)
{
  requireFinite(t, "requested time");
  if (t < 0)
    throw Error("requested time must be >= 0 s, got " + formatValue(t));
  // Jump to the latest checkpoint at or before t when that is behind us (going back) or ahead of
  // the live state (skipping work done before).
  auto it = checkpoints_.upper_bound(t);
  --it; // t = 0 is always there
  if (it->first > simulation_->time() || t < simulation_->time())
    simulation_->restore(it->second);
  while (simulation_->time() < t)
  {
    // The next output time after now, so that every run lands on the same output times.
    const double now = simulation_->time();
    auto k = static_cast<std::int64_t>(std::floor(now / interval_)) + 1;
    while (outputTime(k) <= now)
      ++k;
    const double next = std::min(outputTime(k), t);
    const auto start = std::chrono::steady_clock::now();
    const bool done = simulation_->advanceTo(next, progress);
    const auto stepped = std::chrono::steady_clock::now();
    steppingSeconds_ += std::chrono::duration<double>(stepped - start).count();
    advanced_ += simulation_->time() - now;
    if (!done)
      return false;
    maybeCheckpoint();
    checkpointSeconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stepped).count();
  }
  return true;
}

void Timeline::maybeCheckpoint()
{
  const double now = simulation_->time();
  auto previous = checkpoints_.upper_bound(now);
  --previous;
  if (previous->first == now || now - previous->first < spacing_ * (1 - 1e-9))
    return;
  checkpoints_.emplace(now, simulation_->snapshot());
  thin();
}

void Timeline::thin()
{
  const std::uint64_t each = checkpoints_.begin()->second.bytes();
  const std::size_t byMemory = static_cast<std::size_t>(
    std::max<std::uint64_t>(2, limits_.maxCheckpointBytes / std::max<std::uint64_t>(each, 1)));
  const std::size_t limit = std::max<std::size_t>(2, std::min(limits_.maxCheckpoints, byMemory));
  while (checkpoints_.size() > limit)
  {
    // Double the spacing and keep only checkpoints that honour it: they stay evenly spread over
    // the simulated time, however long the run.
    spacing_ *= 2;
    double kept = 0;
    for (auto it = std::next(checkpoints_.begin()); it != checkpoints_.end();)
    {
      if (it->first - kept < spacing_ * (1 - 1e-9))
        it = checkpoints_.erase(it);
      else
        kept = (it++)->first;
    }
  }
}
} // namespace swe
