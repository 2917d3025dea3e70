#pragma once
// Private to the engine: skipping dry land (kernels/dry_tiles.h). The tiles of a run's launch
// shape, the flags the second-order step kernels keep for each tile and copy of the state, and
// the list of the tiles a step updates that the sweeps walk (kernels/tile_list.cl).
#include "DeviceProgram.h"
#include "OpenCL.h"

#include <tuple>
#include <vector>

namespace swe
{
class DryTiles
{
public:
  DryTiles(const EngineContext& engine, const TileGrid& tiles);

  // The step kernels' tile arguments, for a step that reads copy p and writes the other.
  auto args(int p) const { return std::tie(flags_[p], flags_[1 - p], updated_, list_); }
  // Where the tiles are listed, queues the list of those that a step reading copy p updates
  // (with the wave-speed partials the step publishes into: a tile left out has none).
  void list(int p, const cl::Buffer& speedPartials);
  // The groups a sweep's launch takes: one a tile, or where they walk the list, as many as the
  // device runs at once (the list's length is known on the device alone).
  int sweepGroups() const;
  bool listed() const { return tiles_.listed; }
  // The flags of copy p, for the passes over every cell after a step.
  const cl::Buffer& flags(int p) const { return flags_[p]; }
  // Every tile counted wet in both copies (the forced ones kept so): after the host wrote the
  // state, whose water the flags do not know yet. Queued, not waited for.
  void reset();
  // The share of the tiles the last step updated (1 without skipping). Waits for the device.
  double updatedShare() const;

private:
  std::size_t listBlocks() const;

  cl::CommandQueue& queue_;
  TileGrid tiles_;
  cl::Buffer flags_[2], updated_;
  cl::Buffer list_, blockCounts_; // the count, then the tiles; each list group's count
  cl::Kernel mark_, listed_;
  int computeUnits_ = 1;
  std::vector<cl_uchar> initial_; // TILE_WET, with TILE_FORCED where water comes from outside
};
} // namespace swe
