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
// Makes params.sourceZones (checked first, validateSources) point sources: those of zone z over the
// cells whose zoneOfCell value is z (0 for the first series; a negative one, or a closed cell of
// initial: no zone), appended to params.sources; params.sourceZones is emptied. zoneOfCell has a
// value a cell of initial's grid, params's. Throws swe::Error naming the cell of a value that is
// no whole number or has no series, and a zone without cells (its water would be lost).
void addZoneSources(const std::vector<double>& zoneOfCell,
  const InitialState& initial,
  SimulationParameters& params);
} // namespace swe
