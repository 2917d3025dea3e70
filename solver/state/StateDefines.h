#pragma once
// The state's defines in a run's program (ProgramDefines.h says how the parts' defines are
// gathered): the sides and their imposed faces, the per-cell fields and their planes, the water
// balance, a split run's halo sides, the dry tiles, the flood maps' fold, the gauges' ring.
#include "DeviceProgram.h"

#include <string>

namespace swe
{
std::string stateBuildOptions(const ProgramSettings& settings);
} // namespace swe
