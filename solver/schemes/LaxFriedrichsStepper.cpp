// The Lax-Friedrichs steps (kernels/schemes/lax_friedrichs.cl): one launch a step, or two steps a
// launch (temporal blocking, shapes ending in s2). Each launch reads copy p and writes the other;
// with the fused clock (DeviceFeatures) the step kernel's last group commits the step and chooses
// the next dt itself, else compute_dt runs before each step.
#include "Stepper.h"

namespace swe
{
namespace
{
class LaxFriedrichsStepper final : public Stepper
{
public:
  explicit LaxFriedrichsStepper(const StepperParts& parts)
    : parts_(parts)
    , twoSteps_(parts.shape.steps == 2)
  {
    const char* name = twoSteps_               ? "lax_friedrichs_two_steps"
                       : parts.shape.wholeRows ? "lax_friedrichs_rows"
                                               : "lax_friedrichs_step";
    for (cl::Kernel& k : update_)
      k = parts.engine.program.kernel(name);
    // GPU-shaped: COLUMNS x ROWS cells a work-item, as the fresh state's speeds are taken.
    const GridLaunch& grid = parts.engine.grid;
    if (parts.shape.wholeRows)
      launch_ = wholeRowsLaunch(parts.engine.params, parts.shape);
    else
      launch_ = { grid.speed, grid.local, grid.speedGroups };
  }

  std::size_t speedPartials() const override
  {
    return static_cast<std::size_t>(parts_.engine.grid.speedGroups);
  }

  void bind(DeviceClock& clock) override
  {
    clock_ = &clock;
    const SimulationParameters& params = parts_.engine.params;
    const DeviceState& state = parts_.state;
    const KernelArgs args(params.precision);
    for (int p = 0; p < 2; ++p)
    {
      args.bind(update_[p],
        state.copy(p).args(),
        state.copy(1 - p).args(),
        stepInputs(params, clock),
        state.manningField(),
        state.bed(),
        Real{ cflDx(params) },
        Real{ params.fixedDt },
        static_cast<cl_int>(launch_.groups));
      // The copy a two-step launch reads: it does nothing unless that copy holds the state.
      if (twoSteps_)
        update_[p].setArg(16, static_cast<cl_int>(p));
    }
  }

  void enqueue(int n) override
  {
    int& parity = parts_.state.parity;
    // (Two steps a launch: parity is the device's after the next read of the clock, as refused
    // launches skip one.)
    for (int s = 0; s < n; s += twoSteps_ ? 2 : 1)
    {
      // (The step writes the new state's ghosts on the grid's sides; the others come from the
      // neighbours, in a run split among ranks, traded before the next step with the wave-speed
      // maximum its dt needs: one round trip to the host.)
      const bool choosesDt = !twoSteps_ && !parts_.features.fusedClock;
      const bool exchanges = clock_->nextStepExchanges();
      if (choosesDt && exchanges)
        clock_->agreeWithNextHalo();
      parts_.state.exchangeHalo(parity, exchanges ? Halo::State : Halo::None);
      if (choosesDt)
        clock_->enqueueChooseDt(!exchanges);
      parts_.engine.queue.enqueueNDRangeKernel(
        update_[parity], cl::NullRange, launch_.global, launch_.local);
      // (With flood maps or the water balance: no fused clock, so the clock holds this step's
      // dt.)
      parts_.state.foldBoundaryInflow(parity);
      parity = 1 - parity;
      parts_.state.afterStep(parity);
    }
  }

  bool parityOnDevice() const override { return twoSteps_; }

private:
  StepperParts parts_;
  bool twoSteps_;
  StepLaunch launch_;
  std::array<cl::Kernel, 2> update_; // reads copy p, writes the other
  DeviceClock* clock_ = nullptr;
};
} // namespace

std::unique_ptr<Stepper> makeLaxFriedrichsStepper(const StepperParts& parts)
{
  return std::make_unique<LaxFriedrichsStepper>(parts);
}
} // namespace swe
