#pragma once
// The defines a run's program is built with are each part's own: the device's here (the grid,
// its layout, the launch shape, precision and features), the state's, the clock's, the forcing's
// beside them (DeviceState.h, DeviceClock.h, Stepper.h, ...), gathered by programBuildOptions
// (ProgramOptions.h). DeviceProgram only builds. What they share: numbers as OpenCL C literals.
#include "DeviceProgram.h"

#include <string>

namespace swe
{
// A number as an OpenCL C literal of the device precision, exactly as the host has it: in fp32,
// the float the value rounds to (as the twin and the kernels' arguments take it), which nine
// digits give back exactly; the double's own nine digits can round to a neighbour of it.
std::string openclLiteral(double value, Precision precision);
// A number as an OpenCL C double literal, exactly as the host has it.
std::string openclDoubleLiteral(double value);
// Whether the user's build options define the macro (tests set the engine's own choices).
bool userDefines(const SimulationParameters& params, const char* macro);

// The device's defines: compiler flags, precision, the grid and its layout (owned cells
// included), the launch shape, the reduction group, gravity and the datum, fp64 roots on GPUs,
// the CPU-shaped lanes.
std::string deviceBuildOptions(const ProgramSettings& settings);
} // namespace swe
