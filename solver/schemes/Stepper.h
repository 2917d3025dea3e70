#pragma once
// A scheme's steps. One stepper per scheme behind one interface: it makes the scheme's step kernels
// (one object per copy of the state, so the step loop never sets arguments), binds their arguments
// in one place, knows their launch ranges, and queues the launches for a number of steps. The clock
// (DeviceClock) decides on the device how far they go.
#include "DeviceClock.h"
#include "DeviceProgram.h"
#include "DeviceState.h"
#include "KernelArgs.h"
#include "LaunchShape.h"
#include "OpenCL.h"
#include "Parameters.h"

#include <cstdint>
#include <memory>
#include <tuple>

namespace swe
{
// What a stepper launches with.
struct StepperParts
{
  EngineContext engine;
  const LaunchShape& shape;
  const DeviceFeatures& features;
  DeviceState& state;
};

// The arguments every step kernel takes after the copies it reads and writes, in this order:
// the clock's buffers, the uniform Manning coefficient and 1 / dx (KernelArgs).
inline auto stepInputs(const SimulationParameters& params, const DeviceClock& clock)
{
  return std::tuple_cat(
    clock.args(), std::make_tuple(Real{ params.manning }, Real{ 1.0 / params.dx }));
}

// A step kernel's launch: its range, its work-group and the number of groups.
struct StepLaunch
{
  cl::NDRange global, local;
  int groups = 0;
};

// The CPU-shaped launch of a rowsN shape: one work-item per group, each `rows` whole rows.
StepLaunch wholeRowsLaunch(const SimulationParameters& params, const LaunchShape& shape);

class Stepper
{
public:
  virtual ~Stepper() = default;

  // Wave-speed partials the step kernels write, where the maximum is not kept by atomics: the
  // clock's compute_dt reads this many (or the fresh state's, if more).
  virtual std::size_t speedPartials() const = 0;
  // Sets the step kernels' arguments: the state's buffers and the clock's. Once, before the
  // first step.
  virtual void bind(DeviceClock& clock) = 0;
  // Queues launches for n steps, not waited for (fewer steps are taken where a target or the
  // step limit is reached first, or a two-step launch is refused).
  virtual void enqueue(int n) = 0;
  // Whether the device keeps which copy holds the state (two steps a launch: only the device
  // knows whether a launch was committed).
  virtual bool parityOnDevice() const { return false; }
};

// The stepper of parts.params.scheme.
std::unique_ptr<Stepper> makeStepper(const StepperParts& parts);
std::unique_ptr<Stepper> makeLaxFriedrichsStepper(const StepperParts& parts);
std::unique_ptr<Stepper> makeMusclHllcStepper(const StepperParts& parts);
std::unique_ptr<Stepper> makeMusclHancockStepper(const StepperParts& parts);

// Bytes one step must move per cell at least: the scheme's reads and writes of whole fields
// (Lax-Friedrichs: 3 read, 3 written; MUSCL-HLLC: two stages, 7 + 10; MUSCL-Hancock: 4 + 3).
std::uint64_t stepBytesPerCell(const SimulationParameters& params);
} // namespace swe
