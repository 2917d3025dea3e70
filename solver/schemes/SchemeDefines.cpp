#include "SchemeDefines.h"

#include "DeviceClock.h"
#include "LocalDatum.h"
#include "ProgramDefines.h"

#include <sstream>

namespace swe
{
std::string schemeBuildOptions(const ProgramSettings& settings)
{
  const SimulationParameters& params = settings.params;
  const auto real = [&](double value) { return openclLiteral(value, params.precision); };
  const GreenAmpt& soil = params.infiltration;
  std::ostringstream s;
  s << "-DFUSED_CLOCK=" << (settings.features.fusedClock ? 1 : 0)
    << " -DINFLOW_WAVE_SPEED=" << real(waveSpeedFloor(params, settings.local)) << " -DTWO_STEPS="
    << (settings.shape.steps == 2 ? 1 : 0)
    // (Tests of the blow-up check itself switch the limit off: -DCOURANT_LIMIT_DX=INFINITY.)
    << (userDefines(params, "COURANT_LIMIT_DX")
           ? ""
           : " -DCOURANT_LIMIT_DX=" + real(courantLimitDx(params)))
    << " -DPAIR_SPEED_MARGIN=" << real(kPairSpeedMargin) << " "
    << (holdsDt(params) ? "-DHELD_DT " : "")
    << (params.rainfall > 0 ? "-DRAIN_RATE=" + real(rainfallRate(params)) + " " : "")
    << (params.rainSeries.empty() ? "" : "-DRAIN_SERIES ")
    << (params.rainZones.empty() ? ""
                                 : "-DRAIN_ZONES=" + std::to_string(params.rainZones.size()) + " ")
    << (soil.on() ? "-DGREEN_AMPT -DGREEN_AMPT_K=" + real(soil.conductivity / 3.6e6) +
                      " -DGREEN_AMPT_P=" + real(soil.suction / 1000 * soil.deficit) + " "
                  : "")
    << (params.losses > 0 ? "-DLOSS_RATE=" + real(lossRate(params)) + " " : "");
  return s.str();
}
} // namespace swe
