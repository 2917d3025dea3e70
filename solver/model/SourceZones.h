#pragma once
// Discharge by zone: a culvert's outfall, a river entering over a region, a storm-drain network's
// outlets. Each zone's discharge series [m^3/s] is spread evenly over the zone's cells, wet or
// dry, as point sources, one a cell, each taking the zone's series over the zone's cell count: the
// zone's water then comes in as point sources' does, counted in the water balance and taken by
// each rank of a split run in its own block.
#include "InitialState.h"
#include "Parameters.h"

#include <vector>

namespace swe
{
// Appends to params.sources the point sources of zones[z] over the cells whose zoneOfCell value
// is z (0 for the first series; a negative one, or a closed cell of initial: no zone). zoneOfCell
// has a value a cell of initial's grid, params's. Throws swe::Error naming the cell of a value
// that is no whole number or has no series, a zone without cells (its water would be lost) and a
// zone's bad series.
void addZoneSources(const std::vector<double>& zoneOfCell,
  const InitialState& initial,
  const std::vector<Series>& zones,
  SimulationParameters& params);
} // namespace swe
