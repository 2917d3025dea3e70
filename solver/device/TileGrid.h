#pragma once
// The tiles a run that skips dry land cuts its grid into (DryTiles.h).
#include "LaunchShape.h"
#include "Parameters.h"

#include <string>

namespace swe
{
// The tiles' cells (width x height) and their count along x and y; none where the run does not
// skip dry land.
struct TileGrid
{
  int width = 0, height = 0, countX = 0, countY = 0;
  bool on() const { return countX > 0; }
  int count() const { return countX * countY; }
};

// A sweep group's cells (GPU-shaped), or a work-item's rows cut into 64 columns (rowsN), where
// skipsDryLand(params); else none.
TileGrid dryTileGrid(const SimulationParameters& params, const LaunchShape& shape);
// The build options that say so to the kernels (-DSKIP_DRY=0 without tiles).
std::string dryTileOptions(const TileGrid& tiles);
} // namespace swe
