#include "SinglePrecisionAdvice.h"

#include "DeviceClock.h"
#include "LocalDatum.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

namespace swe
{
namespace
{
// The shallowest depth from which adding x can err by `share` of x or more in fp32: on depths
// in [2^k, 2^(k+1)) fp32's spacing is 2^(k-23), and a sum errs by up to half of it. With share
// 1, x is lost there.
double depthRoundingBy(double x, double share)
{
  return std::exp2(std::ceil(std::log2(2 * share * x) + 23));
}

// What the warning needs of an initial state, each the largest over its cells (so a split run's
// ranks agree on them by their maxima): the depth, the wave speed |u| + sqrt(g h) (or a level
// side's, LocalDatum::levelWaveSpeed), the rain's factor (1 without per-cell factors) and
// Green-Ampt's conductivity [mm/h] (the soil map's, or the uniform value).
struct SourceScales
{
  double deepest = 0, waveSpeed = 0, rainFactor = 1, conductivity = 0;
};

SourceScales sourceScales(const SimulationParameters& params, const InitialState& initial)
{
  SourceScales scales;
  for (std::size_t c = 0; c < initial.h.size(); ++c)
  {
    const double h = initial.h[c];
    if (!(h > kDryDepth))
      continue;
    scales.deepest = std::max(scales.deepest, h);
    scales.waveSpeed = std::max(scales.waveSpeed,
      std::max(std::abs(initial.hu[c]), std::abs(initial.hv[c])) / h +
        std::sqrt(params.gravity * h));
  }
  // (a level side's water counts as dt's floor does: LocalDatum)
  scales.waveSpeed = std::max(scales.waveSpeed, levelWaveSpeed(params, initial));
  if (params.rainPerCell && params.rainZones.empty() && !initial.rain.empty())
    scales.rainFactor = *std::max_element(initial.rain.begin(), initial.rain.end());
  scales.conductivity =
    params.infiltration.perCell && !initial.conductivity.empty()
      ? *std::max_element(initial.conductivity.begin(), initial.conductivity.end())
      : params.infiltration.conductivity;
  return scales;
}
} // namespace

std::string singlePrecisionSourceWarning(const SimulationParameters& params,
  const InitialState& initial,
  RankExchange* ranks)
{
  // (before the scan and the agreement: every rank has the same precision)
  if (params.precision != Precision::Single)
    return {};
  SourceScales scales = sourceScales(params, initial);
  if (ranks)
  {
    double values[4] = { scales.deepest, scales.waveSpeed, scales.rainFactor, scales.conductivity };
    ranks->maxOverRanks(values, 4);
    scales = { values[0], values[1], values[2], values[3] };
  }
  const double deepest = scales.deepest;
  // (the first adaptive step's dt, from the fastest wave, a level side's and the inflows', or
  // the fixed dt)
  const double speed = std::max(scales.waveSpeed, inflowWaveSpeed(params));
  const double dt = params.fixedDt > 0 ? params.fixedDt : (speed > 0 ? cflDx(params) / speed : 0.0);
  if (!(deepest > 0) || !(dt > 0))
    return {};
  struct Source
  {
    const char* what;
    double mmPerHour;
    bool inBalance; // (a constant loss rate is not in the water balance)
  };
  // (the second-order schemes round a step's rain at random: kept on average, not warned of)
  const double rain = isSecondOrder(params.scheme) ? 0.0 : peakRainfall(params) * scales.rainFactor;
  const Source sources[] = { { "rain", rain, true },
    { "losses", params.losses, false },
    { "Green-Ampt's conductivity", params.infiltration.on() ? scales.conductivity : 0.0, true } };
  std::ostringstream text;
  text.precision(2);
  bool counted = false; // (a source the water balance counts)
  for (const Source& source : sources)
  {
    const double perStep = source.mmPerHour / 3.6e6 * dt;
    if (!(perStep > 0) || deepest < depthRoundingBy(perStep, 0.1))
      continue;
    counted = counted || source.inBalance;
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
