// The second-order steps (kernels/muscl_sweeps.cl on GPU-shaped launches, kernels/muscl_lanes.cl
// on rowsN): MUSCL-HLLC's two Heun stages, and MUSCL-Hancock's step in two passes, the
// second taking the step again with the outflow cap only where the first took a depth below zero.
// Both fill the ghosts and choose dt (compute_dt, which commits it) before each step, and fold the
// new state into the flood maps after it.
#include "Stepper.h"

#include <algorithm>
#include <string>

namespace swe
{
namespace
{
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
  // the sweeps' tiles that hold the cells this rank sends: a launch's offset and range each.
  void findHaloTiles()
  {
    haloTiles_.clear();
    const SimulationParameters& params = parts_.engine.params;
    // (the same on every rank, as each trades at the same steps)
    sendsHaloEarly_ = !parts_.shape.wholeRows && holdsDt(params) && parts_.state.sendsHaloEarly();
    if (!sendsHaloEarly_)
      return;
    const int groupX = parts_.shape.groupX, width = groupX - 4, rows = parts_.shape.rows;
    const int lastX = (params.nx - 1) / width, lastY = (params.ny - 1) / rows;
    // (a sent rectangle may hold ghost cells of the grid's sides: its tiles are those of the
    // cells next to them, whose values the ghosts take)
    const auto tile = [](int cell, int size, int last) { return std::clamp(cell / size, 0, last); };
    for (const CellRect& r : parts_.state.haloSent())
    {
      const int tx0 = tile(r.i0, width, lastX), tx1 = tile(r.i0 + r.nx - 1, width, lastX);
      const int ty0 = tile(r.j0, rows, lastY), ty1 = tile(r.j0 + r.ny - 1, rows, lastY);
      haloTiles_.push_back({ cl::NDRange(static_cast<std::size_t>(tx0) * groupX, ty0),
        cl::NDRange(static_cast<std::size_t>(tx1 - tx0 + 1) * groupX, ty1 - ty0 + 1) });
    }
  }

  // A step's launch that writes copy `written`. At an exchange interval's last step, where the
  // halo may go out early: the tiles that hold the halo first, its packing, then every tile
  // (those again too: a MUSCL-Hancock pass reads one copy and writes the other, so they give the
  // same bits), while the halo is traded.
  void launchStep(const cl::Kernel& kernel, int written)
  {
    if (!sendsHaloEarly_ || !clock_->stepEndsInterval())
    {
      launch(kernel);
      return;
    }
    for (const auto& [offset, range] : haloTiles_)
      parts_.engine.queue.enqueueNDRangeKernel(kernel, offset, range, launch_.local);
    parts_.state.sendHaloEarly(written);
    launch(kernel);
    clock_->readSpeedsEarly();
    parts_.state.completeHaloEarly();
  }

  bool sendsHaloEarly_ = false;
  std::vector<std::pair<cl::NDRange, cl::NDRange>> haloTiles_;

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
        state.tiles().args(p));
  }

  void enqueue(int n) override
  {
    for (int s = 0; s < n; ++s)
    {
      const bool exchanges = beginStep();
      parts_.state.fillGhosts(0, exchanges ? Halo::State : Halo::None);
      clock_->enqueueChooseDt(!exchanges);
      parts_.state.foldBoundaryInflow(0);
      launch(stage_[0]);
      // (Inside an exchange interval the overlap keeps the predictor right: overlapCells.)
      parts_.state.fillGhosts(1, holdsDt(parts_.engine.params) ? Halo::None : Halo::State);
      parts_.state.foldBoundaryInflow(1);
      launch(stage_[1]);
      parts_.state.afterStep(0);
    }
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
          state.tiles().args(p));
    findHaloTiles();
  }

  void enqueue(int n) override
  {
    int& parity = parts_.state.parity;
    for (int s = 0; s < n; ++s)
    {
      const bool exchanges = beginStep();
      parts_.state.fillGhosts(parity, exchanges ? Halo::State : Halo::None);
      clock_->enqueueChooseDt(!exchanges);
      // (A held dt takes every step in the capped pass alone: kernels/muscl_steps.h.)
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
