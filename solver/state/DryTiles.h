#pragma once
// Skipping dry land (kernels/state/dry_tiles.h). The tiles of a run's launch shape, and the flags
// the second-order step kernels keep for each tile and copy of the state.
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
  auto args(int p) const { return std::tie(flags_[p], flags_[1 - p], updated_); }
  // The flags of copy p, for the passes over every cell after a step.
  const cl::Buffer& flags(int p) const { return flags_[p]; }
  // Every tile counted wet in both copies (the forced ones kept so): after the host wrote the
  // state, whose water the flags do not know yet. Queued, not waited for.
  void reset();
  // The share of the tiles the last step updated (1 without skipping). Waits for the device.
  double updatedShare() const;

private:
  cl::CommandQueue& queue_;
  TileGrid tiles_;
  cl::Buffer flags_[2], updated_;
  std::vector<cl_uchar> initial_; // TILE_WET, with TILE_FORCED where water comes from outside
};
} // namespace swe
