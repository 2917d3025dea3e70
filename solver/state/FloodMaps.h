#pragma once
// The flood maps (kernels/state/flood_maps.h), per cell the largest depth, speed and hazard the run
// has seen, the first time the depth reached SimulationParameters::arrivalDepth (NaN until then)
// and the time spent at or above it. They are part of the state: folded in on the device from every
// state a step writes, read and restored with it (snapshots, frames), laid out as the state's
// fields are.
#include "DeviceProgram.h"
#include "GridLayout.h"
#include "OpenCL.h"

#include <array>
#include <tuple>

namespace swe
{
// The maps in the order the state's fields carry them after h, hu, hv (Field::MaxDepth on).
constexpr int kFloodMapCount = 5;

// The passes over every cell after a step (the maps' fold, the infiltration): a work-item takes
// kPassRows cells of a column (kernels/device/grid.h's PASS_ROWS), whose depths it loads together.
// One cell an item waits on each load in turn, even on dry cells (see PERFORMANCE.md, 'Decisions
// that stand').
constexpr int kPassRows = 8;
// Their launch over the grid of layout, in groups of kPassGroupX x 1.
constexpr int kPassGroupX = 64;
cl::NDRange cellPassRange(const GridLayout& layout);

// Whether the steps fold the maps of the state they read (kernels/state/flood_maps.h): the
// GPU-shaped second-order sweeps, where the run keeps maps. Else a pass folds each step's new
// state.
bool stepsFoldFloodMaps(const SimulationParameters& params, const LaunchShape& shape);

class FloodMaps
{
public:
  // Allocates the maps, which reset() then fills.
  FloodMaps(const EngineContext& engine, const GridLayout& layout);

  // The fold kernels of the state's two copies (h, hu, hv of each) and the clock's control
  // buffer, where they find the time and the step's dt. Once, before the first fold.
  // With them, each copy's tile flags (DryTiles::flags), which leave dry land out.
  void bind(const std::array<std::array<const cl::Buffer*, 3>, 2>& copies,
    const cl::Buffer& ctrl,
    const std::array<const cl::Buffer*, 2>& tiles);
  // Nothing seen yet: maxima 0, arrival NaN, duration 0. Queued.
  void reset();
  // Queues the fold of copy p's state at the clock's time: a state a step has just written, with
  // the step's dt (the clock has committed it), or the state at t = 0, with none.
  void fold(int p, bool step) const;
  // Where the steps fold the maps: queues the fold of copy p's state, the newest, which no step
  // has read yet, and sets its dt to zero, so that the next step's fold of it changes nothing.
  // Before the maps are read or kept (the end of each batch of steps).
  void settle(int p) const;

  const cl::Buffer& map(int k) const { return maps_[k]; }
  // The maps as the steps' kernel arguments (kernels/state/flood_maps.h's MAP_ARGUMENTS).
  auto args() const { return std::tie(maps_[0], maps_[1], maps_[2], maps_[3], maps_[4]); }

private:
  cl::CommandQueue& queue_;
  GridLayout layout_;
  Precision precision_;
  double arrivalDepth_;
  const cl::Buffer* ctrl_ = nullptr;
  std::array<cl::Buffer, kFloodMapCount> maps_;
  std::array<std::array<cl::Kernel, 2>, 2> fold_; // [copy][step]
  cl::NDRange global_, local_;
};
} // namespace swe
