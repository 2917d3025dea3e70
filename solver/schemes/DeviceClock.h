#pragma once
// The device clock (thesis seed 001). The simulated time, dt and the step count live on the device,
// in a control buffer of reals and a status buffer of integers whose slots
// kernels/schemes/clock_slots.h names for both sides; the kernels choose dt from the largest wave
// speed of the state (the speed partials, also here) and stop at the target time the host sets. The
// host reads the clock once per batch of launches, sizes the batches to about a tenth of a second,
// and turns a non-physical cell or a fixed dt past the Courant limit into an error that names the
// step, the time and the cell.
#include "DeviceProgram.h"
#include "DeviceState.h"
#include "OpenCL.h"
#include "Parameters.h"

#include <array>
#include <climits>
#include <cstdint>
#include <tuple>

namespace swe
{
// The Courant number times the cell size, as dt = cflDx / (fastest wave) takes it: the
// second-order schemes count theirs against half the Lax-Friedrichs step (MUSCL-HLLC keeps
// depths non-negative for dt <= dx / (4 max speed); Parameters.h).
double cflDx(const SimulationParameters& params);
// The same at the largest Courant number: a fixed dt whose step goes past it is refused.
double courantLimitDx(const SimulationParameters& params);

class DeviceClock
{
public:
  // speedPartials: the wave-speed partials compute_dt reads (where the maximum is not kept by
  // atomics), those of a fresh state and those of the steps. fusedClock: the steps keep the
  // clock themselves (DeviceFeatures), and compute_dt only chooses dt when a target is set.
  // speedFloor: the wave speed dt never counts below (waveSpeedFloor), as the kernels' own.
  DeviceClock(const EngineContext& engine,
    DeviceState& state,
    std::size_t speedPartials,
    bool fusedClock,
    double speedFloor);

  // The buffers every step kernel takes, in this order: the control slots, the status slots
  // and the wave-speed partials (KernelArgs).
  auto args() const { return std::tie(ctrl_, status_, partialMax_); }

  // The clock as last read (read(), restart()).
  double time = 0.0;
  double lastDt = 0.0; // the dt the wave speeds allowed for the last step, before landing cuts
  // Nothing moved when dt was last chosen: no wave speed, no inflow's, no fixed dt (every cell
  // dry), so only a target time gives a step its length (choose_dt).
  bool still = false;
  std::int64_t steps = 0;
  std::int64_t refused = 0; // two-step launches refused (adaptive dt)
  std::int64_t redone = 0;  // MUSCL-Hancock steps taken again with the outflow cap

  // The clock and the status for a state just loaded into copy 0: at time t after count steps,
  // the last dt dtBefore (a state taken at a target time has a zero clock compensation, so
  // writing its time back reproduces the device clock exactly); then the state's ghosts and its
  // wave speeds, from which the first dt is chosen. Waits for the device.
  // waveSpeed >= 0: the next dt's wave speed is that (Snapshot::waveSpeed), not the state's.
  void restart(double t, std::int64_t count, double dtBefore, double waveSpeed = -1);
  // The largest of the wave speeds the next dt will be chosen from (the partials the last step
  // or restart left). Waits for the device.
  double pendingWaveSpeed() const;
  // The time the clock must not pass and the step count it must not pass (INT_MAX: none); with
  // the fused clock, dt is chosen again for them (the pending step was chosen for the old ones
  // and not taken yet).
  void setTarget(double target, std::int64_t stepLimit = INT_MAX);
  // A target time no run reaches: steps without a target (step(n), benchmarks).
  double unboundedTarget() const;
  // Queues compute_dt: the step before commits, the next dt is chosen (in a run split among
  // ranks, from the grid's wave-speed maximum, agreed first).
  // held: the step keeps the dt of the exchange interval's first (holdsDt), agreeing on nothing.
  void enqueueChooseDt(bool held = false) const;
  // A second-order step's start: the ghosts of copy `copy` (then, where the step exchanges a
  // halo, the halo and the agreement on dt), then enqueueChooseDt(!exchanges); in one launch
  // where nothing comes between them (kernels/device/reductions.cl, fill_ghosts_choose_dt).
  void enqueueStepStart(int copy, bool exchanges) const;
  // Whether the next step is the first of an exchange interval (every step without one): it
  // trades the halo and chooses dt from the grid's wave speeds; the others hold that dt. Counts
  // the step.
  bool nextStepExchanges();
  // In a run split among ranks: the next halo exchange agrees on the wave-speed maximum too, in
  // the same round trip to the host, for an enqueueChooseDt right after it (RankCoupling).
  void agreeWithNextHalo() const;
  // Queues the read of the wave speeds that the next agreement takes, right after the launch
  // that publishes them (RankCoupling::readSpeedsEarly), where the halo went out early.
  void readSpeedsEarly() const
  {
    if (coupling_)
      coupling_->readSpeedsEarly(partialMax_, agreedPartials_);
  }
  // Whether the step last counted (nextStepExchanges) is its exchange interval's last.
  bool stepEndsInterval() const { return phase_ == 0; }
  // In a run split among ranks, between MUSCL-Hancock's passes: the step is taken again, capped,
  // on every rank if it is on any (as on one rank, where the whole grid takes it again); waits
  // for the device. Else nothing.
  void agreeOnRedo() const;
  // The other ranks, from here on (not owned; null: a run on one rank). speedAtomics: the steps
  // keep the maximum in the first partial alone (DeviceFeatures), so only it is agreed on.
  void couple(RankCoupling* coupling, bool speedAtomics)
  {
    coupling_ = coupling;
    agreedPartials_ = speedAtomics ? 1 : speedPartialCount_;
  }
  // Reads the clock and the status (the parity too, where the device keeps it); throws
  // swe::Error if a cell went non-physical or a fixed dt passed the Courant limit. Returns
  // whether the clock is on its target (then time is that target exactly, as the host gave it).
  bool read(bool parityOnDevice);

  // About as many steps as the last dt says are left to target (surplus launches are no-ops),
  // within the batch limit.
  int batchSteps(double target) const;
  // Keeps batches near a tenth of a second, so progress and aborts stay responsive: a batch of
  // n steps took seconds.
  void batchTook(int n, double seconds);

private:
  // buffer[slot] = value, in the run's precision.
  void writeReal(const cl::Buffer& buffer, std::size_t slot, double value);
  [[noreturn]] void reportTooLongStep(std::int64_t step, double speed, double heldSpeed) const;
  [[noreturn]] void reportBlowUp(int cell, int step) const;

  cl::CommandQueue& queue_;
  const SimulationParameters& params_;
  const GridLaunch& grid_;
  DeviceState& state_;
  std::size_t speedPartialCount_;
  bool fusedClock_;
  double speedFloor_;
  double target_ = 0.0; // the time the clock must not pass (setTarget; a loaded state's own)
  int batchLimit_ = 64;
  cl::Buffer ctrl_, status_, partialMax_;
  std::array<cl::Kernel, 2> computeDt_; // choosing dt, holding it
  int phase_ = 0;                       // steps queued since the exchange interval's first
  std::array<cl::Kernel, 2> waveSpeed_; // a fresh state's speeds, one per copy
  // The ghosts and compute_dt in one launch, by copy, then choosing dt or holding it (not with
  // the fused clock).
  std::array<std::array<cl::Kernel, 2>, 2> ghostsAndDt_;
  cl::NDRange ghostsRange_;
  RankCoupling* coupling_ = nullptr;
  std::size_t agreedPartials_ = 0; // the partials a split run agrees on
};
} // namespace swe
