// The facade over the engine's parts (docs/ARCHITECTURE.md, "The engine's parts"): it makes them
// in order, keeps a started advance, and turns OpenCL failures into swe::Error.
#include "Simulation.h"

#include "DeviceClock.h"
#include "DeviceContext.h"
#include "DeviceLimits.h"
#include "DeviceProgram.h"
#include "DeviceState.h"
#include "Error.h"
#include "FrameTransfer.h"
#include "RunSettings.h"
#include "HugePages.h"
#include "LocalDatum.h"
#include "OpenCL.h"
#include "ProgramOptions.h"
#include "RankCoupling.h"
#include "StateDiagnostics.h"
#include "Stepper.h"
#include "Seconds.h"
#include "StateBounds.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace swe
{
struct DeviceSnapshotMemory
{
  cl::Buffer buffer; // h, hu, hv packed, as Snapshot::data would hold them, then lowParts
};

// The parts, made in this order (each takes those before it), and the state of the facade.
struct Simulation::Impl
{
  SimulationParameters params;
  SimulationParameters ownedParams; // params of the cells this rank owns (parameters())
  DeviceInfo info;
  LaunchShape shape;
  bool perCellManning = false;
  LocalDatum local; // elevations on the device are relative to local.datum (LocalDatum.h)
  GridLayout layout;
  SetupSeconds setup;
  std::optional<Partition> partition;           // a run split among ranks: this rank's block
  std::shared_ptr<DeviceContext> sharedContext; // the context other simulations share, or none
  cl::Context context;
  cl::CommandQueue queue;
  DeviceFeatures features;
  std::optional<DeviceProgram> program;
  GridLaunch grid;
  std::optional<DeviceState> state;
  std::unique_ptr<Stepper> stepper;
  std::optional<DeviceClock> clock;
  std::optional<StateDiagnostics> diagnostics;
  std::optional<FrameTransfer> frames;
  std::optional<RankCoupling> coupling; // a run split among ranks
  RankExchange* ranks = nullptr;        // the same, or none
  // An advance started (startAdvance) and not yet waited for: the clock's time, steps and the
  // parity are those before it until settle() reads the clock.
  bool advancing = false;

  // Queued work (an advance not waited for) may read host memory the parts own, such as a split
  // run's halo staging: it ends before they go. (A lost device leaves nothing to wait for.)
  ~Impl()
  {
    try
    {
      if (queue())
        queue.finish();
    }
    catch (...)
    {
    }
  }

  Impl(const SimulationPlan& plan, const InitialState& owned)
    : Impl(plan, owned, computeBlockState(plan, owned))
  {
  }

  // initial: the state of the block owned, or extended, that of the compute block.
  Impl(const SimulationPlan& plan,
    const InitialState& owned,
    const std::optional<InitialState>& extended)
    : params(plan.params)
    , ownedParams(ownedParameters(plan.params))
    , info(plan.device)
    , shape(plan.shape)
    , perCellManning((extended ? *extended : owned).perCellManning())
    , layout(GridLayout::of(plan.params))
    , setup(plan.seconds)
    , partition(plan.partition)
    , sharedContext(plan.sharedContext)
    , ranks(plan.partition && plan.partition->ranks() > 1 ? plan.ranks : nullptr)
  {
    const InitialState& initial = extended ? *extended : owned;
    auto start = Clock::now();
    // (A split run agrees on each rank's errors before each collective part, so that no rank
    // waits for one that gave up.)
    runAgreed(ranks, [&] { checkInitialStateFits(plan, initial); });
    local = localDatum(params, initial, ranks);
    setup.checks = secondsSince(start);
    start = Clock::now();
    runAgreed(ranks, [&] { guarded("setting up the OpenCL device", [&] { build(); }); });
    setup.build = secondsSince(start);
    start = Clock::now();
    guarded("setting up the OpenCL device", [&] { makeParts(initial); });
    setup.upload = secondsSince(start);
  }

  // The context, the queue and the program.
  void build()
  {
    const cl::Device device = openclDevices().at(static_cast<std::size_t>(info.index));
    // A split run agrees on the grid's wave-speed maximum before every dt (RankCoupling), and
    // a held dt is chosen by the host's exchange interval, so the clock is the host's between
    // steps: no fused clock, one step a launch.
    const bool hostClock = ranks || holdsDt(params);
    if (hostClock)
      shape.steps = 1;
    const std::array<bool, 4> haloSides = params.haloSides();
    // The flood maps are folded in, the gauges sampled and the sides' water summed after every
    // step, the maps and the sides with its dt: a two-step launch would hide its first, and the
    // fused clock holds the next step's dt by then.
    if (params.floodMaps || !params.gauges.empty() || params.waterBalance)
      shape.steps = 1;
    features = deviceFeatures(device, params, info, shape);
    if (hostClock || params.floodMaps || params.waterBalance)
      features.fusedClock = false;
    context = sharedContext ? sharedContext->context : cl::Context(device);
    queue = cl::CommandQueue(context, device);
    const ProgramSettings settings{
      params, info, shape, layout, local, features, perCellManning, haloSides
    };
    program.emplace(context,
      device,
      info,
      programSource(params, shape, local.datum),
      programBuildOptions(settings));
    grid = gridLaunch(*program, params, shape);
  }

  // The buffers and the kernels bound to them, the initial state and its clock.
  void makeParts(const InitialState& initial)
  {
    const EngineContext engine{ params, context, queue, *program, grid };
    state.emplace(engine, layout, perCellManning, local.datum);
    stepper = makeStepper({ engine, shape, features, *state });
    clock.emplace(
      engine, *state, stepper->speedPartials(), features.fusedClock, waveSpeedFloor(params, local));
    if (ranks)
    {
      coupling.emplace(engine, layout, *partition, *ranks);
      state->couple(&*coupling);
      clock->couple(&*coupling, features.speedAtomics);
    }
    stepper->bind(*clock);
    state->bindClock(std::get<0>(clock->args()), std::get<1>(clock->args()));
    diagnostics.emplace(engine, *state, stepper->speedPartials());
    frames.emplace(engine, features, *state, info, perCellManning);
    state->upload(initial);
    clock->restart(0.0, 0, 0.0);
    state->afterStep(0, false);
    // (the initial state's sample in the record from the start, as after a return to t = 0)
    if (Gauges* gauges = state->gauges())
      gauges->collect(0);
  }

  // Reads the clock, and collects the gauges' samples of the steps it took.
  bool readClock()
  {
    const bool landed = clock->read(stepper->parityOnDevice());
    if (Gauges* gauges = state->gauges())
      gauges->collect(clock->steps);
    return landed;
  }

  // The steps of the next batch towards targetTime: in a split run the fewest any rank would
  // take (batches are timed on each rank), so that every rank takes the same steps.
  int batchSteps(double targetTime)
  {
    const int n = std::min(clock->batchSteps(targetTime), kGaugeRingSteps);
    if (!ranks)
      return n;
    double fewest = -n;
    ranks->maxOverRanks(&fewest, 1);
    return static_cast<int>(-fewest);
  }

  // Enqueues a batch of steps towards targetTime and returns without waiting for them.
  void startAdvance(double targetTime)
  {
    clock->setTarget(targetTime);
    stepper->enqueue(batchSteps(targetTime));
    queue.flush();
    advancing = true;
  }

  // Waits for a started advance and reads where it got to (throws if it blew up).
  void settle()
  {
    if (!advancing)
      return;
    advancing = false;
    readClock();
  }

  // Whether a snapshot's device memory belongs to this simulation's context (device buffers of
  // one context cannot be copied into another's).
  bool holds(const DeviceSnapshotMemory& memory) const
  {
    return memory.buffer.getInfo<CL_MEM_CONTEXT>()() == context();
  }

  StateView view() const
  {
    return { clock->time,
      clock->steps,
      ownedParams.nx,
      ownedParams.ny,
      layout.realSize,
      nullptr,
      {},
      state->fieldCount(),
      pendingWaveSpeed() };
  }

  // Snapshot::waveSpeed of the state now (settled): the speeds the last step left, unless the
  // steps keep the clock themselves (the fused clock: they have chosen the next dt already).
  double pendingWaveSpeed() const { return features.fusedClock ? -1 : clock->pendingWaveSpeed(); }
};

Simulation::Simulation(const SimulationPlan& plan, const InitialState& initial)
  : impl_(new Impl(plan, initial))
  , settings_(plan.partition ? "" : runSettingsText(impl_->ownedParams, initial))
{
}

Simulation::Simulation(const SimulationParameters& params, const InitialState& initial)
  : Simulation(plan(params, !initial.manning.empty()), initial)
{
}

Simulation::~Simulation() = default;

Simulation::Impl& Simulation::settled() const
{
  Impl& m = *impl_;
  if (m.advancing)
    guarded("advancing the simulation", [&] { m.settle(); });
  return m;
}

bool Simulation::advanceTo(double targetTime, const ProgressCallback& progress)
{
  Impl& m = settled();
  requireTargetAhead(m.clock->time, targetTime);
  if (targetTime == m.clock->time)
    return true;
  return guarded("advancing the simulation",
    [&]
    {
      m.clock->setTarget(targetTime);
      for (;;)
      {
        const int n = m.batchSteps(targetTime);
        const std::int64_t stepsBefore = m.clock->steps, refusedBefore = m.clock->refused;
        const auto start = Clock::now();
        m.stepper->enqueue(n);
        const bool landed = m.readClock();
        m.clock->batchTook(n, secondsSince(start));
        if (landed)
          return true;
        // (a batch that took no step and had none refused would repeat for ever)
        if (m.clock->steps == stepsBefore && m.clock->refused == refusedBefore)
          refuseStoppedClock(m.clock->time, targetTime);
        const bool goOn = !progress || progress(m.clock->time);
        if (!(m.ranks ? m.ranks->allAgree(goOn) : goOn))
          return false;
      }
    });
}

void Simulation::startAdvance(double targetTime)
{
  Impl& m = settled();
  requireTargetAhead(m.clock->time, targetTime);
  if (targetTime > m.clock->time)
    guarded("advancing the simulation", [&] { m.startAdvance(targetTime); });
}

void Simulation::step(int n)
{
  if (n < 0)
    throw Error("number of steps must be >= 0, got " + std::to_string(n));
  Impl& m = settled();
  DeviceClock& clock = *m.clock;
  guarded("stepping the simulation",
    [&]
    {
      const std::int64_t limit = clock.steps + n;
      clock.setTarget(clock.unboundedTarget(), limit);
      // A refused two-step launch takes no step (the next one then takes one): launch until the
      // count is there. A batch with neither a step nor a refusal would repeat for ever.
      while (clock.steps < limit)
      {
        const std::int64_t stepsBefore = clock.steps, refusedBefore = clock.refused;
        // (at most a gauge ring of steps between two reads of the clock)
        m.stepper->enqueue(static_cast<int>(std::min<std::int64_t>(
          limit - clock.steps, m.state->gauges() ? kGaugeRingSteps : limit - clock.steps)));
        m.readClock();
        if (clock.steps == stepsBefore && clock.refused == refusedBefore && clock.still)
          throw Error("nothing moves at t = " + formatValue(clock.time) +
                      " s (every cell is dry and nothing flows in), so a step has no length of "
                      "its own: advance to a time instead");
        if (clock.steps == stepsBefore && clock.refused == refusedBefore)
          throw Error("the device took no step at t = " + formatValue(clock.time) + " s (step " +
                      std::to_string(clock.steps) + " of " + std::to_string(limit) + ")");
      }
    });
}

void Simulation::enqueueSteps(int n)
{
  Impl& m = settled();
  guarded("stepping the simulation",
    [&]
    {
      m.clock->setTarget(m.clock->unboundedTarget(), m.clock->steps + n);
      m.stepper->enqueue(n);
    });
}

void Simulation::finish()
{
  Impl& m = settled();
  guarded("waiting for the device",
    [&]
    {
      m.queue.finish();
      m.readClock();
    });
}

Snapshot Simulation::snapshot(SnapshotPlace place) const
{
  Snapshot s;
  snapshotInto(s, place);
  return s;
}

void Simulation::snapshotInto(Snapshot& s, SnapshotPlace place) const
{
  Impl& m = settled();
  s.time = m.clock->time;
  s.steps = m.clock->steps;
  s.lastDt = m.clock->lastDt;
  s.waveSpeed = m.pendingWaveSpeed();
  s.nx = m.ownedParams.nx;
  s.ny = m.ownedParams.ny;
  s.realSize = m.layout.realSize;
  s.fields = m.state->fieldCount();
  s.gauges = gauges();
  const std::size_t bytes = s.bytes(), deviceBytes = bytes + m.state->lowPartBytes();
  if (place == SnapshotPlace::Device)
  {
    s.data = std::vector<unsigned char>();
    guarded("taking a snapshot in device memory",
      [&]
      {
        // Memory shared with another snapshot, or another simulation's, is not written over.
        if (!s.device || s.device.use_count() != 1 || !m.holds(*s.device) ||
            s.device->buffer.getInfo<CL_MEM_SIZE>() != deviceBytes)
          s.device = std::make_shared<DeviceSnapshotMemory>(
            DeviceSnapshotMemory{ cl::Buffer(m.context, CL_MEM_READ_WRITE, deviceBytes) });
        m.state->pack(s.device->buffer);
        m.queue.finish();
      });
    return;
  }
  s.device.reset();
  resizeOnHugePages(s.data, bytes);
  guarded("taking a snapshot", [&] { m.state->read(s.data.data(), &s.lowParts); });
}

void Simulation::restore(const Snapshot& snapshot)
{
  Impl& m = *impl_;
  const SimulationParameters& grid = m.ownedParams;
  if (snapshot.nx != grid.nx || snapshot.ny != grid.ny || snapshot.realSize != m.layout.realSize ||
      snapshot.fields != m.state->fieldCount() ||
      (!snapshot.onDevice() && snapshot.data.size() != stateBytes()))
    throw Error("cannot restore a " + std::to_string(snapshot.nx) + " x " +
                std::to_string(snapshot.ny) + " snapshot into a " + std::to_string(grid.nx) +
                " x " + std::to_string(grid.ny) + " simulation");
  guarded("restoring a snapshot",
    [&]
    {
      if (snapshot.onDevice() && !m.holds(*snapshot.device))
        throw Error("cannot restore a snapshot kept in another simulation's device memory");
      // A started advance is dropped, not settled: the restored state replaces whatever it did.
      m.queue.finish();
      m.advancing = false;
      m.state->clear();
      if (snapshot.onDevice())
        m.state->unpack(snapshot.device->buffer);
      else
        m.state->write(snapshot.data.data(), snapshot.lowParts);
      m.clock->restart(snapshot.time, snapshot.steps, snapshot.lastDt, snapshot.waveSpeed);
      m.state->restoredAt(snapshot.steps, snapshot.gauges);
    });
}

std::uint64_t Simulation::stateBytes() const
{
  return impl_->state->fieldCount() * static_cast<std::uint64_t>(impl_->layout.fieldBytes());
}

bool Simulation::snapshotsFitOnDevice(std::uint64_t bytes) const
{
  const Impl& m = *impl_;
  if (m.info.type != "GPU")
    return false;
  cl_bool unified = CL_TRUE;
  const cl::Device device = m.queue.getInfo<CL_QUEUE_DEVICE>();
  if (clGetDeviceInfo(
        device(), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(unified), &unified, nullptr) !=
        CL_SUCCESS ||
      unified)
    return false;
  const std::uint64_t used = deviceBytesUsed(m.layout, m.params, m.perCellManning) + stateBytes();
  return used + bytes <= m.info.globalMemory / 2;
}

const GaugeRecord& Simulation::gauges() const
{
  // (not settled: the samples an advance in flight takes are collected when it is waited for)
  static const GaugeRecord none;
  const Gauges* gauges = impl_->state->gauges();
  return gauges ? gauges->record() : none;
}

double Simulation::time() const
{
  return settled().clock->time;
}

std::int64_t Simulation::refusedLaunches() const
{
  return settled().clock->refused;
}

std::int64_t Simulation::redoneSteps() const
{
  return settled().clock->redone;
}

std::int64_t Simulation::steps() const
{
  return settled().clock->steps;
}

double Simulation::lastDt() const
{
  return settled().clock->lastDt;
}

std::optional<FrameRanges> Simulation::frameRanges() const
{
  Impl& m = settled();
  return guarded("computing the frame's ranges", [&] { return m.frames->ranges(); });
}

Diagnostics Simulation::diagnostics() const
{
  Impl& m = settled();
  Diagnostics d = guarded("computing diagnostics", [&] { return m.diagnostics->compute(); });
  if (m.ranks)
  {
    // The whole grid's (the mass summed in rank order of partial sums: not a single rank's bits).
    double largest[2] = { d.maxDepth, d.maxSpeed };
    m.ranks->maxOverRanks(largest, 2);
    m.ranks->sumOverRanks(&d.mass, 1);
    d.maxDepth = largest[0];
    d.maxSpeed = largest[1];
  }
  return d;
}

StateView Simulation::downloadState() const
{
  Impl& m = settled();
  StateView v = m.view();
  guarded("downloading the state", [&] { v.data = m.frames->download(); });
  return v;
}

StateView Simulation::downloadStateThenAdvance(double targetTime, const StateConsumer& consume)
{
  Impl& m = settled();
  requireTargetAhead(m.clock->time, targetTime);
  StateView v = m.view();
  if (targetTime == m.clock->time)
  {
    v = downloadState();
    if (consume)
      consume(v, [](int) {});
    return v;
  }
  m.frames->downloadThenAdvance(v, consume, [&] { m.startAdvance(targetTime); });
  return v;
}

void Simulation::download(Field field, double* out) const
{
  const Impl& m = settled();
  guarded("downloading a field", [&] { m.state->download(field, out); });
}

void Simulation::download(Field field, float* out) const
{
  const Impl& m = settled();
  guarded("downloading a field", [&] { m.state->download(field, out); });
}

const SimulationParameters& Simulation::parameters() const
{
  return impl_->ownedParams;
}

const DeviceInfo& Simulation::device() const
{
  return impl_->info;
}

const LaunchShape& Simulation::launchShape() const
{
  return impl_->shape;
}

const std::string& Simulation::buildLog() const
{
  return impl_->program->log();
}

bool Simulation::programFromCache() const
{
  return impl_->program->fromCache();
}

const SetupSeconds& Simulation::setupSeconds() const
{
  return impl_->setup;
}

SplitSeconds Simulation::splitSeconds() const
{
  return impl_->coupling ? impl_->coupling->seconds() : SplitSeconds{};
}

double Simulation::copyBandwidth() const
{
  Impl& m = *impl_;
  return guarded("measuring the copy bandwidth",
    [&] { return measureCopyBandwidth(m.context, m.queue, m.layout.bufferBytes() * 3); });
}

double Simulation::updatedTileShare() const
{
  return settled().state->tiles().updatedShare();
}

std::uint64_t Simulation::deviceBytes() const
{
  return deviceBytesUsed(impl_->layout, impl_->params, impl_->perCellManning) +
         impl_->frames->deviceBytes();
}
} // namespace swe
