#pragma once
// The options a run's program is built with: each part's own defines (ProgramDefines.h,
// StateDefines.h, SchemeDefines.h), then the user's build options, last, so that they override.
#include "DeviceProgram.h"

#include <string>

namespace swe
{
std::string programBuildOptions(const ProgramSettings& settings);
} // namespace swe
