#include "SinglePrecisionAdvice.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace swe
{
namespace
{
// The largest intensity [mm/h] a rain of params gives any cell at any time.
double peakRain(const SimulationParameters& params, const InitialState& initial)
{
  double peak = params.rainfall;
  for (const std::array<double, 2>& point : params.rainSeries)
    peak = std::max(peak, point[1]);
  for (const Series& zone : params.rainZones)
    for (const std::array<double, 2>& point : zone)
      peak = std::max(peak, point[1]);
  if (params.rainPerCell && params.rainZones.empty() && !initial.rain.empty())
    peak *= *std::max_element(initial.rain.begin(), initial.rain.end());
  return peak;
}

// The first adaptive step's dt, from the initial state's fastest wave (and the inflows'), or the
// fixed dt; 0 where nothing moves.
double firstDt(const SimulationParameters& params, const InitialState& initial)
{
  if (params.fixedDt > 0)
    return params.fixedDt;
  double speed = inflowWaveSpeed(params);
  for (std::size_t c = 0; c < initial.h.size(); ++c)
  {
    const double h = initial.h[c];
    if (h > kDryDepth)
      speed = std::max(speed,
        std::max(std::abs(initial.hu[c]), std::abs(initial.hv[c])) / h +
          std::sqrt(params.gravity * h));
  }
  const double reach = params.scheme == Scheme::LaxFriedrichs ? params.dx : params.dx / 2;
  return speed > 0 ? params.cfl * reach / speed : 0;
}

// The shallowest depth from which adding x can err by `share` of x or more in fp32: on depths
// in [2^k, 2^(k+1)) fp32's spacing is 2^(k-23), and a sum errs by up to half of it. With share
// 1, x is lost there.
double depthRoundingBy(double x, double share)
{
  return std::exp2(std::ceil(std::log2(2 * share * x) + 23));
}
} // namespace

std::string singlePrecisionSourceWarning(const SimulationParameters& params,
  const InitialState& initial)
{
  if (params.precision != Precision::Single)
    return {};
  const double deepest =
    initial.h.empty() ? 0 : *std::max_element(initial.h.begin(), initial.h.end());
  const double dt = firstDt(params, initial);
  if (!(deepest > 0) || !(dt > 0))
    return {};
  struct Source
  {
    const char* what;
    double mmPerHour;
  };
  double conductivity = params.infiltration.conductivity;
  if (params.infiltration.perCell && !initial.conductivity.empty())
    conductivity = *std::max_element(initial.conductivity.begin(), initial.conductivity.end());
  const Source sources[] = { { "rain", peakRain(params, initial) },
    { "losses", params.losses },
    { "Green-Ampt's conductivity", params.infiltration.on() ? conductivity : 0.0 } };
  std::ostringstream text;
  text.precision(2);
  bool counted = false; // (a constant loss rate is not in the water balance)
  for (const Source& source : sources)
  {
    const double perStep = source.mmPerHour / 3.6e6 * dt;
    if (!(perStep > 0) || deepest < depthRoundingBy(perStep, 0.1))
      continue;
    counted = counted || source.what != std::string("losses");
    text << (text.tellp() > 0 ? "; " : "") << formatValue(source.mmPerHour) << " mm/h of "
         << source.what << " is " << perStep
         << " m a step, which fp32 can round by 10 % or more on water deeper than "
         << formatValue(depthRoundingBy(perStep, 0.1)) << " m and loses on water deeper than "
         << formatValue(depthRoundingBy(perStep, 1.0)) << " m";
  }
  if (text.tellp() == 0)
    return {};
  std::ostringstream warning;
  warning.precision(2);
  warning << "Single precision: at the first step's dt of " << dt << " s, " << text.str()
          << "; this run starts with water " << deepest
          << " m deep. Choose Double precision for rain or losses on deep water"
          << (counted ? " (Water Balance shows what Single loses)." : ".");
  return warning.str();
}
} // namespace swe
