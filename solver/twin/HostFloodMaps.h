#pragma once
// The flood maps as the twin keeps them (ReferenceSolver): the arithmetic of
// kernels/state/flood_maps.h on the host, folded from the state after every step.
#include "SimulationTypes.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace swe
{
template<class Real>
class HostFloodMaps
{
public:
  HostFloodMaps(std::size_t cells, double dryDepth, double arrivalDepth)
    : dryDepth_(static_cast<Real>(dryDepth))
    , arrivalDepth_(static_cast<Real>(arrivalDepth))
  {
    for (std::vector<Real>& map : maps_)
      map.assign(cells, Real(0));
    maps_[kArrival].assign(cells, std::numeric_limits<Real>::quiet_NaN());
  }

  // Folds cell k's state at time t into the maps, with the dt of the step that brought it (0 at
  // t = 0).
  void fold(std::size_t k, Real h, Real hu, Real hv, Real t, Real dt)
  {
    if (!(h > dryDepth_))
      return;
    const Real speed = std::sqrt(hu * hu + hv * hv) / h;
    const Real hazard = h * (speed + Real(0.5));
    maps_[0][k] = std::max(maps_[0][k], h);
    maps_[1][k] = std::max(maps_[1][k], speed);
    maps_[2][k] = std::max(maps_[2][k], hazard);
    if (h >= arrivalDepth_)
    {
      if (std::isnan(maps_[kArrival][k]))
        maps_[kArrival][k] = t;
      maps_[4][k] = std::min(maps_[4][k] + dt, t);
    }
  }

  // Map `field` (Field::MaxDepth ... Field::Duration), cell after cell.
  const std::vector<Real>& map(Field field) const
  {
    return maps_[static_cast<std::size_t>(field) - static_cast<std::size_t>(Field::MaxDepth)];
  }

private:
  static constexpr std::size_t kArrival = 3;
  Real dryDepth_, arrivalDepth_;
  std::array<std::vector<Real>, 5> maps_;
};
} // namespace swe
