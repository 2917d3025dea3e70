#pragma once
// The values the engine hands its callers and takes back: fields, diagnostics, a state's view,
// snapshots, the callbacks of a run, where its setup time went and what memory its caller keeps.
// Simulation.h includes this; the engine's parts use it without the whole facade.
#include "FrameRow.h"
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
  Bed,
  // The flood maps (SimulationParameters::floodMaps): the largest depth [m], speed [m/s] and
  // hazard (depth x (speed + 0.5), the UK FD2320 rating without a debris factor) [m^2/s] seen
  // at any step so far, the time the depth first reached the arrival depth [s] (NaN where it has
  // not) and the time spent at or above it [s].
  MaxDepth,
  MaxSpeed,
  MaxHazard,
  ArrivalTime,
  Duration,
  // The cumulative Green-Ampt infiltration [m] (SimulationParameters::infiltration).
  Infiltration,
  // The cumulative depth [m] that came into a cell from outside the grid, through the grid's
  // sides and from point sources; negative where more left (outflow, sinks); 0 in the cells
  // inside (SimulationParameters::waterBalance).
  Inflow
};
constexpr int kFieldCount = static_cast<int>(Field::Inflow) + 1;

// The name a field's values go by in outputs (.vti arrays, GeoTIFF files, --arrays): its
// enumerator's. The frame arrays (io/FrameArraySelection.h) take their names from here.
constexpr const char* fieldName(Field field)
{
  constexpr const char* names[kFieldCount] = { "Depth",
    "MomentumX",
    "MomentumY",
    "Bed",
    "MaxDepth",
    "MaxSpeed",
    "MaxHazard",
    "ArrivalTime",
    "Duration",
    "Infiltration",
    "Inflow" };
  return names[static_cast<int>(field)];
}

// The fields a run keeps besides h, hu, hv where its settings ask for them, in Field's order:
// the flood maps, the infiltration, the inflow. keptField(k) is the k-th of them.
constexpr Field kFirstKeptField = Field::MaxDepth;
constexpr int kKeptFieldCount = kFieldCount - static_cast<int>(kFirstKeptField);
constexpr Field keptField(int k)
{
  return static_cast<Field>(static_cast<int>(kFirstKeptField) + k);
}
constexpr bool isFloodMap(Field field)
{
  return field >= Field::MaxDepth && field <= Field::Duration;
}

// The fields a state carries (StateView, Snapshot), in this order: h, hu, hv, the infiltration
// where the run has Green-Ampt, the inflow where it keeps the water balance, the flood maps where
// it keeps them.
constexpr int kStateFields = 3;
inline std::vector<Field> stateFields(const SimulationParameters& params)
{
  std::vector<Field> fields = { Field::Depth, Field::MomentumX, Field::MomentumY };
  if (params.infiltration.on())
    fields.push_back(Field::Infiltration);
  if (params.waterBalance)
    fields.push_back(Field::Inflow);
  if (params.floodMaps)
    for (int k = 0; k < kKeptFieldCount; ++k)
      if (isFloodMap(keptField(k)))
        fields.push_back(keptField(k));
  return fields;
}

struct Diagnostics
{
  double mass = 0;     // sum of h * dx^2 [m^3]
  double maxDepth = 0; // [m]
  double maxSpeed = 0; // max |(u, v)| [m/s]
};

// The water balance of a run (SimulationParameters::waterBalance), in m^3 since t = 0: what the
// grid holds against what came in and went out. Where a run started from a saved state, its
// initial volume is what closes the balance there.
struct WaterBalance
{
  double time = 0;
  double stored = 0;       // the water on the grid now
  double initial = 0;      // the water on the grid at t = 0
  double rain = 0;         // rain on the grid
  double inflow = 0;       // in through the sides and the point sources
  double outflow = 0;      // out through the sides and the sinks
  double infiltration = 0; // into the ground (Green-Ampt)
  // stored - (initial + rain + inflow - outflow - infiltration): what the numerics made or lost.
  double error() const { return stored - (initial + rain + inflow - outflow - infiltration); }
  // error() over all the water the run has had (initial + rain + inflow); 0 without any.
  double relativeError() const
  {
    const double total = initial + rain + inflow;
    return total > 0 ? error() / total : 0.0;
  }
};

// Read-only h, hu, hv (and the infiltration and flood maps, where the run has them: `fields` in
// all, as stateFields orders them)
// of the interior cells at one instant, one field after the other, nx * ny values each
// (row-major, x fastest), in the simulation's precision (realSize bytes a value), in host memory
// that someone else owns (a Snapshot, or the simulation: downloadState()).
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
  int fields = kStateFields;
  // The largest wave speed the next dt is chosen from (Snapshot::waveSpeed); < 0: the state's.
  double waveSpeed = -1;
  std::size_t fieldBytes() const { return static_cast<std::size_t>(nx) * ny * realSize; }
  // Field f's values (stateFields(params)[f]).
  const unsigned char* field(int f) const { return data + f * fieldBytes(); }
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

// The gauges' samples (SimulationParameters::gauges): one per step from t = 0, each with the
// time, the step and, at every gauge, the depth [m], the surface elevation [m] and the velocity
// (u, v) [m/s] (0 where the cell is dry).
struct GaugeRecord
{
  int gauges = 0;
  std::vector<double> time;
  std::vector<std::int64_t> step;
  // kGaugeValues values a gauge, gauge after gauge, sample after sample.
  static constexpr int kGaugeValues = 4;
  std::vector<double> values;
  double value(std::size_t sample, int gauge, int which) const
  {
    return values[(sample * static_cast<std::size_t>(gauges) + static_cast<std::size_t>(gauge)) *
                    kGaugeValues +
                  static_cast<std::size_t>(which)];
  }
};

// A complete copy of the simulation at one instant: restoring it continues the run exactly as if
// it had never stopped (bit for bit, same dt sequence).
struct Snapshot
{
  double time = 0;
  std::int64_t steps = 0;
  double lastDt = 0;
  int nx = 0, ny = 0;
  // h, hu, hv of the interior cells, and the flood maps where the run keeps them (`fields` in
  // all, as StateView), one after the other, in the simulation's precision (4 or 8 bytes a
  // value) as the device holds them: no conversion, half the memory in fp32. The bed and
  // roughness never change, so they are not kept. On the host in data, or on the device in
  // device (then data is empty).
  std::size_t realSize = 0;
  int fields = kStateFields;
  // The largest wave speed the next dt is chosen from, as the last step left it: the step kernels
  // compute it from the state they make, before point sources and infiltration act on it and
  // with their own arithmetic, so a restored state that chose dt from itself could take another
  // dt than the run that never stopped. < 0: from the state (a fresh state, the fused clock).
  double waveSpeed = -1;
  // The gauges' samples up to the state (empty without gauges), which restoring it makes the
  // run's record again: taken with the snapshot, or a frame's (FrameSnapshot).
  GaugeRecord gauges;
  std::vector<unsigned char> data;
  // The fp32 water balance's low parts (DeviceState::readLowParts) beside data; on the device
  // they follow the state in device's memory. Empty: restored as zero.
  std::vector<unsigned char> lowParts;
  std::shared_ptr<DeviceSnapshotMemory> device;
  bool onDevice() const { return device != nullptr; }
  std::size_t bytes() const { return fields * static_cast<std::size_t>(nx) * ny * realSize; }
  // The values on the host (data null for a snapshot on the device).
  StateView view() const
  {
    return {
      time, steps, nx, ny, realSize, onDevice() ? nullptr : data.data(), {}, fields, waveSpeed
    };
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
// before its first step (swe's SETUP line, BENCHMARKS.md).
struct SetupSeconds
{
  double device = 0; // the device found, and the grid checked against it (Simulation::check)
  double launch = 0; // the launch shape: a line of the cache, or the tuning (LaunchTuner.h)
  double checks = 0; // the initial state's checks on the host, and its local datum (LocalDatum.h)
  double build = 0;  // the context, the queue, the program's build and its kernel objects
  double upload = 0; // the buffers, the initial state with its ghosts and first wave speeds
  double total() const { return device + launch + checks + build + upload; }
};

// Where a rank of a run split among ranks (Partition.h) spent wall-clock seconds coupling its
// block to the others', since its simulation was made, and how many times: the halo exchanges
// and the agreements on each step's wave-speed maximum and MUSCL-Hancock's redone steps, each
// with its waits for this rank's device and for the other ranks (swe bench --ranks).
struct SplitSeconds
{
  double halo = 0, agree = 0;
  std::int64_t halos = 0, agreements = 0;
  // Of halo and agree, the waits for the work queued before each exchange or agreement (the
  // steps' kernels, which a run on one rank runs too, though without waiting): what is left is
  // the exchange's own time, copies to and from the device and the trade with the other ranks.
  double wait = 0;
};

// Host memory a caller keeps for a run, per grid cell: named in the memory check's message.
struct HostShare
{
  std::string what; // "frames", "checkpoints"
  std::uint64_t bytesPerCell = 0;
};

} // namespace swe
