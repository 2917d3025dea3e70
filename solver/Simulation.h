#pragma once
// The OpenCL simulation: owns the device buffers and steps the state on the device. The simulated
// time, the time step and the step count live on the device; the host reads them only when it
// must (at a target time, every batch of steps, or for diagnostics).
//
// A facade over the engine's parts, each with one job and a folder of its own
// (solver/CMakeLists.txt; docs/ARCHITECTURE.md, "The engine's parts").
#include "Devices.h"
#include "InitialState.h"
#include "LaunchShape.h"
#include "LaunchTuner.h"
#include "Parameters.h"
#include "Partition.h"
#include "RankExchange.h"
#include "SimulationTypes.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace swe
{
// What a Simulation is made from: the parameters checked against the device and the host
// (Simulation::check) and the launch shape resolved (resolveLaunchShape, LaunchTuner.h: "auto"
// may time candidate shapes for about kAutoTuningSeconds on a device's first run). Making a plan
// is the only part of a run's setup that may tune, and it needs no initial state: a caller with
// a progress bar makes it first (Simulation::plan with a progress callback), shows the tuning,
// then builds the initial state and the Simulation, which never tunes.
struct SimulationPlan
{
  SimulationParameters params; // as given (params.launch as the caller wrote it)
  DeviceInfo device;
  LaunchShape shape;           // params.launch resolved
  bool perCellManning = false; // the memory check counted a Manning field
  SetupSeconds seconds;        // its device and launch parts: the time the plan took
  // A run split among ranks (Partition.h): this rank's block, params.nx x params.ny cells, and
  // the way to the other ranks (not owned; it outlives the Simulation). None: one rank.
  std::optional<Partition> partition;
  RankExchange* ranks = nullptr;
  // A context on plan's device that other simulations share (shareDevice: an ensemble's
  // members); none: the simulation makes its own.
  std::shared_ptr<DeviceContext> sharedContext;
};

// This rank's part of a run split among ranks: plan's grid becomes the block of partition's rank.
// Plan for the block (Simulation::plan(blockParameters(params, partition))) so that the device
// and the host are checked for what this rank holds, not the whole grid, which may fit no single
// device; a plan of the whole grid is taken too. Every rank must then make its Simulation
// (collective).
void splitAmongRanks(SimulationPlan& plan, const Partition& partition, RankExchange& ranks);
// params with the grid of partition's block for this rank (its compute block, where the
// partition's blocks overlap).
SimulationParameters blockParameters(const SimulationParameters& params,
  const Partition& partition);
// Parameters of a compute block (blockParameters) made those of the block the rank owns.
SimulationParameters ownedParameters(const SimulationParameters& params);
// The initial state of plan's compute block from that of the block this rank owns, where the
// blocks overlap (collective); none where they do not.
std::optional<InitialState> computeBlockState(const SimulationPlan& plan,
  const InitialState& owned);

class Simulation
{
public:
  // Checks params against the device and the host (check()) and resolves the launch shape,
  // tuning it where params.launch is "auto" and the cache has no shape (progress, when given,
  // hears of that tuning). Throws swe::Error for parameters check() refuses or a shape that
  // does not suit the scheme or the device.
  static SimulationPlan plan(const SimulationParameters& params,
    bool perCellManning = false,
    const LaunchTuningProgress& progress = {});
  // Builds the kernels for the plan, uploads the initial state and starts the clock at t = 0.
  // Never tunes. An initial state with a Manning field the plan did not count is checked
  // against the device and the host again, with it.
  Simulation(const SimulationPlan& plan, const InitialState& initial);
  // Simulation(plan(params, initial has a Manning field), initial): for a caller without a
  // progress bar, the plan made here (a tuning, where one is needed, then runs first, silently).
  Simulation(const SimulationParameters& params, const InitialState& initial);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Advances until the simulated time is exactly targetTime (the last step is shortened to land
  // on it). Returns false when progress asked to abort (the state is then consistent, at an
  // intermediate time). Throws swe::Error if the run blows up, naming the step, time and cell.
  bool advanceTo(double targetTime, const ProgressCallback& progress = {});

  // Starts advancing to targetTime and returns without waiting: the device takes the steps
  // while the host does other work. advanceTo(targetTime) then finishes the advance (and takes
  // more steps if the first batch fell short); any other call first waits for it, so time(),
  // steps() and the state always describe one instant. restore() drops it.
  void startAdvance(double targetTime);

  // Takes exactly n steps (no target time), then checks the state once.
  void step(int n);

  // Enqueues launches for n steps without waiting or checking: for benchmarks, followed by
  // finish() (then steps() says how many were taken: two-step launches may be refused).
  void enqueueSteps(int n);
  void finish();

  Snapshot snapshot(SnapshotPlace place = SnapshotPlace::Host) const;
  // The same into s, reusing its memory when it is in the same place and large enough (a dropped
  // checkpoint's); memory in the other place is released.
  void snapshotInto(Snapshot& s, SnapshotPlace place = SnapshotPlace::Host) const;
  // Puts the simulation back where snapshot() was taken (same grid required; a snapshot on the
  // device only into the simulation that took it).
  void restore(const Snapshot& snapshot);
  // Bytes of h, hu, hv of the interior cells: one snapshot's size.
  std::uint64_t stateBytes() const;
  // Whether snapshots of this many bytes in all belong on the device: a GPU with memory of its
  // own (not the host's), of which this simulation's buffers, the copy for overlapped downloads
  // and the snapshots would take at most half (the rest is left to rendering and other programs).
  bool snapshotsFitOnDevice(std::uint64_t bytes) const;

  double time() const;
  std::int64_t steps() const;
  // Two-step launches with the adaptive dt that were refused (the state between the steps was
  // faster than foreseen; the next launch then took one step), since the start or the last
  // restore: each cost two launches without a step, the refused one and the next, queued on the
  // copy that does not hold the state (PERFORMANCE.md).
  std::int64_t refusedLaunches() const;
  // MUSCL-Hancock steps taken again with the outflow cap because a depth went below zero
  // without it, since the start or the last restore (each cost about a second step).
  std::int64_t redoneSteps() const;
  // The dt the wave speeds (or the fixed dt) allowed for the last step chosen, before any cut to
  // land on a target time: what advanceTo sizes its batches of launches by.
  double lastDt() const;
  Diagnostics diagnostics() const;
  // The gauges' samples (SimulationParameters::gauges) from t = 0, or from the state a snapshot
  // restored: one a step, up to the clock's last read (an advance started and not yet waited
  // for is not waited for: its samples come once it is). Empty without gauges.
  const GaugeRecord& gauges() const;
  // The bounds of the frame's derived values (FrameRow.h) for the live state, computed on the
  // device (what downloadStateThenAdvance does on a GPU); none where the device has no fp64 or
  // no room for a copy of the state.
  std::optional<FrameRanges> frameRanges() const;

  // Downloads h, hu, hv into host memory the simulation keeps for it, allocated on first use by
  // the OpenCL driver (CL_MEM_ALLOC_HOST_PTR: page-locked on GPU drivers, so the bus copy runs at
  // full speed, which a copy into ordinary memory, staged by the driver, does not; see
  // PERFORMANCE.md, 'Decisions that stand'). The view stays
  // valid, with these values, until the next downloadState() or the simulation's destruction.
  StateView downloadState() const;

  // downloadState(), then startAdvance(targetTime), overlapped where the device has room for a
  // copy of the state (12 B a cell in single precision, 24 in double): the state is copied on the
  // device, and the copy crosses the bus on a second queue while the steps run. A GPU then
  // computes the next frame while the host turns this one into output (PERFORMANCE.md).
  // consume, when given, is called with the state while it arrives (a large state crosses the
  // bus in up to 16 parts); this returns once every part is in and consume has returned.
  StateView downloadStateThenAdvance(double targetTime, const StateConsumer& consume = {});

  // Copies a field's nx * ny interior values (row-major, x fastest) into caller memory.
  void download(Field field, double* out) const;
  void download(Field field, float* out) const;

  const SimulationParameters& parameters() const;
  // What decides how the state goes on, as text a frame keeps (RunSettings.h); empty in a run
  // split among ranks, where a rank sees its block's terrain alone.
  const std::string& settings() const { return settings_; }
  const DeviceInfo& device() const;
  // The launch shape params.launch resolved to.
  const LaunchShape& launchShape() const;
  // What the OpenCL compiler said when it built the kernels (warnings); empty when nothing.
  const std::string& buildLog() const;
  // Whether the kernels were loaded as a binary a run before built (the kernel cache, in the
  // cache folder's programs/ or SWE_PROGRAM_CACHE), not compiled.
  bool programFromCache() const;
  // Where the constructor's time went.
  const SetupSeconds& setupSeconds() const;
  // In a run split among ranks, this rank's time in halo exchanges and agreements since it was
  // made (zero for a run on one rank). Not collective, and waits for nothing: the exchanges are
  // the host's, done by the time the calls that take steps return.
  SplitSeconds splitSeconds() const;

  // Validates params, resolves the device and checks that the grid fits it (precision, device
  // memory, indexing) and that the run fits the host memory this process can count on
  // (HostMemory.h: the engine's own host memory, a CPU device's buffers, the initial state while
  // it is uploaded, what the caller keeps, and room to build the kernels), without allocating
  // anything: call it before building a large initial state.
  // perCellManning: the run has a Manning coefficient per cell (one more field on the device).
  // alsoOnHost: what the caller keeps per cell for the run (frames, checkpoints).
  static DeviceInfo check(const SimulationParameters& params,
    bool perCellManning = false,
    const std::vector<HostShare>& alsoOnHost = {});

  // Bytes per second of a device-to-device buffer copy (read + write) as large as the state, the
  // ceiling a memory-bound step can approach. Waits for the device.
  double copyBandwidth() const;
  // The share of the grid's tiles the last step updated, where the run skips dry land
  // (SimulationParameters::skipDry); 1 otherwise. Waits for the device.
  double updatedTileShare() const;
  // Bytes of device memory the run's buffers hold (the state, bed, fields and maps, and a frame's
  // copy of the state where downloads overlap the steps); snapshots on the device are besides.
  std::uint64_t deviceBytes() const;

  // Bytes one step must move per cell at least: the scheme's reads and writes of whole fields
  // (Lax-Friedrichs: 3 read, 3 written; MUSCL-HLLC: two stages, 7 + 10; MUSCL-Hancock: 4 + 3).
  static std::uint64_t bytesMovedPerCell(const SimulationParameters& params);

  // The largest n such that an n x n grid fits the device (memory and 32-bit indexing).
  static std::uint64_t largestSquareGrid(Precision precision, const DeviceInfo& device);

  // Device bytes one grid cell needs, for the size check (state x2, bed, and the Manning field
  // when the coefficient is given per cell).
  static std::uint64_t bytesPerCell(Precision precision, bool perCellManning = false);

private:
  struct Impl;
  // The implementation after any started advance has been waited for.
  Impl& settled() const;
  std::unique_ptr<Impl> impl_;
  std::string settings_;
};
} // namespace swe
