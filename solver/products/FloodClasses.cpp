#include "FloodClasses.h"

namespace swe
{
std::uint8_t hazardClass(double maxDepth, double maxHazard, double arrivalDepth)
{
  if (!(maxDepth >= arrivalDepth))
    return 0;
  return maxHazard < 0.75 ? 1 : maxHazard < 1.25 ? 2 : maxHazard < 2.0 ? 3 : 4;
}

template<class Real>
void floodClasses(const Real* maxDepth,
  const Real* maxHazard,
  std::int64_t n,
  double arrivalDepth,
  std::uint8_t* extent,
  std::uint8_t* hazard)
{
  // (compared in the maps' precision, as the kernels compare the depth with the arrival depth)
  const Real arrival = static_cast<Real>(arrivalDepth);
  for (std::int64_t c = 0; c < n; ++c)
  {
    if (extent)
      extent[c] = maxDepth[c] >= arrival ? kFlooded : kNotFlooded;
    if (hazard)
      hazard[c] = hazardClass(maxDepth[c], maxHazard[c], arrival);
  }
}

template void floodClasses(const float*,
  const float*,
  std::int64_t,
  double,
  std::uint8_t*,
  std::uint8_t*);
template void floodClasses(const double*,
  const double*,
  std::int64_t,
  double,
  std::uint8_t*,
  std::uint8_t*);
} // namespace swe
