#include "DryTiles.h"

#include "TileGrid.h"

#include "GridLayout.h"

#include <algorithm>
#include <numeric>

namespace swe
{
namespace
{
constexpr cl_uchar kTileWet = 1, kTileForced = 2; // kernels/state/dry_tiles.h
constexpr int kLaneTileWidth = 64;                // a multiple of any MUSCL_LANES
constexpr int kStencilReach = 2;                  // the second-order steps' cells each side

// The tiles where water comes from outside a step: along a side that lets it in (an inflow, a
// level, a neighbour rank's halo), and those holding a point source.
std::vector<cl_uchar> forcedTiles(const SimulationParameters& params, const TileGrid& tiles)
{
  std::vector<cl_uchar> forced(static_cast<std::size_t>(tiles.count()), 0);
  const auto force = [&](int tx, int ty)
  { forced[static_cast<std::size_t>(ty) * tiles.countX + tx] = kTileForced; };
  // (a side inside the grid of a split run: its block's neighbour fills the halo there, whatever
  // the grid side's boundary is)
  const std::array<bool, 4> halo = params.haloSides();
  for (int side = 0; side < 4; ++side)
  {
    const BoundaryType type = params.boundaries[side].type;
    const bool letsIn = type == BoundaryType::Inflow || type == BoundaryType::FixedLevel;
    if (!halo[static_cast<std::size_t>(side)] && !letsIn)
      continue;
    const bool alongY = side < 2; // the west and east sides run along y
    const int n = alongY ? tiles.countY : tiles.countX;
    // A halo side's exchange writes its ghosts and, with an exchange interval, the overlap
    // behind them (overlapCells): every tile it reaches.
    const int reach = halo[static_cast<std::size_t>(side)] ? overlapCells(params) + kGhost : 1;
    const int size = alongY ? tiles.width : tiles.height;
    const int deep = std::min((reach + size - 1) / size, alongY ? tiles.countX : tiles.countY);
    for (int d = 0; d < deep; ++d)
    {
      const int at = side == 0   ? d
                     : side == 1 ? tiles.countX - 1 - d
                     : side == 2 ? d
                                 : tiles.countY - 1 - d;
      for (int k = 0; k < n; ++k)
        alongY ? force(at, k) : force(k, at);
    }
  }
  for (const PointSource& source : sourcesHere(params))
    force(
      gaugeCell(source.x, params.dx) / tiles.width, gaugeCell(source.y, params.dx) / tiles.height);
  return forced;
}
} // namespace

TileGrid dryTileGrid(const SimulationParameters& params, const LaunchShape& shape)
{
  TileGrid tiles;
  if (!skipsDryLand(params))
    return tiles;
  tiles.width = shape.wholeRows ? kLaneTileWidth : shape.groupX - 4; // (muscl_sweeps.cl)
  tiles.height = shape.rows;
  tiles.countX = (params.nx + tiles.width - 1) / tiles.width;
  tiles.countY = (params.ny + tiles.height - 1) / tiles.height;
  return tiles;
}

std::string dryTileOptions(const TileGrid& tiles)
{
  if (!tiles.on())
    return "-DSKIP_DRY=0 ";
  return "-DSKIP_DRY=1 -DTILE_W=" + std::to_string(tiles.width) +
         " -DTILE_H=" + std::to_string(tiles.height) +
         " -DTILES_X=" + std::to_string(tiles.countX) +
         " -DTILES_Y=" + std::to_string(tiles.countY) +
         " -DTILE_REACH=" + std::to_string(kStencilReach) + " ";
}

DryTiles::DryTiles(const EngineContext& engine, const TileGrid& tiles)
  : queue_(engine.queue)
  , tiles_(tiles)
{
  // (placeholders without skipping: the kernels take the arguments all the same)
  const std::size_t bytes = std::max(1, tiles.count());
  for (cl::Buffer& b : flags_)
    b = cl::Buffer(engine.context, CL_MEM_READ_WRITE, bytes);
  updated_ = cl::Buffer(engine.context, CL_MEM_READ_WRITE, bytes);
  if (!tiles.on())
    return;
  initial_ = forcedTiles(engine.params, tiles);
  for (cl_uchar& flag : initial_)
    flag |= kTileWet;
}

void DryTiles::reset()
{
  if (!tiles_.on())
    return;
  for (const cl::Buffer& b : flags_)
    queue_.enqueueWriteBuffer(b, CL_FALSE, 0, initial_.size(), initial_.data());
  queue_.enqueueFillBuffer(updated_, cl_uchar(1), 0, initial_.size());
}

double DryTiles::updatedShare() const
{
  if (!tiles_.on())
    return 1.0;
  std::vector<cl_uchar> updated(initial_.size());
  queue_.enqueueReadBuffer(updated_, CL_TRUE, 0, updated.size(), updated.data());
  const double count = std::accumulate(updated.begin(), updated.end(), 0.0);
  return count / static_cast<double>(updated.size());
}
} // namespace swe
