#include "StateBounds.h"

#include "Error.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

namespace swe
{
// Why the bounds are where they are:
//
// kMinPositiveTime: the device's clock computes, in the run's precision, the time left to its
// target and cuts the last step to it. Single precision's smallest normal number is 1.2e-38;
// OpenCL lets a device flush smaller ones to zero, and a step of length zero never lands (an end
// time of 1e-39 s ran for ever). Times from 1e-30 s (> 2^-100) up are multiples of 2^-123, so
// the time left between two of them is 0 or at least 2^-123 = 9.4e-38: a normal number. No
// flood's step comes near: a 1 mm cell under a flow of 1000 m/s steps about 1e-7 s.
//
// kMaxSimulatedTime: 1e9 s is 31.7 years, beyond any flood or season of floods a shallow-water
// model runs (catchments over decades are hydrological models' work). In double precision a
// time of 1e9 s is kept to 1.2e-7 s, finer than the shortest step the parameters allow
// (kMinFixedDt, 1e-6 s), so every step still moves the clock; in single precision to 64 s, which
// the clock's compensated sum carries. Far beyond, the clock no longer advances: 1e308 s is
// infinite in single precision, and past 1e16 s a step of a second adds nothing in double.
//
// kMaxFlowSpeed: the fastest floods, dam breaks and the tsunami of a 10 km deep ocean
// (sqrt(g h) = 313 m/s), stay well below 1000 m/s, and water itself carries no faster signal
// short of its speed of sound (1480 m/s), where the shallow-water equations stop describing it.
// A flow of 1e10 m/s is a unit slip, and only makes the steps 1e-10 s long.

void requireSimulatedTime(double t, const std::string& what)
{
  requireFinite(t, what);
  if (t < 0)
    throw Error(what + " must be >= 0 s, got " + formatValue(t));
  if (t > 0 && t < kMinPositiveTime)
    throw Error(what + " must be 0 or at least " + formatValue(kMinPositiveTime) + " s, got " +
                formatValue(t) + " s: steps that short underflow, and the clock never reaches it");
  if (t > kMaxSimulatedTime)
    throw Error(what + " must be at most " + formatValue(kMaxSimulatedTime) +
                " s (31.7 years), got " + formatValue(t) +
                " s: no flood runs that long, and far beyond the clock no longer advances");
}

void requireTargetAhead(double now, double target)
{
  requireSimulatedTime(target, "target time");
  if (target < now)
    throw Error("cannot advance backwards: the simulation is at t = " + formatValue(now) +
                " s, asked for t = " + formatValue(target) + " s");
}

void refuseStoppedClock(double now, double target)
{
  throw Error("the clock stopped at t = " + formatValue(now) + " s, short of the target " +
              formatValue(target) + " s, which the run's precision cannot step to: ask for " +
              "times in [" + formatValue(kMinPositiveTime) + ", " + formatValue(kMaxSimulatedTime) +
              "] s, or run in double precision");
}

void requireTimeSpan(double span, const std::string& what)
{
  requireFinite(span, what);
  if (!(span > 0))
    throw Error(what + " must be > 0 s, got " + formatValue(span));
  if (span < kMinPositiveTime)
    throw Error(what + " must be at least " + formatValue(kMinPositiveTime) + " s, got " +
                formatValue(span) +
                " s: steps that short underflow, and the clock never reaches "
                "the first output time");
}

void refuseFlowSpeed(double h, double hu, double hv, const std::string& where)
{
  const double q = std::max(std::fabs(hu), std::fabs(hv));
  throw Error("the flow " + where + " is " + formatValue(q / h) + " m/s (depth " + formatValue(h) +
              " m, momentum (" + formatValue(hu) + ", " + formatValue(hv) +
              ") m^2/s), faster than any flood: flows must be at most " +
              formatValue(kMaxFlowSpeed) + " m/s. Is the velocity in other units?");
}

void requireRestartClock(double time, double steps, const std::string& what)
{
  requireSimulatedTime(time, what + "'s SimulationTime");
  if (!(steps >= 0 && steps <= INT_MAX && steps == std::floor(steps)))
    throw Error(what + "'s Steps must be a whole number in [0, " + std::to_string(INT_MAX) +
                "], got " + formatValue(steps));
}

namespace
{
// Value k of a field of n values of type Real at data.
template<class Real>
double valueAt(const unsigned char* field, std::size_t k)
{
  Real value;
  std::memcpy(&value, field + k * sizeof(Real), sizeof(Real));
  return value;
}

template<class Real>
void requireStateValues(const Snapshot& s, const std::string& what)
{
  const std::size_t n = static_cast<std::size_t>(s.nx) * s.ny;
  const unsigned char* h = s.data.data();
  const unsigned char* hu = h + n * sizeof(Real);
  const unsigned char* hv = hu + n * sizeof(Real);
  double deepest = 0;
  for (std::size_t k = 0; k < n; ++k)
  {
    const double depth = valueAt<Real>(h, k), qx = valueAt<Real>(hu, k), qy = valueAt<Real>(hv, k);
    const auto cell = [&]
    { return "cell (" + std::to_string(k % s.nx) + ", " + std::to_string(k / s.nx) + ")"; };
    if (!(depth >= 0) || !std::isfinite(depth))
      throw Error(what + "'s depth must be a finite number >= 0 m, got " + formatValue(depth) +
                  " m at " + cell());
    if (!std::isfinite(qx) || !std::isfinite(qy))
      throw Error(what + "'s momentum must be finite, got (" + formatValue(qx) + ", " +
                  formatValue(qy) + ") m^2/s at " + cell());
    if (flowTooFast(depth, qx, qy))
      refuseFlowSpeed(depth, qx, qy, "in " + what + " at " + cell());
    deepest = std::max(deepest, depth);
  }
  // The speed the next dt is chosen from is one of this state's cells (before the sources of the
  // step that made it acted): at most the fastest flow plus the gravity wave of its deepest
  // water under the strongest gravity. (< 0: none, the dt comes from the state.)
  const double fastest = kMaxFlowSpeed + std::sqrt(kMaxGravity * deepest);
  if (std::isnan(s.waveSpeed) || s.waveSpeed > fastest)
    throw Error(what + "'s StepWaveSpeed must be a finite number of at most " +
                formatValue(fastest) + " m/s (flows of " + formatValue(kMaxFlowSpeed) +
                " m/s and waves on its deepest water), got " + formatValue(s.waveSpeed));
}
} // namespace

void requireRestartState(const Snapshot& s, const std::string& what)
{
  if (s.onDevice() || s.fields < kStateFields || s.data.size() < s.bytes())
    throw Error("the state of " + what + " is not on the host to be checked");
  if (s.realSize == sizeof(double))
    requireStateValues<double>(s, what);
  else
    requireStateValues<float>(s, what);
}
} // namespace swe
