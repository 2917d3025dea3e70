#pragma once
// The point sources and sinks of the run's grid (SimulationParameters::sources, those within a
// split run's block) on the device, for kernels/state/sources.cl: one work-item a cell that holds
// sources, taking them in the order the user listed them, so that any number of sources costs a
// launch over their cells, and two in one cell add up the same way every run (and as the twin
// adds them, one after the other). Their cells and discharge series are buffers: too many for the
// program's constants.
#include "DeviceProgram.h"
#include "OpenCL.h"

#include <array>
#include <tuple>

namespace swe
{
class PointSources
{
public:
  // For the program's point sources (sourcesHere); uploads their cells and series.
  explicit PointSources(const EngineContext& engine);

  // Binds the kernel that adds to copy p of the state (h, hu, hv): the clock's slots and the
  // totals of what came in (the water balance's, or placeholders).
  void bind(int p,
    const std::tuple<const cl::Buffer&, const cl::Buffer&, const cl::Buffer&>& copy,
    const cl::Buffer& ctrl,
    const cl::Buffer& inflow,
    const cl::Buffer& inflowLow);
  // After a step that wrote copy p: each source's water over the step into its cell.
  void add(cl::CommandQueue& queue, int p) const;

private:
  std::array<cl::Kernel, 2> kernels_; // one per copy
  cl::Buffer cells_, series_, times_, values_;
  int cellCount_ = 0;
};
} // namespace swe
