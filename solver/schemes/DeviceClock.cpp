#include "DeviceClock.h"

#include "Error.h"
#include "KernelArgs.h"
#include "clock_slots.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace swe
{
namespace
{
double courantDx(const SimulationParameters& params, double courant)
{
  return courant * params.dx * (isSecondOrder(params.scheme) ? 0.5 : 1.0);
}
} // namespace

double cflDx(const SimulationParameters& params)
{
  return courantDx(params, params.cfl);
}

double courantLimitDx(const SimulationParameters& params)
{
  return courantDx(params, kMaxCourantNumber);
}

DeviceClock::DeviceClock(const EngineContext& engine,
  DeviceState& state,
  std::size_t speedPartials,
  bool fusedClock,
  double speedFloor)
  : queue_(engine.queue)
  , params_(engine.params)
  , grid_(engine.grid)
  , state_(state)
  , speedPartialCount_(speedPartials)
  , fusedClock_(fusedClock)
  , speedFloor_(speedFloor)
{
  const cl::Context& context = engine.context;
  const std::size_t realSize = state.layout().realSize;
  ctrl_ = cl::Buffer(context, CL_MEM_READ_WRITE, (CTRL_SIZE + RAIN_ZONE_SLOTS) * realSize);
  status_ = cl::Buffer(context, CL_MEM_READ_WRITE, STATUS_SIZE * sizeof(cl_int));
  partialMax_ = cl::Buffer(context,
    CL_MEM_READ_WRITE,
    std::max(static_cast<std::size_t>(grid_.groups), speedPartials) * realSize);
  const KernelArgs args(params_.precision);
  for (int held = 0; held < 2; ++held)
  {
    computeDt_[held] = engine.program.kernel("compute_dt");
    args.bind(computeDt_[held],
      partialMax_,
      static_cast<cl_int>(speedPartials),
      ctrl_,
      status_,
      Real{ cflDx(params_) },
      Real{ params_.fixedDt },
      static_cast<cl_int>(fusedClock ? 0 : 1),
      static_cast<cl_int>(held));
  }
  for (int p = 0; p < 2; ++p)
  {
    waveSpeed_[p] = engine.program.kernel("wave_speed_partials");
    args.bind(waveSpeed_[p], state.copy(p).args(), partialMax_);
  }
  if (fusedClock)
    return;
  const std::size_t reduce = grid_.reduce[0];
  ghostsRange_ = cl::NDRange((state.layout().ghostCells() + reduce - 1) / reduce * reduce);
  for (int p = 0; p < 2; ++p)
    for (int held = 0; held < 2; ++held)
    {
      cl::Kernel& k = ghostsAndDt_[p][held];
      k = engine.program.kernel("fill_ghosts_choose_dt");
      args.bind(k,
        state.copy(p).args(),
        state.bed(),
        ctrl_,
        partialMax_,
        static_cast<cl_int>(speedPartials),
        status_,
        Real{ cflDx(params_) },
        Real{ params_.fixedDt },
        static_cast<cl_int>(held));
    }
}

void DeviceClock::writeReal(const cl::Buffer& buffer, std::size_t slot, double value)
{
  if (params_.precision == Precision::Double)
  {
    const cl_double v = value;
    queue_.enqueueWriteBuffer(buffer, CL_TRUE, slot * sizeof(v), sizeof(v), &v);
  }
  else
  {
    const cl_float v = static_cast<cl_float>(value);
    queue_.enqueueWriteBuffer(buffer, CL_TRUE, slot * sizeof(v), sizeof(v), &v);
  }
}

void DeviceClock::restart(double t, std::int64_t count, double dtBefore, double waveSpeed)
{
  // Every slot not named here starts at zero.
  double clock[CTRL_SIZE] = {};
  clock[CTRL_TIME] = t;
  clock[CTRL_TARGET] = t;
  clock[CTRL_LAST_DT] = dtBefore;
  for (std::size_t slot = 0; slot < CTRL_SIZE; ++slot)
    writeReal(ctrl_, slot, clock[slot]);
  // (the rain zones' rates, which choose_dt sets before each step takes them)
  const std::size_t realSize = state_.layout().realSize;
  queue_.enqueueFillBuffer(ctrl_, cl_uchar(0), CTRL_SIZE * realSize, RAIN_ZONE_SLOTS * realSize);
  cl_int statusInit[STATUS_SIZE] = {};
  statusInit[STATUS_STEPS] = static_cast<cl_int>(count);
  statusInit[STATUS_BAD_CELL] = INT_MAX; // none
  statusInit[STATUS_BAD_STEP] = -1;
  statusInit[STATUS_BAD_MID] = INT_MAX;
  statusInit[STATUS_STEP_LIMIT] = INT_MAX;
  statusInit[STATUS_TOO_FAST] = -1;
  queue_.enqueueWriteBuffer(status_, CL_TRUE, 0, sizeof(statusInit), statusInit);
  time = t;
  target_ = t;
  steps = count;
  refused = 0;
  redone = 0;
  lastDt = dtBefore;
  state_.parity = 0;
  phase_ = 0;
  // The first step's dt needs the wave speeds of the state; later steps get them from the step
  // kernels, fused. Lax-Friedrichs steps write the next state's ghosts themselves; the first
  // needs these.
  state_.fillGhosts(state_.parity, Halo::StateAndBed);
  // The maxima start from zero (compute_dt resets them after reading).
  queue_.enqueueFillBuffer(
    partialMax_, cl_uchar(0), 0, speedPartialCount_ * state_.layout().realSize);
  if (waveSpeed >= 0)
    writeReal(partialMax_, 0, waveSpeed);
  else
    queue_.enqueueNDRangeKernel(waveSpeed_[state_.parity], cl::NullRange, grid_.speed, grid_.local);
  queue_.finish();
}

double DeviceClock::pendingWaveSpeed() const
{
  const std::vector<double> partials =
    readReals(queue_, partialMax_, speedPartialCount_, params_.precision);
  double largest = 0;
  for (double p : partials)
    largest = std::fmax(largest, p);
  return largest;
}

void DeviceClock::setTarget(double target, std::int64_t stepLimit)
{
  target_ = target;
  const cl_int limit = static_cast<cl_int>(std::min<std::int64_t>(stepLimit, INT_MAX));
  queue_.enqueueWriteBuffer(
    status_, CL_TRUE, STATUS_STEP_LIMIT * sizeof(cl_int), sizeof(limit), &limit);
  writeReal(ctrl_, CTRL_TARGET, target);
  if (fusedClock_)
    enqueueChooseDt();
}

double DeviceClock::unboundedTarget() const
{
  return params_.precision == Precision::Double ? std::numeric_limits<double>::max()
                                                : std::numeric_limits<float>::max();
}

void DeviceClock::enqueueChooseDt(bool held) const
{
  if (coupling_ && !held)
    coupling_->agreeOnMaximum(partialMax_, agreedPartials_);
  queue_.enqueueNDRangeKernel(computeDt_[held ? 1 : 0], cl::NullRange, grid_.reduce, grid_.reduce);
}

void DeviceClock::enqueueStepStart(int copy, bool exchanges) const
{
  if (coupling_ && exchanges)
  {
    state_.fillGhosts(copy, Halo::State);
    enqueueChooseDt(false);
    return;
  }
  queue_.enqueueNDRangeKernel(
    ghostsAndDt_[copy][exchanges ? 0 : 1], cl::NullRange, ghostsRange_, grid_.reduce);
}

bool DeviceClock::nextStepExchanges()
{
  const bool first = phase_ == 0;
  phase_ = (phase_ + 1) % params_.exchangeInterval;
  return first;
}

void DeviceClock::agreeWithNextHalo() const
{
  if (coupling_)
    coupling_->agreeWithNextHalo(partialMax_, agreedPartials_);
}

bool DeviceClock::read(bool parityOnDevice)
{
  const std::vector<double> c = readReals(queue_, ctrl_, CTRL_SIZE, params_.precision);
  cl_int st[STATUS_SIZE];
  queue_.enqueueReadBuffer(status_, CL_TRUE, 0, sizeof(st), st);
  steps = st[STATUS_STEPS];
  refused = st[STATUS_REFUSED];
  redone = st[STATUS_REDONE];
  if (parityOnDevice)
    state_.parity = st[STATUS_PARITY];
  if (c[CTRL_LAST_DT] > 0)
    lastDt = c[CTRL_LAST_DT];
  still = !(params_.fixedDt > 0) && !(std::fmax(c[CTRL_MAX_SPEED], speedFloor_) > 0);
  const bool landed = c[CTRL_TIME] == c[CTRL_TARGET] && c[CTRL_TARGET] > 0;
  // (An exchange interval starts again after a landing: its steps are the same on every rank
  // count, whatever the batches.)
  if (landed)
    phase_ = 0;
  time = landed ? target_ : c[CTRL_TIME] - c[CTRL_TIME_COMP];
  // (In a split run every rank fails if one does, with that rank's message.)
  runAgreed(coupling_ ? &coupling_->ranks() : nullptr,
    [&]
    {
      // The step is recorded by the next step's dt; none followed the batch's last step.
      if (st[STATUS_BAD_CELL] != INT_MAX)
        reportBlowUp(st[STATUS_BAD_CELL], st[STATUS_BAD_STEP] >= 0 ? st[STATUS_BAD_STEP] : steps);
      if (st[STATUS_TOO_FAST] >= 0)
        reportTooLongStep(st[STATUS_TOO_FAST] + 1, c[CTRL_TOO_FAST], c[CTRL_MAX_SPEED]);
    });
  return landed;
}

void DeviceClock::agreeOnRedo() const
{
  if (!coupling_)
    return;
  coupling_->timeAgreement(
    [&]
    {
      coupling_->waitForQueue();
      cl_int st[STATUS_SIZE];
      queue_.enqueueReadBuffer(status_, CL_TRUE, 0, sizeof(st), st);
      const bool redo = st[STATUS_REDO] != 0;
      if (coupling_->ranks().allAgree(!redo) || redo)
        return;
      // Another rank takes the step again: here too, as finish_hancock_pass
      // (kernels/schemes/muscl_steps.h) would have set it up (the first pass's maximum and bad
      // cells void, one more step redone).
      st[STATUS_REDO] = 1;
      st[STATUS_BAD_CELL] = INT_MAX;
      st[STATUS_REDONE] += 1;
      // (The capped pass, next on the in-order queue, sees both.)
      queue_.enqueueWriteBuffer(status_, CL_TRUE, 0, sizeof(st), st);
      queue_.enqueueFillBuffer(partialMax_, cl_uchar(0), 0, state_.layout().realSize);
    });
}

int DeviceClock::batchSteps(double target) const
{
  int n = 8;
  if (lastDt > 0)
    n = static_cast<int>(std::min<double>(batchLimit_, std::ceil((target - time) / lastDt)));
  return std::max(1, std::min(n, batchLimit_));
}

void DeviceClock::batchTook(int n, double seconds)
{
  if (seconds < 0.05 && n == batchLimit_)
    batchLimit_ = std::min(batchLimit_ * 2, 1 << 16);
  else if (seconds > 0.2)
    batchLimit_ = std::max(batchLimit_ / 2, 1);
}

// A fixed dt that would have taken step `step` past the Courant limit at wave speed `speed`:
// the run stopped before it (choose_dt).
void DeviceClock::reportTooLongStep(std::int64_t step, double speed, double heldSpeed) const
{
  const double factor = isSecondOrder(params_.scheme) ? 2.0 : 1.0;
  if (params_.fixedDt <= 0)
  {
    const double dt = cflDx(params_) / std::max(heldSpeed, speedFloor_);
    std::ostringstream s;
    s << "the waves outgrew the time step held over the exchange interval at step " << step
      << " (t = " << formatValue(time) << " s): dt = " << formatValue(dt)
      << " s was chosen at the interval's first step for waves of " << formatValue(heldSpeed)
      << " m/s, and the fastest reached " << formatValue(speed) << " m/s, a Courant number of "
      << formatValue(factor * dt * speed / params_.dx) << ", above "
      << formatValue(kMaxCourantNumber) << ". Lower the exchange interval (now "
      << params_.exchangeInterval << "; 1 chooses dt every step) or the Courant number (now "
      << formatValue(params_.cfl) << ").";
    throw Error(s.str());
  }
  const double courant = factor * params_.fixedDt * speed / params_.dx;
  const double safeDt = 0.5 * params_.dx / (factor * speed);
  std::ostringstream s;
  s << "the fixed time step dt = " << formatValue(params_.fixedDt) << " s is too long at step "
    << step << " (t = " << formatValue(time) << " s): the fastest wave, " << formatValue(speed)
    << " m/s, on " << formatValue(params_.dx) << " m cells gives a Courant number of "
    << formatValue(courant) << ", above " << formatValue(kMaxCourantNumber) << ", the most "
    << schemeName(params_.scheme) << " takes (C = " << (factor == 2.0 ? "2 " : "")
    << "dt max(|u| + c, |v| + c) / dx). Use dt <= " << formatValue(safeDt)
    << " s (C = 0.5 at this speed), or 0 for the CFL-adaptive time step.";
  throw Error(s.str());
}

void DeviceClock::reportBlowUp(int cell, int step) const
{
  const int i = cell % params_.nx, j = cell / params_.nx;
  const std::array<double, 3> values = state_.cellValues(i, j);
  // (The cell in the whole grid's indices, where the grid is split among ranks.)
  std::ostringstream s;
  s << "the simulation blew up at step " << step << " (t = " << time << " s): cell ("
    << params_.blockX0 + i << ", " << params_.blockY0 + j << ") has depth " << values[0]
    << " m, momentum (" << values[1] << ", " << values[2] << ") m^2/s. ";
  // A fixed dt past the Courant limit stops before its step (reportTooLongStep), so only an
  // adaptive dt above 0.5 is a likely cause of its own; otherwise the inputs are.
  if (params_.fixedDt <= 0 && params_.cfl > 0.5)
    s << "Lower the Courant number (now " << params_.cfl << "; 0.5 or less is safe).";
  else
    s << "Every step kept within the Courant limit ("
      << (params_.fixedDt > 0 ? "fixed dt " + formatValue(params_.fixedDt) + " s"
                              : "C = " + formatValue(params_.cfl))
      << "), so look at the inputs near that cell: its depth, velocity, bed and Manning "
         "coefficient, and the boundary values beside it.";
  throw Error(s.str());
}
} // namespace swe
