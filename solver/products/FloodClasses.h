#pragma once
// What the flood maps say at a glance: whether a cell flooded, and its hazard class, one byte a
// cell each, for maps read without a colour scale to tune (ParaView's FloodExtent and
// HazardClass arrays).
#include <cstdint>

namespace swe
{
// A cell flooded once its largest depth reached the arrival depth (as its ArrivalTime says).
constexpr std::uint8_t kNotFlooded = 0;
constexpr std::uint8_t kFlooded = 1;
constexpr const char* kFloodExtentNames[2] = { "Not flooded", "Flooded" };

// The hazard classes of Defra/Environment Agency FD2320 (Flood Risks to People) for the rating
// h (v + 0.5) without a debris factor, the flood maps' MaxHazard, after class 0 for a cell never
// flooded: below 0.75 low, to 1.25 danger for some, to 2.0 danger for most, then for all.
constexpr int kHazardClassCount = 5;
constexpr const char* kHazardClassNames[kHazardClassCount] = { "Not flooded",
  "Low (below 0.75)",
  "Danger for some (0.75 to 1.25)",
  "Danger for most (1.25 to 2)",
  "Danger for all (2 and above)" };

std::uint8_t hazardClass(double maxDepth, double maxHazard, double arrivalDepth);

// Fills extent (kNotFlooded or kFlooded) and hazard (a class) for n cells from their largest
// depths and hazards; either output may be null.
template<class Real>
void floodClasses(const Real* maxDepth,
  const Real* maxHazard,
  std::int64_t n,
  double arrivalDepth,
  std::uint8_t* extent,
  std::uint8_t* hazard);
} // namespace swe
