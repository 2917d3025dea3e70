#include "StateDefines.h"

#include "FloodMaps.h"
#include "Gauges.h"
#include "InitialState.h"
#include "ProgramDefines.h"
#include "TileGrid.h"

#include <array>
#include <climits>
#include <cstdint>
#include <sstream>

namespace swe
{
namespace
{
// The boundary defines: each side's kind and value, a water level relative to the local datum
// as the device holds elevations.
std::string boundaryOptions(const SimulationParameters& params, double datum)
{
  std::ostringstream s;
  for (int side = 0; side < 4; ++side)
  {
    static const char* const suffix[4] = { "WEST", "EAST", "SOUTH", "NORTH" };
    const Boundary& b = params.boundaries[side];
    const double value = b.type == BoundaryType::FixedLevel ? b.value - datum : b.value;
    s << "-DBC_" << suffix[side] << "=" << static_cast<int>(b.type) << " -DBCV_" << suffix[side]
      << "=" << openclLiteral(value, params.precision) << " "
      << (b.series.empty() ? "" : std::string("-DBCS_") + suffix[side] + " ");
    if (b.onStretch())
    {
      const std::array<int, 2> stretch = blockStretchCells(params, side);
      s << "-DBCR_" << suffix[side] << " -DBCR_" << suffix[side] << "_FIRST=" << stretch[0]
        << " -DBCR_" << suffix[side] << "_END=" << stretch[1] << " ";
    }
  }
  return s.str();
}

// IMPOSED_SIDES and IMPOSED_SERIES (kernels/state/boundary.cl): the second-order schemes take an
// inflow side's discharge on its faces, so that it brings what it says; not on a side another rank
// fills.
std::string imposedOptions(const SimulationParameters& params, const std::array<bool, 4>& haloSides)
{
  if (!isSecondOrder(params.scheme))
    return "";
  int sides = 0, series = 0;
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = params.boundaries[static_cast<std::size_t>(side)];
    if (b.type != BoundaryType::Inflow || haloSides[static_cast<std::size_t>(side)])
      continue;
    sides |= 1 << side;
    series |= b.series.empty() ? 0 : 1 << side;
  }
  if (sides == 0)
    return "";
  return "-DIMPOSED_SIDES=" + std::to_string(sides) +
         " -DIMPOSED_SERIES=" + std::to_string(series) + " ";
}

// HALO_SIDES for fill_ghosts (kernels/state/boundary.cl), where a side's ghosts come from other
// ranks.
std::string haloOption(const std::array<bool, 4>& haloSides)
{
  int bits = 0;
  for (int side = 0; side < 4; ++side)
    bits |= haloSides[static_cast<std::size_t>(side)] ? 1 << side : 0;
  return bits ? "-DHALO_SIDES=" + std::to_string(bits) + " " : "";
}
} // namespace

std::string stateBuildOptions(const ProgramSettings& settings)
{
  const SimulationParameters& params = settings.params;
  const auto real = [&](double value) { return openclLiteral(value, params.precision); };
  // A cell's index plus a plane's offset passes 32 bits on the largest grids: there the offset is
  // a long, so that the sum is one (elsewhere an int, as every other index).
  const std::uint64_t cells = settings.layout.paddedCells();
  const std::string plane =
    std::to_string(cells) + (2 * cells > static_cast<std::uint64_t>(INT_MAX) ? "L" : "");
  std::ostringstream s;
  s << boundaryOptions(params, settings.local.datum) << imposedOptions(params, settings.haloSides)
    << haloOption(settings.haloSides)
    << (settings.perCellManning ? "-DMANNING_FIELD -DCLOSED_BED=" + real(kClosedBed) + " " : "")
    << (params.rainPerCell ? "-DRAIN_FIELD -DRAIN_PLANE=" + plane + " " : "")
    << (params.infiltration.perCell ? "-DGREEN_AMPT_FIELD -DSOIL_PLANE=" + plane + " " : "")
    << (params.waterBalance ? "-DWATER_BALANCE " : "")
    << dryTileOptions(dryTileGrid(params, settings.shape)) << "-DPASS_ROWS=" << kPassRows << " "
    << (stepsFoldFloodMaps(params, settings.shape)
           ? "-DSTEP_FOLDS_MAPS=1 -DARRIVAL_DEPTH=" + real(params.arrivalDepth) + " "
           : "")
    << "-DGAUGE_RING_STEPS=" << kGaugeRingSteps << " ";
  return s.str();
}
} // namespace swe
