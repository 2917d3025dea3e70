#include "Timeline.h"

#include "Error.h"
#include "HugePages.h"
#include "Seconds.h"
#include "StateBounds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

namespace swe
{
namespace
{

void requireInterval(double interval)
{
  requireTimeSpan(interval, "output interval");
}

// The plan Simulation's constructor of (params, initial) makes, after the interval is checked.
SimulationPlan planAfterInterval(const SimulationParameters& params,
  const InitialState& initial,
  double interval)
{
  requireInterval(interval);
  return Simulation::plan(params, !initial.manning.empty());
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
  : Timeline(planAfterInterval(params, initial, outputInterval), initial, outputInterval, limits)
{
}

Timeline::Timeline(const SimulationPlan& plan, const InitialState& initial, double outputInterval)
  : Timeline(plan, initial, outputInterval, Limits())
{
}

Timeline::Timeline(const SimulationPlan& plan,
  const InitialState& initial,
  double outputInterval,
  const Limits& limits)
  : interval_(outputInterval)
  , limits_(limits)
  , spacing_(outputInterval)
{
  requireInterval(outputInterval);
  simulation_ = std::make_unique<Simulation>(plan, initial);
  place_ = limits_.checkpointPlace.value_or(
    simulation_->snapshotsFitOnDevice(limit() * simulation_->stateBytes()) ? SnapshotPlace::Device
                                                                           : SnapshotPlace::Host);
  const auto before = Clock::now();
  Snapshot first;
  takeSnapshot(first);
  checkpoints_.emplace(0.0, std::move(first));
  lastSnapshotSeconds_ = secondsSince(before);
  start_ = Clock::now();
  prepareSpare();
}

void Timeline::startFrom(const Snapshot& state)
{
  finishAhead({});
  simulation_->restore(state);
  // (taken before the old ones go, so that a failure leaves the timeline whole)
  Snapshot first;
  takeSnapshot(first);
  for (auto& checkpoint : checkpoints_)
    spares_.push_back(std::move(checkpoint.second));
  checkpoints_.clear();
  checkpoints_.emplace(simulation_->time(), std::move(first));
}

void Timeline::setOutputInterval(double interval)
{
  requireInterval(interval);
  // A started advance goes to an output time of the old interval: it ends there, as if that
  // time had been asked for, before the new interval applies.
  finishAhead({});
  interval_ = interval;
  spacing_ = std::max(spacing_, interval);
}

bool Timeline::seek(double t, const ProgressCallback& progress)
{
  requireSimulatedTime(t, "requested time");
  if (!finishAhead(progress))
    return false;
  // Jump to the latest checkpoint at or before t when that is behind us (going back) or ahead of
  // the live state (skipping work done before).
  auto it = checkpoints_.upper_bound(t);
  if (it != checkpoints_.begin()) // (the first is the start: t = 0, or startFrom's)
    --it;
  if (it->first > simulation_->time() || t < simulation_->time())
    simulation_->restore(it->second);
  while (simulation_->time() < t)
    if (!advance(std::min(nextOutputTime(), t), progress))
      return false;
  return true;
}

double Timeline::nextOutputTime() const
{
  const double now = simulation_->time();
  auto k = static_cast<std::int64_t>(std::floor(now / interval_)) + 1;
  while (outputTime(k) <= now)
    ++k;
  return outputTime(k);
}

bool Timeline::advance(double next, const ProgressCallback& progress)
{
  const double now = simulation_->time();
  const auto stepsBefore = simulation_->steps();
  const auto start = Clock::now();
  const bool done = simulation_->advanceTo(next, progress);
  steppingSeconds_ += secondsSince(start);
  steppedSteps_ += static_cast<double>(simulation_->steps() - stepsBefore);
  advanced_ += simulation_->time() - now;
  if (!done)
    return false;
  const auto stepped = Clock::now();
  maybeCheckpoint();
  checkpointSeconds_ += secondsSince(stepped);
  return true;
}

bool Timeline::finishAhead(const ProgressCallback& progress)
{
  if (ahead_ <= 0)
    return true;
  const double next = ahead_;
  ahead_ = 0;
  return advance(next, progress);
}

StateView Timeline::output(double aheadUntil, const StateConsumer& consume)
{
  if (ahead_ > 0)
    throw Error("Timeline::output called twice without a seek between");
  const double next = std::min(nextOutputTime(), aheadUntil);
  const bool ahead = next > simulation_->time();
  const Snapshot* checkpoint = currentCheckpoint();
  // ahead_ is set before consume runs: should it throw, the next seek still finishes the advance
  // (or, had it not started, takes those steps itself).
  if (checkpoint || !ahead)
  {
    const StateView view = checkpoint ? checkpoint->view() : simulation_->downloadState();
    if (ahead)
    {
      simulation_->startAdvance(next);
      ahead_ = next;
    }
    if (consume)
      consume(view, [](int) {});
    return view;
  }
  ahead_ = next;
  return simulation_->downloadStateThenAdvance(next, consume);
}

const Snapshot* Timeline::currentCheckpoint() const
{
  // The live state at a checkpoint's time is that checkpoint: any seek that gets there from an
  // earlier time restores it first (seek), and restoring is exact.
  const auto it = checkpoints_.find(simulation_->time());
  if (it == checkpoints_.end() || it->second.steps != simulation_->steps() || it->second.onDevice())
    return nullptr;
  return &it->second;
}

void Timeline::maybeCheckpoint()
{
  const double now = simulation_->time();
  auto previous = checkpoints_.upper_bound(now);
  --previous;
  if (previous->first == now || now - previous->first < spacing_ * (1 - 1e-9))
    return;
  if (snapshotSeconds_ + lastSnapshotSeconds_ > limits_.maxCheckpointShare * secondsSince(start_))
    return;
  // Thin first, with the new time counted, so that a snapshot thinning would drop at once is
  // never taken; dropped snapshots are kept as spares, within the limits, for later checkpoints
  // (fresh memory costs page faults and zeroing on top of the copy: see PERFORMANCE.md, 'NVIDIA
  // H200', checkpoints).
  std::vector<double> times;
  times.reserve(checkpoints_.size() + 1);
  for (const auto& checkpoint : checkpoints_)
    times.push_back(checkpoint.first);
  times.push_back(now); // the latest: now is past every checkpoint
  const std::vector<bool> kept = thin(times);
  std::size_t i = 0;
  for (auto it = checkpoints_.begin(); it != checkpoints_.end(); ++i)
  {
    if (kept[i])
      ++it;
    else
    {
      spares_.push_back(std::move(it->second));
      it = checkpoints_.erase(it);
    }
  }
  if (kept.back())
  {
    Snapshot snapshot;
    const auto before = Clock::now();
    if (!spares_.empty())
    {
      snapshot = std::move(spares_.back());
      spares_.pop_back();
    }
    else if (prepared_.valid() &&
             prepared_.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
    {
      // (not waited for while still being touched: the checkpoint's cost, which decides how
      // many are taken, must not depend on how soon that thread ran)
      try
      {
        snapshot.data = prepared_.get();
      }
      catch (const std::exception&)
      {
        // No memory for it after all: the snapshot asks for its own.
      }
    }
    takeSnapshot(snapshot);
    lastSnapshotSeconds_ = secondsSince(before);
    snapshotSeconds_ += lastSnapshotSeconds_;
    checkpoints_.emplace(now, std::move(snapshot));
  }
  const std::size_t prepared = prepared_.valid() ? 1 : 0;
  while (!spares_.empty() && checkpoints_.size() + spares_.size() + prepared > limit())
    spares_.pop_back();
  prepareSpare();
}

void Timeline::prepareSpare()
{
  // Small states touch fresh memory in a few milliseconds: no thread for them.
  constexpr std::size_t small = std::size_t(16) << 20;
  const std::size_t bytes = simulation_->stateBytes();
  if (place_ != SnapshotPlace::Host || bytes < small || !spares_.empty() || prepared_.valid() ||
      checkpoints_.size() >= limit())
    return;
  try
  {
    prepared_ = std::async(std::launch::async,
      [bytes]
      {
        std::vector<unsigned char> memory;
        resizeOnHugePages(memory, bytes); // as Simulation::snapshotInto would
        return memory;
      });
  }
  catch (const std::exception&)
  {
    // No thread for it: the next checkpoint touches its memory itself, as it always did.
  }
}

void Timeline::takeSnapshot(Snapshot& s)
{
  if (place_ == SnapshotPlace::Device && !limits_.checkpointPlace)
  {
    try
    {
      simulation_->snapshotInto(s, place_);
      return;
    }
    catch (const Error&)
    {
      // Other programs took the device memory the estimate counted on: the host has room.
      place_ = SnapshotPlace::Host;
    }
  }
  simulation_->snapshotInto(s, place_);
}

std::size_t Timeline::limit() const
{
  const std::uint64_t each = simulation_->stateBytes();
  const std::size_t byMemory = static_cast<std::size_t>(
    std::max<std::uint64_t>(2, limits_.maxCheckpointBytes / std::max<std::uint64_t>(each, 1)));
  return std::max<std::size_t>(2, std::min(limits_.maxCheckpoints, byMemory));
}

std::vector<bool> Timeline::thin(const std::vector<double>& times)
{
  const std::size_t limit = this->limit();
  std::vector<bool> kept(times.size(), true);
  std::size_t count = times.size();
  while (count > limit)
  {
    // Double the spacing and keep only checkpoints that honour it: they stay evenly spread over
    // the simulated time, however long the run.
    spacing_ *= 2;
    double last = times.front();
    for (std::size_t i = 1; i < times.size(); ++i)
    {
      if (!kept[i])
        continue;
      if (times[i] - last < spacing_ * (1 - 1e-9))
      {
        kept[i] = false;
        --count;
      }
      else
        last = times[i];
    }
  }
  return kept;
}
} // namespace swe
