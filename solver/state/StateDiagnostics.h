#pragma once
// The diagnostics (mass, max depth, max speed) of the current state, by the same two-stage
// reduction as the wave speeds (per-group partials, then one group), read only when asked for.
#include "DeviceProgram.h"
#include "DeviceState.h"
#include "OpenCL.h"
#include "SimulationTypes.h"

#include <array>

namespace swe
{
class StateDiagnostics
{
public:
  // partials: the speed partials' count, which sizes the diagnostics' buffers as well.
  StateDiagnostics(const EngineContext& engine, const DeviceState& state, std::size_t partials);

  // Waits for the device.
  Diagnostics compute();

private:
  cl::CommandQueue& queue_;
  const GridLaunch& grid_;
  const DeviceState& state_;
  const SimulationParameters& params_;
  cl::Buffer sum_, maxDepth_, maxSpeed_, result_;
  std::array<cl::Kernel, 2> partials_; // one per copy of the state
  cl::Kernel final_;
};
} // namespace swe
