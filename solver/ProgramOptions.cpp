#include "ProgramOptions.h"

#include "ProgramDefines.h"
#include "SchemeDefines.h"
#include "StateDefines.h"

namespace swe
{
std::string programBuildOptions(const ProgramSettings& settings)
{
  return deviceBuildOptions(settings) + stateBuildOptions(settings) + schemeBuildOptions(settings) +
         settings.params.buildOptions;
}
} // namespace swe
