#include "Stepper.h"

#include "GridLayout.h"

namespace swe
{
std::unique_ptr<Stepper> makeStepper(const StepperParts& parts)
{
  switch (parts.engine.params.scheme)
  {
    case Scheme::MusclHllc:
      return makeMusclHllcStepper(parts);
    case Scheme::MusclHancock:
      return makeMusclHancockStepper(parts);
    case Scheme::LaxFriedrichs:
      break;
  }
  return makeLaxFriedrichsStepper(parts);
}

StepLaunch wholeRowsLaunch(const SimulationParameters& params, const LaunchShape& shape)
{
  StepLaunch launch;
  launch.global = cl::NDRange((params.ny + shape.rows - 1) / shape.rows);
  launch.local = cl::NDRange(1);
  launch.groups = static_cast<int>(launch.global[0]);
  return launch;
}

std::uint64_t stepBytesPerCell(const SimulationParameters& params)
{
  const std::uint64_t fields = params.scheme == Scheme::MusclHllc      ? 17
                               : params.scheme == Scheme::MusclHancock ? 7
                                                                       : 6;
  return fields * realBytes(params.precision);
}
} // namespace swe
