#pragma once
// A filter's output times 0, OutputInterval, 2 OutputInterval, ... <= EndTime: the TIME_STEPS it
// reports, and the one a request for any time gets. EndTime and OutputInterval as checked by
// checkOutputTimes (PropertyParameters.h).
#include "Error.h"
#include "Parameters.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace swe
{
// k of the latest output time k * interval at or before t.
inline long outputIndex(double t, double interval)
{
  // (1e-9: an output time computed as k * interval maps back to k despite round-off)
  return static_cast<long>(std::floor(t / interval + 1e-9));
}

// The output time k (as Timeline::outputTime).
inline double outputTime(long k, double interval)
{
  return static_cast<double>(k) * interval;
}

// Every output time, in order.
inline std::vector<double> outputTimes(double endTime, double interval)
{
  std::vector<double> times(outputIndex(endTime, interval) + 1);
  for (std::size_t k = 0; k < times.size(); ++k)
    times[k] = outputTime(static_cast<long>(k), interval);
  return times;
}

// The last output time.
inline double lastOutputTime(double endTime, double interval)
{
  return outputTime(outputIndex(std::max(0.0, endTime), interval), interval);
}

// The output time a request for time t gets: the latest at or before t (t held within 0 and
// endTime), as a reader would answer. Throws swe::Error for a NaN (UpdatePipeline(nan)), which
// no time is at or before.
inline double requestedOutputTime(double t, double endTime, double interval)
{
  if (std::isnan(t))
    throw Error("the time requested is NaN (not a number): ask for a time in [0, " +
                formatValue(lastOutputTime(endTime, interval)) + "] s");
  const double held = std::min(std::max(t, 0.0), std::max(0.0, endTime));
  return outputTime(outputIndex(held, interval), interval);
}
} // namespace swe
