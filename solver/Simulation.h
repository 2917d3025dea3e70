#pragma once
// The OpenCL simulation: owns the device buffers and steps the state on the device. The simulated
// time, the time step and the step count live on the device; the host reads them only when it
// must (at a target time, every batch of steps, or for diagnostics).
#include "Devices.h"
#include "FrameRow.h"
#include "InitialState.h"
#include "LaunchShape.h"
#include "Parameters.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace swe
{
enum class Field
{
  Depth,
  MomentumX,
  MomentumY,
  Bed
};

struct Diagnostics
{
  double mass = 0;     // sum of h * dx^2 [m^3]
  double maxDepth = 0; // [m]
  double maxSpeed = 0; // max |(u, v)| [m/s]
};

// Read-only h, hu, hv of the interior cells at one instant, one field after the other, nx * ny
// values each (row-major, x fastest), in the simulation's precision (realSize bytes a value), in
// host memory that someone else owns (a Snapshot, or the simulation: downloadState()).
struct StateView
{
  double time = 0;
  std::int64_t steps = 0;
  int nx = 0, ny = 0;
  std::size_t realSize = 0;
  const unsigned char* data = nullptr;
  // Where the device computes the bounds of the frame's derived values (FrameRow.h;
  // downloadStateThenAdvance on a GPU): waits for them and gives them, valid as data is. Else
  // empty, and whoever makes the frame gathers them.
  std::function<std::optional<FrameRanges>()> ranges;
  std::size_t fieldBytes() const { return static_cast<std::size_t>(nx) * ny * realSize; }
};

// Where a snapshot keeps h, hu, hv: host memory, or the device's own memory (a copy there takes
// a fraction of a millisecond on a GPU, where host memory costs a bus copy and, fresh, page
// faults; PERFORMANCE.md).
enum class SnapshotPlace
{
  Host,
  Device
};

// A snapshot's device memory (Simulation.cpp): usable only by the simulation that made it.
struct DeviceSnapshotMemory;

// A complete copy of the simulation at one instant: restoring it continues the run exactly as if
// it had never stopped (bit for bit, same dt sequence).
struct Snapshot
{
  double time = 0;
  std::int64_t steps = 0;
  double lastDt = 0;
  int nx = 0, ny = 0;
  // h, hu, hv of the interior cells, one after the other, in the simulation's precision (4 or 8
  // bytes a value) as the device holds them: no conversion, half the memory in fp32. The bed and
  // roughness never change, so they are not kept. On the host in data, or on the device in
  // device (then data is empty).
  std::size_t realSize = 0;
  std::vector<unsigned char> data;
  std::shared_ptr<DeviceSnapshotMemory> device;
  bool onDevice() const { return device != nullptr; }
  std::size_t bytes() const { return 3 * static_cast<std::size_t>(nx) * ny * realSize; }
  // The values on the host (data null for a snapshot on the device).
  StateView view() const
  {
    return { time, steps, nx, ny, realSize, onDevice() ? nullptr : data.data(), {} };
  }
};

// Called between batches of steps with the simulated time reached; return false to abort.
using ProgressCallback = std::function<bool(double time)>;

// Waits until rows [0, rowEnd) of a state on its way to the host have arrived (all three fields);
// any thread may call it. Throws swe::Error if the device fails.
using RowsWait = std::function<void(int rowEnd)>;
// Given a state whose rows are still arriving, in row order, and the wait for them: called once,
// on the calling thread, while the rows cross the bus, so the host can work on the first rows
// while the last ones are on their way. The view's data pointer is the whole state's.
using StateConsumer = std::function<void(const StateView& state, const RowsWait& waitForRows)>;

// Where a simulation's construction spent its time, wall-clock seconds: the fixed cost a run pays
// before its first step (swe's SETUP line, PERFORMANCE.md).
struct SetupSeconds
{
  double device = 0; // the device found, and the grid checked against it (Simulation::check)
  double launch = 0; // the launch shape: a line of the cache, or the tuning (LaunchTuner.h)
  double checks = 0; // the initial state's checks on the host, and its local datum (LocalDatum.h)
  double build = 0;  // the context, the queue, the program's build and its kernel objects
  double upload = 0; // the buffers, the initial state with its ghosts and first wave speeds
  double total() const { return device + launch + checks + build + upload; }
};

// Host memory a caller keeps for a run, per grid cell: named in the memory check's message.
struct HostShare
{
  std::string what; // "frames", "checkpoints"
  std::uint64_t bytesPerCell = 0;
};

class Simulation
{
public:
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
  // The bounds of the frame's derived values (FrameRow.h) for the live state, computed on the
  // device (what downloadStateThenAdvance does on a GPU); none where the device has no fp64 or
  // no room for a copy of the state.
  std::optional<FrameRanges> frameRanges() const;

  // Downloads h, hu, hv into host memory the simulation keeps for it, allocated on first use by
  // the OpenCL driver (CL_MEM_ALLOC_HOST_PTR: page-locked on GPU drivers, so the bus copy runs at
  // full speed, about 4x a copy into ordinary memory on the H200; PERFORMANCE.md). The view stays
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
  const DeviceInfo& device() const;
  // The launch shape params.launch resolved to.
  const LaunchShape& launchShape() const;
  // What the OpenCL compiler said when it built the kernels (warnings); empty when nothing.
  const std::string& buildLog() const;
  // Where the constructor's time went.
  const SetupSeconds& setupSeconds() const;

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
};
} // namespace swe
