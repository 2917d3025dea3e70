// The second-order steps (kernels/schemes/muscl_sweeps.cl on GPU-shaped launches,
// kernels/schemes/muscl_lanes.cl on rowsN): MUSCL-HLLC's two Heun stages, and MUSCL-Hancock's step
// in two passes, the second taking the step again with the outflow cap only where the first took a
// depth below zero. Both fill the ghosts and choose dt (compute_dt, which commits it) before each
// step; the sweeps fold the state each step reads into the flood maps, the lanes leave it to a pass
// after the step (kernels/state/flood_maps.h), and each batch ends with the newest state's fold
// (afterBatch).
#include "Stepper.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace swe
{
namespace
{
// Launches of a sweep over some of its tiles, each an offset and a range: over the bands along
// the sides that hold every cell a rank sends (the west and east bands whole height, the south
// and north between them), and over the rest; each tile in one of them.
struct HaloTileLaunches
{
  std::vector<std::pair<cl::NDRange, cl::NDRange>> halo, rest;
};

HaloTileLaunches haloTileLaunches(const SimulationParameters& params,
  const LaunchShape& shape,
  const std::vector<CellRect>& sent)
{
  // Each sent rectangle goes to the band of the side it lies nearest, as deep as it reaches
  // from that side (in cells; one may hold ghost cells of the grid's sides). (Not only the halo
  // sides: an overlap may reach past a neighbour's block, so that a compute block spans the grid
  // and its halo lies inside.)
  std::array<int, 4> depth{};
  for (const CellRect& r : sent)
  {
    const std::array<int, 4> reach = {
      r.i0 + r.nx, params.nx - r.i0, r.j0 + r.ny, params.ny - r.j0
    };
    const auto nearest = std::min_element(reach.begin(), reach.end()) - reach.begin();
    depth[nearest] = std::max(depth[nearest], reach[nearest]);
  }
  // In tiles, ends exclusive: the west band [0, x0), the east [x1, tilesX), the south [0, y0)
  // and north [y1, tilesY) between them.
  const int width = shape.groupX - 4, rows = shape.rows;
  const int tilesX = (params.nx + width - 1) / width, tilesY = (params.ny + rows - 1) / rows;
  const auto from = [](int cells, int size, int tiles)
  { return std::min(tiles, (cells + size - 1) / size); };
  const auto to = [](int cells, int size, int tiles, int extent, int low)
  { return cells > 0 ? std::clamp(std::max(extent - cells, 0) / size, low, tiles) : tiles; };
  const int x0 = from(depth[0], width, tilesX), x1 = to(depth[1], width, tilesX, params.nx, x0);
  const int y0 = from(depth[2], rows, tilesY), y1 = to(depth[3], rows, tilesY, params.ny, y0);
  HaloTileLaunches launches;
  const std::size_t groupX = static_cast<std::size_t>(shape.groupX);
  const auto add = [&](auto& to, int tx0, int ty0, int tx1, int ty1)
  {
    if (tx1 > tx0 && ty1 > ty0)
      to.push_back({ cl::NDRange(tx0 * groupX, static_cast<std::size_t>(ty0)),
        cl::NDRange((tx1 - tx0) * groupX, static_cast<std::size_t>(ty1 - ty0)) });
  };
  add(launches.halo, 0, 0, x0, tilesY);
  add(launches.halo, x1, 0, tilesX, tilesY);
  add(launches.halo, x0, 0, x1, y0);
  add(launches.halo, x0, y1, x1, tilesY);
  add(launches.rest, x0, y0, x1, y1);
  return launches;
}

// What the two second-order steppers share: the sweep's launch and the arguments every
// second-order kernel takes.
class SecondOrderStepper : public Stepper
{
public:
  explicit SecondOrderStepper(const StepperParts& parts)
    : parts_(parts)
    , args_(parts.engine.params.precision)
  {
    const SimulationParameters& params = parts.engine.params;
    if (parts.shape.wholeRows)
    {
      launch_ = wholeRowsLaunch(params, parts.shape);
      return;
    }
    // A group updates groupX - 4 cells of each of its `rows` rows (its two items at either end
    // only supply neighbours).
    const int groupX = parts.shape.groupX, rows = parts.shape.rows;
    const std::uint64_t updatedX = static_cast<std::uint64_t>(groupX - 4);
    const std::uint64_t groupsX = (params.nx + updatedX - 1) / updatedX,
                        groupsY = (params.ny + rows - 1) / rows;
    launch_.global = cl::NDRange(groupsX * groupX, groupsY);
    launch_.local = cl::NDRange(groupX, 1);
    launch_.groups = static_cast<int>(groupsX * groupsY);
  }

  std::size_t speedPartials() const override
  {
    return static_cast<std::size_t>(std::max(parts_.engine.grid.speedGroups, launch_.groups));
  }

protected:
  // Counts a step in the exchange interval; at its first (every step without one), agrees on
  // the wave speeds with the halo that the step's ghost fill trades. Returns whether it is.
  bool beginStep()
  {
    const bool exchanges = clock_->nextStepExchanges();
    if (exchanges)
      clock_->agreeWithNextHalo();
    return exchanges;
  }

  void launch(const cl::Kernel& kernel)
  {
    parts_.engine.queue.enqueueNDRangeKernel(kernel, cl::NullRange, launch_.global, launch_.local);
  }

  // Where a split run's held dt lets a step's halo go out early (DeviceState::sendsHaloEarly),
  // the launches over the tiles that hold it and over the rest (haloTileLaunches).
  void findHaloTiles()
  {
    const SimulationParameters& params = parts_.engine.params;
    sendsHaloEarly_ = parts_.state.sendsHaloEarly(!parts_.shape.wholeRows && holdsDt(params));
    if (sendsHaloEarly_)
      tiles_ = haloTileLaunches(params, parts_.shape, parts_.state.haloSent());
  }

  // A step's launch that writes copy `written`. At an exchange interval's last step, where the
  // halo may go out early: the bands that hold it first, its packing, then the other tiles, while
  // the halo is traded. (Each tile once: MUSCL-HLLC's final stage averages in place.)
  void launchStep(const cl::Kernel& kernel, int written)
  {
    if (!sendsHaloEarly_ || !clock_->stepEndsInterval())
    {
      launch(kernel);
      return;
    }
    cl::CommandQueue& queue = parts_.engine.queue;
    for (const auto& [offset, range] : tiles_.halo)
      queue.enqueueNDRangeKernel(kernel, offset, range, launch_.local);
    parts_.state.sendHaloEarly(written);
    for (const auto& [offset, range] : tiles_.rest)
      queue.enqueueNDRangeKernel(kernel, offset, range, launch_.local);
    clock_->readSpeedsEarly();
    parts_.state.completeHaloEarly();
  }

  bool sendsHaloEarly_ = false;
  HaloTileLaunches tiles_;

  StepperParts parts_;
  KernelArgs args_;
  StepLaunch launch_;
  DeviceClock* clock_ = nullptr;
};

// MUSCL-HLLC: the state stays in copy 0, copy 1 holds the Heun predictor. Stage p reads copy p
// and writes the other; the final stage averages with copy 0 (the state).
class MusclHllcStepper final : public SecondOrderStepper
{
public:
  explicit MusclHllcStepper(const StepperParts& parts)
    : SecondOrderStepper(parts)
  {
    for (cl::Kernel& k : stage_)
      k =
        parts.engine.program.kernel(parts.shape.wholeRows ? "muscl_hllc_rows" : "muscl_hllc_stage");
  }

  void bind(DeviceClock& clock) override
  {
    clock_ = &clock;
    const DeviceState& state = parts_.state;
    for (int p = 0; p < 2; ++p)
      args_.bind(stage_[p],
        state.copy(p).args(),
        state.bed(),
        state.copy(0).args(),
        state.copy(1 - p).args(),
        stepInputs(parts_.engine.params, clock),
        static_cast<cl_int>(p),
        state.manningField(),
        state.tiles().args(p),
        state.mapArgs());
    findHaloTiles();
  }

  void enqueue(int n) override
  {
    for (int s = 0; s < n; ++s)
    {
      const bool exchanges = beginStep();
      clock_->enqueueStepStart(0, exchanges);
      parts_.state.foldBoundaryInflow(0);
      launch(stage_[0]);
      // (Inside an exchange interval the overlap keeps the predictor right: overlapCells.)
      parts_.state.fillGhosts(1, holdsDt(parts_.engine.params) ? Halo::None : Halo::State);
      parts_.state.foldBoundaryInflow(1);
      launchStep(stage_[1], 0);
      parts_.state.afterStep(0);
    }
    parts_.state.afterBatch(0);
  }

private:
  std::array<cl::Kernel, 2> stage_;
};

// MUSCL-Hancock: a step reads copy p and writes the other, in a launch of the first pass and one
// of the second, which does nothing unless the first took a depth below zero.
class MusclHancockStepper final : public SecondOrderStepper
{
public:
  explicit MusclHancockStepper(const StepperParts& parts)
    : SecondOrderStepper(parts)
  {
    const std::string name = parts.shape.wholeRows ? "muscl_hancock_rows" : "muscl_hancock_step";
    for (int p = 0; p < 2; ++p)
    {
      step_[p] = parts.engine.program.kernel(name.c_str());
      capped_[p] = parts.engine.program.kernel((name + "_capped").c_str());
    }
  }

  void bind(DeviceClock& clock) override
  {
    clock_ = &clock;
    const DeviceState& state = parts_.state;
    for (int p = 0; p < 2; ++p)
      for (cl::Kernel* k : { &step_[p], &capped_[p] })
        args_.bind(*k,
          state.copy(p).args(),
          state.bed(),
          state.copy(1 - p).args(),
          stepInputs(parts_.engine.params, clock),
          state.manningField(),
          state.tiles().args(p),
          state.mapArgs());
    findHaloTiles();
  }

  void enqueue(int n) override
  {
    int& parity = parts_.state.parity;
    for (int s = 0; s < n; ++s)
    {
      const bool exchanges = beginStep();
      clock_->enqueueStepStart(parity, exchanges);
      // (A held dt takes every step in the capped pass alone: kernels/schemes/muscl_steps.h.)
      if (!holdsDt(parts_.engine.params))
      {
        launch(step_[parity]);
        clock_->agreeOnRedo();
      }
      parts_.state.foldBoundaryInflow(parity);
      launchStep(capped_[parity], 1 - parity);
      parts_.state.afterStep(1 - parity);
      parity = 1 - parity;
    }
    parts_.state.afterBatch(parity);
  }

private:
  std::array<cl::Kernel, 2> step_, capped_;
};
} // namespace

std::unique_ptr<Stepper> makeMusclHllcStepper(const StepperParts& parts)
{
  return std::make_unique<MusclHllcStepper>(parts);
}

std::unique_ptr<Stepper> makeMusclHancockStepper(const StepperParts& parts)
{
  return std::make_unique<MusclHancockStepper>(parts);
}
} // namespace swe
