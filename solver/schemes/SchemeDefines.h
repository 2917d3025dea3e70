#pragma once
// The steps' defines in a run's program (ProgramDefines.h says how the parts' defines are
// gathered): the device clock's (fused, two steps a launch, the Courant limit, a held dt, the
// slowest wave counted) and the source terms' (rain, losses, Green-Ampt).
#include "DeviceProgram.h"

#include <string>

namespace swe
{
std::string schemeBuildOptions(const ProgramSettings& settings);
} // namespace swe
