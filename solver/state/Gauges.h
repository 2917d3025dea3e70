#pragma once
// The gauges (SimulationParameters::gauges), sampled on the device after every step into a ring of
// kGaugeRingSteps steps (kernels/state/gauges.cl), which the host collects whenever it reads the
// clock: a hydrograph at each gauge with every step's value, at no host round trip of its own. In a
// run split among ranks each gauge is sampled by the rank whose block holds it, and every collect
// shares the samples, so that each rank's record is one rank's.
#include "DeviceProgram.h"
#include "GridLayout.h"
#include "InitialState.h"
#include "OpenCL.h"
#include "RankExchange.h"
#include "SimulationTypes.h"

#include <array>
#include <cstdint>
#include <vector>

namespace swe
{
// Steps the device keeps before the host must collect them: the most a batch of steps takes
// (DeviceClock's batch limit).
constexpr int kGaugeRingSteps = 1 << 16;

class Gauges
{
public:
  // The gauges' cells (params.gauges, metres from the grid's corner).
  Gauges(const EngineContext& engine, const GridLayout& layout);
  // The gauges' cells in the initial state's block of the grid (the whole grid, or a rank's
  // block: initial.x0, y0) and the bed at them, as the user gave it (surface elevations are
  // reported above the same datum).
  void setBed(const InitialState& initial);
  // The other ranks of a split run: collect() is then collective.
  void couple(RankExchange& ranks) { ranks_ = &ranks; }

  // The sampling kernels of the state's two copies and the clock's buffers. Once, before the
  // first sample.
  void bind(const std::array<std::array<const cl::Buffer*, 3>, 2>& copies,
    const cl::Buffer& ctrl,
    const cl::Buffer& status);
  // Queues the sample of copy p's state at the clock's time and step count.
  void sample(int p) const;
  // Reads the samples of the steps after the last collected up to `steps` (the clock's count),
  // and appends them to the record. Waits for the device.
  void collect(std::int64_t steps);
  // Drops the samples from step `steps` on (a snapshot without a record restored there, whose
  // state is sampled again): the run takes them again.
  void truncate(std::int64_t steps);
  // The record a restored state carries (Snapshot::gauges: its run's samples up to it), in
  // place of this one: a checkpoint restored after one of an earlier time keeps the samples
  // between them, and a frame's keeps those before it. Throws swe::Error where they are another
  // number of gauges'.
  void seed(const GaugeRecord& record);

  const GaugeRecord& record() const { return record_; }

private:
  // A split run: the samples of rows firstRow on, each gauge's from the rank that holds it.
  void shareSamples(std::size_t firstRow);

  cl::CommandQueue& queue_;
  GridLayout layout_;
  Precision precision_;
  int count_;
  double interval_;                    // SimulationParameters::gaugeInterval
  std::vector<std::array<int, 2>> at_; // the gauges' cells (i, j) in the whole grid
  std::vector<char> held_;             // whether this rank's block holds each gauge
  std::vector<double> bed_;            // at each gauge held
  RankExchange* ranks_ = nullptr;
  cl::Buffer cells_, ring_;
  std::array<cl::Kernel, 2> sample_;
  std::int64_t collected_ = -1; // the last step collected (-1: none, not even t = 0)
  GaugeRecord record_;
};
} // namespace swe
