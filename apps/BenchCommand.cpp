// swe bench: times the step loop on the dam break and what a run and the plugin's frames cost
// around it. Each measurement below is a function of its own, run in the order of bench(), each
// printing its line (BENCHMARKS.md reads them). With --ranks, what splitting the grid among
// ranks costs instead (SPLIT lines).
#include "BenchDry.h"
#include "BenchEnsemble.h"
#include "BenchSplit.h"
#include "CommonOptions.h"
#include "Error.h"
#include "GridLayout.h"
#include "InitialState.h"
#include "LaunchTuner.h"
#include "ReferenceSolver.h"
#include "Report.h"
#include "SeriesCsv.h"
#include "Simulation.h"
#include "Subcommands.h"
#include "Timing.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace swe::cli
{
namespace
{
struct BenchOptions
{
  CommonOptions common;
  int steps = 200;
  bool baseline = false;
  int ranks = 1;
  bool checkBits = false;
  int gauges = 0;
  int sources = 0;
  std::string rainSeries;
  std::vector<double> greenAmpt; // K, PSI, DEFICIT
  double wetFraction = 0;        // > 0: water over that share of the grid, dry land beyond
  bool drySpeedup = false;
  int members = 0; // > 0: an ensemble of this many members against one grid of their cells
};

// One benchmark: the simulation, and what the measurements found, for those that come after.
struct Bench
{
  SimulationParameters params;
  std::unique_ptr<Simulation> simulation;
  double stateSeconds = 0;  // the initial state, built on the host
  double firstRead = 0;     // the state at t = 0, as a first frame takes it
  double warmupSeconds = 0; // the warm-up steps, first launches included
  std::int64_t warmupTaken = 0, refusedBefore = 0, redoneBefore = 0;
  double seconds = 0;     // the timed steps
  std::int64_t taken = 0; // the timed steps taken
  double rate = 0;        // cells a second
  double copy = 0;        // the device's buffer copy, bytes a second
  double bytesPerCell = 0, achieved = 0;
  double deviceSnapshotSeconds = 0; // a checkpoint in recycled device memory
};

// SETUP's state: the dam break by default keeps the state physical for the whole benchmark. (Its
// host copy only lives while the simulation is made.)
void makeSimulation(Bench& b, const BenchOptions& options)
{
  b.simulation = [&]
  {
    const auto start = Clock::now();
    const InitialState initial =
      benchInitialState(b.params, options.common.scenario, options.wetFraction);
    b.stateSeconds = secondsSince(start);
    return std::make_unique<Simulation>(b.params, initial);
  }();
  if (!b.simulation->buildLog().empty())
    std::cerr << "swe bench: the kernel compiler said:\n" << b.simulation->buildLog() << "\n";
}

// The first read (the first downloadState also allocates its host memory).
void measureFirstRead(Bench& b)
{
  const auto start = Clock::now();
  b.simulation->downloadState();
  b.firstRead = secondsSince(start);
}

void measureWarmup(Bench& b, int steps)
{
  Simulation& simulation = *b.simulation;
  const int warmup = warmupSteps(steps);
  const auto start = Clock::now();
  simulation.enqueueSteps(warmup);
  simulation.finish();
  b.warmupSeconds = secondsSince(start);
  b.warmupTaken = simulation.steps();
  b.refusedBefore = simulation.refusedLaunches();
  b.redoneBefore = simulation.redoneSteps();
}

// The step loop. The steps taken: fewer than asked when two-step launches were refused
// (adaptive dt).
void measureSteps(Bench& b, int steps)
{
  Simulation& simulation = *b.simulation;
  const auto start = Clock::now();
  simulation.enqueueSteps(steps);
  simulation.finish();
  b.seconds = secondsSince(start);
  const double cells = static_cast<double>(b.params.nx) * b.params.ny;
  b.taken = simulation.steps() - b.warmupTaken;
  if (b.taken <= 0)
    throw Error("the benchmark took no steps (the state may have stopped the clock)");
  b.rate = cells * static_cast<double>(b.taken) / b.seconds;
}

// SETUP, against a 20-step run at the timed rate.
void printSetupLine(Bench& b)
{
  // The last read: the state after the steps, into the memory the first read allocated.
  const auto start = Clock::now();
  b.simulation->downloadState();
  const double lastRead = secondsSince(start);
  // The warm-up's time beyond as many steps at the timed rate: first launches (PoCL compiles
  // each kernel for its work-group size then; GPU drivers load the code).
  const double perStep = b.seconds / static_cast<double>(b.taken);
  const double firstSteps =
    std::max(0.0, b.warmupSeconds - perStep * static_cast<double>(b.warmupTaken));
  printSetup(b.stateSeconds,
    b.simulation->setupSeconds(),
    { { "first steps", firstSteps }, { "first read", b.firstRead }, { "last read", lastRead } },
    "20 steps",
    20 * perStep,
    "a 20-step run");
}

// The ceiling, measured in the same run: the device's own buffer copy, as many bytes as the
// state, and the bytes a step must move at least (the scheme's reads and writes per cell).
void measureCopyBandwidth(Bench& b)
{
  Simulation& simulation = *b.simulation;
  const SimulationParameters& params = b.params;
  b.copy = simulation.copyBandwidth();
  b.bytesPerCell = static_cast<double>(Simulation::bytesMovedPerCell(params));
  b.achieved = b.rate * b.bytesPerCell;
  const std::uint64_t largest =
    Simulation::largestSquareGrid(params.precision, simulation.device());
  if (params.launch == "auto" && cachedLaunchShapeIsPartial(params, simulation.device()))
    std::cerr << "swe bench: the launch shape comes from a tuning cut short at its time limit; "
                 "swe tune times every shape\n";
  std::cerr << "swe bench: " << params.nx << " x " << params.ny << ", " << b.taken << " steps ("
            << simulation.refusedLaunches() - b.refusedBefore << " launches refused, "
            << simulation.redoneSteps() - b.redoneBefore << " steps redone with the outflow cap), "
            << schemeName(params.scheme) << ", " << precisionName(params.precision) << ", "
            << (params.fixedDt > 0 ? "fixed" : "adaptive") << " dt, launch "
            << simulation.launchShape().text() << ", on " << simulation.device().name << "\n"
            << "swe bench: " << b.bytesPerCell << " B/cell/step at least; device copy "
            << b.copy / 1e9 << " GB/s, so at most " << b.copy / b.bytesPerCell / 1e9
            << " Gcell/s; device memory "
            << static_cast<double>(simulation.deviceBytes()) /
                 (static_cast<double>(params.nx) * params.ny)
            << " B/cell (" << static_cast<double>(simulation.deviceBytes()) / (1 << 30)
            << " GiB); largest square grid that fits: " << largest << "^2\n";
}

// FRAME: the engine's share of a frame's output: h, hu, hv to the host, against 100 steps. As the
// plugin takes them (downloadState: the first call allocates its host memory, later frames
// reuse it), and field by field into ordinary memory (download), for comparison.
void measureFrame(Bench& b)
{
  Simulation& simulation = *b.simulation;
  auto start = Clock::now();
  simulation.downloadState();
  const double state = secondsSince(start);
  const std::size_t n = static_cast<std::size_t>(b.params.nx) * b.params.ny;
  std::vector<float> single(b.params.precision == Precision::Single ? n : 0);
  std::vector<double> dual(b.params.precision == Precision::Double ? n : 0);
  start = Clock::now();
  for (Field f : { Field::Depth, Field::MomentumX, Field::MomentumY })
    if (single.empty())
      simulation.download(f, dual.data());
    else
      simulation.download(f, single.data());
  const double fields = secondsSince(start), hundred = 100.0 * b.seconds / b.taken;
  std::printf("FRAME download_seconds=%.6f first_download_seconds=%.6f "
              "fields_download_seconds=%.6f steps100_seconds=%.6f download_fraction=%.4f\n",
    state,
    b.firstRead,
    fields,
    hundred,
    state / (state + hundred));
}

// FRAMES: frames of about 100 steps each, as the plugin takes them during Play, from one
// snapshot: advancing alone; advancing then downloading; and downloading while the next frame's
// steps run (downloadStateThenAdvance, what the plugin does on a GPU). The overheads are each
// loop's time beyond advancing alone.
void measureFrames(Bench& b)
{
  Simulation& simulation = *b.simulation;
  const Snapshot start = simulation.snapshot();
  const double interval = 100.0 * (b.params.fixedDt > 0 ? b.params.fixedDt : simulation.lastDt());
  const int frames = 5;
  enum class Frame
  {
    Alone,
    Download,
    DownloadAhead
  };
  const auto loop = [&](Frame frame)
  {
    simulation.restore(start);
    const auto begin = Clock::now();
    for (int k = 1; k <= frames; ++k)
    {
      simulation.advanceTo(start.time + k * interval);
      if (frame == Frame::Download)
        simulation.downloadState();
      else if (frame == Frame::DownloadAhead) // the last one too, as in Play: it overlaps 6
        simulation.downloadStateThenAdvance(start.time + (k + 1) * interval);
    }
    return secondsSince(begin) / frames;
  };
  loop(Frame::DownloadAhead); // warm-up: the device copy and second queue are made on first use
  const double alone = loop(Frame::Alone);
  const std::int64_t redone = simulation.redoneSteps();
  const double plain = loop(Frame::Download), ahead = loop(Frame::DownloadAhead);
  std::printf("FRAMES frame_seconds=%.6f download_frame_seconds=%.6f "
              "ahead_frame_seconds=%.6f download_overhead=%.4f ahead_overhead=%.4f "
              "steps_redone=%lld\n",
    alone,
    plain,
    ahead,
    1 - alone / plain,
    1 - alone / ahead,
    static_cast<long long>(redone));
}

// The seconds what() takes with the device's work it enqueues.
template<class What>
double timedOnDevice(Simulation& simulation, What&& what)
{
  const auto start = Clock::now();
  what();
  simulation.finish();
  return secondsSince(start);
}

// CHECKPOINT: a checkpoint as the timeline takes one during Play: into fresh host memory, into
// recycled host memory, and in device memory, fresh and recycled (what a GPU's timeline uses);
// then going back to each. The state is the same afterwards.
void measureCheckpoint(Bench& b)
{
  Simulation& simulation = *b.simulation;
  Snapshot host, device;
  const auto take = [&](Snapshot& s, SnapshotPlace place)
  { return timedOnDevice(simulation, [&] { simulation.snapshotInto(s, place); }); };
  const double hostFresh = take(host, SnapshotPlace::Host),
               hostRecycled = take(host, SnapshotPlace::Host),
               deviceFresh = take(device, SnapshotPlace::Device),
               deviceRecycled = take(device, SnapshotPlace::Device),
               restoreHost = timedOnDevice(simulation, [&] { simulation.restore(host); }),
               restoreDevice = timedOnDevice(simulation, [&] { simulation.restore(device); });
  std::printf("CHECKPOINT host_fresh_seconds=%.6f host_seconds=%.6f device_fresh_seconds=%.6f "
              "device_seconds=%.6f restore_host_seconds=%.6f restore_device_seconds=%.6f\n",
    hostFresh,
    hostRecycled,
    deviceFresh,
    deviceRecycled,
    restoreHost,
    restoreDevice);
  b.deviceSnapshotSeconds = deviceRecycled;
}

// RANGES: the state packed with the frame's bounds taken on the way (what a GPU's frame does in
// place of the packed copy, CHECKPOINT's device copy) and the bounds' read, the fastest of five
// (the kernel is in the program: nothing is built). Devices that take no bounds print nothing.
void measureRanges(Bench& b)
{
  Simulation& simulation = *b.simulation;
  double ranges = std::numeric_limits<double>::infinity();
  bool computed = true;
  for (int k = 0; k < 5; ++k)
    ranges = std::min(
      ranges, timedOnDevice(simulation, [&] { computed = simulation.frameRanges().has_value(); }));
  if (computed)
    std::printf("RANGES device_seconds=%.6f copy_seconds=%.6f\n", ranges, b.deviceSnapshotSeconds);
}

template<class Real>
double twinCellsPerSecond(const SimulationParameters& params, double budgetSeconds)
{
  ReferenceSolver<Real> twin(params, makeScenario(Scenario::DamBreak, params));
  twin.step(); // warm-up: touches every page
  int steps = 0;
  const auto start = Clock::now();
  double seconds = 0;
  while (steps < 3 || seconds < budgetSeconds)
  {
    twin.step();
    ++steps;
    seconds = secondsSince(start);
  }
  return static_cast<double>(params.nx) * params.ny * steps / seconds;
}

// BASELINE: the same scheme as a plain sequential C++ loop (the tests' twin, compiled -O3, one
// core), on the same grid and state, for about as long as the device ran (at least 3 steps).
void measureBaseline(const Bench& b)
{
  const double budget = std::max(b.seconds, 1.0);
  const double twinRate = b.params.precision == Precision::Double
                            ? twinCellsPerSecond<double>(b.params, budget)
                            : twinCellsPerSecond<float>(b.params, budget);
  std::printf(
    "BASELINE cpp_one_core_cells_per_second=%.6e speedup=%.2f\n", twinRate, b.rate / twinRate);
}

void printResult(const Bench& b)
{
  std::printf("RESULT cells_per_second=%.6e gbps=%.3f ceiling_fraction=%.4f seconds=%.6f\n",
    b.rate,
    b.achieved / 1e9,
    b.achieved / b.copy,
    b.seconds);
}

// Throws swe::Error naming a count or share out of its range (one below 0 was taken as none).
void checkBenchOptions(const BenchOptions& options)
{
  if (options.steps <= 0)
    throw Error("--steps must be > 0, got " + std::to_string(options.steps));
  if (options.sources < 0)
    throw Error("--sources must be >= 0, got " + std::to_string(options.sources));
  if (options.gauges < 0 || static_cast<std::size_t>(options.gauges) > kMaxGauges)
    throw Error("--gauges must be in [0, " + std::to_string(kMaxGauges) + "], got " +
                std::to_string(options.gauges));
  if (!(options.wetFraction >= 0 && options.wetFraction <= 1))
    throw Error("--wet-fraction must be in (0, 1] (0, the default: the scenario), got " +
                formatValue(options.wetFraction));
}

// Refuses up front a --baseline whose twin would not fit beside the device's run in the host
// memory this process can count on (it failed with std::bad_alloc after the device's steps): the
// twin holds 9 fields of the precision (and a field each for infiltration, the water balance
// and the 5 flood maps) while the dam break's initial state, 4 fields of fp64, is made.
void checkBaselineFits(const SimulationParameters& params)
{
  const std::uint64_t real = realBytes(params.precision);
  const std::uint64_t twinFields = 9 + (params.infiltration.on() ? 1 : 0) +
                                   (params.waterBalance ? 1 : 0) + (params.floodMaps ? 5 : 0);
  Simulation::check(params, false, { { "--baseline's one-core twin", twinFields * real + 32 } });
}

int bench(BenchOptions& options)
{
  checkBenchOptions(options);
  if (options.ranks < 1)
    throw Error("--ranks must be >= 1, got " + std::to_string(options.ranks));
  if (options.checkBits && options.ranks < 2)
    throw Error("--check-bits compares a split run with one rank: give --ranks 2 or more");
  if (options.members > 0)
  {
    if (options.baseline || options.ranks > 1 || options.drySpeedup)
      throw Error("--members times an ensemble against one grid: leave out --baseline, --ranks "
                  "and --dry-speedup");
    return benchEnsemble(
      options.common.resolve(), options.common.scenario, options.members, options.steps);
  }
  if (options.ranks > 1)
  {
    if (options.baseline)
      throw Error("--baseline times a run on one rank: leave it out with --ranks " +
                  std::to_string(options.ranks));
    return benchSplit(options.common.resolve(), options.ranks, options.steps, options.checkBits);
  }
  Bench b;
  b.params = options.common.resolve();
  if (!options.rainSeries.empty())
    b.params.rainSeries = readSeries(options.rainSeries);
  if (options.greenAmpt.size() == 3)
    b.params.infiltration = { options.greenAmpt[0], options.greenAmpt[1], options.greenAmpt[2] };
  // (1 m^3/s each, on a square lattice over the grid's lower half)
  const int lattice = static_cast<int>(std::ceil(std::sqrt(options.sources)));
  for (int k = 0; k < options.sources; ++k)
    b.params.sources.push_back({ (k % lattice + 0.5) * b.params.nx * b.params.dx / lattice,
      (k / lattice + 0.5) * 0.5 * b.params.ny * b.params.dx / lattice,
      { { 0, 1 }, { 1e6, 1 } } });
  for (int g = 0; g < options.gauges; ++g)
    b.params.gauges.push_back(
      { (g + 0.5) * b.params.nx * b.params.dx / options.gauges, 0.5 * b.params.ny * b.params.dx });
  b.params.validate();
  if (options.baseline)
    checkBaselineFits(b.params);
  if (options.drySpeedup)
  {
    if (!skipsDryLand(b.params))
      throw Error("--dry-speedup times skipping dry land, which needs a MUSCL scheme, no rain "
                  "and --skip-dry on");
    return benchSkipDry(b.params,
      benchInitialState(b.params, options.common.scenario, options.wetFraction),
      options.steps);
  }
  makeSimulation(b, options);
  measureFirstRead(b);
  measureWarmup(b, options.steps);
  measureSteps(b, options.steps);
  printSetupLine(b);
  measureCopyBandwidth(b);
  measureFrame(b);
  measureFrames(b);
  measureCheckpoint(b);
  measureRanges(b);
  if (options.baseline)
    measureBaseline(b);
  printResult(b);
  return 0;
}
} // namespace

Subcommand addBench(CLI::App& app)
{
  const auto options = std::make_shared<BenchOptions>();
  CLI::App* cmd = options->common.addSubcommand(app, "bench", "time the step loop");
  cmd->add_option("--steps", options->steps, "steps to time (after warm-up)")
    ->capture_default_str();
  options->common.addScalarOptions(
    cmd, { ScalarId::FixedTimeStep, ScalarId::Manning, ScalarId::Rainfall, ScalarId::LossRate });
  cmd->add_flag("--maps",
    options->common.params.floodMaps,
    "keep the flood maps at every step (MaxDepth, MaxSpeed, MaxHazard, ArrivalTime, Duration)");
  cmd->add_flag("--balance",
    options->common.params.waterBalance,
    "keep the water balance: the sides' water folded into the Inflow field at every step");
  cmd->add_option("--rain-series",
    options->rainSeries,
    "rain varying in time from a CSV file of (time [s], mm/h), as swe run takes it");
  cmd->add_option("--sources",
    options->sources,
    "this many point sources of 1 m^3/s, on a square lattice over the grid's lower half");
  cmd
    ->add_option("--green-ampt",
      options->greenAmpt,
      "Green-Ampt infiltration, K,PSI,DEFICIT (mm/h, mm, -), as swe run takes it")
    ->delimiter(',')
    ->expected(3);
  cmd->add_option("--gauges",
    options->gauges,
    "sample this many gauges after every step, spread along the grid's middle row");
  cmd->add_option("--scenario", options->common.scenario, "the initial state (as swe run's)")
    ->capture_default_str();
  cmd->add_option("--wet-fraction",
    options->wetFraction,
    "in place of the scenario: still water 1 m deep over this share of the grid along x, dry "
    "land beyond");
  cmd->add_option("--members",
    options->members,
    "time an ensemble of this many members of --nx x --ny (each its own Manning coefficient, "
    "flood maps kept) against one grid of their cells, --nx x (--ny x members): the ENSEMBLE "
    "line");
  cmd->add_flag("--dry-speedup",
    options->drySpeedup,
    "time the steps with skipping dry land off and on instead, twice each, and print the wet "
    "share, the share of tiles updated, the speed-up and whether the bits agree (DRY line)");
  cmd->add_flag("--baseline",
    options->baseline,
    "also time the scheme as a plain one-core C++ loop (the twin) and print the speed-up");
  cmd
    ->add_option("--ranks",
      options->ranks,
      "split the grid (--nx x --ny, the whole grid) among this many threads as ranks, each on "
      "its device (with --device auto, the next GPU), and time what the split costs against "
      "one block run alone (SPLIT lines)")
    ->capture_default_str();
  cmd->add_flag("--check-bits",
    options->checkBits,
    "with --ranks: then run the whole grid on one rank (rank 0's device) for the same steps and "
    "print whether the split run's depth and momenta are its bits (BITS line)");
  return { cmd, [options] { return bench(*options); } };
}
} // namespace swe::cli
