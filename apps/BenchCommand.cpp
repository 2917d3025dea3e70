// swe bench: times the step loop on the dam break and what a run and the plugin's frames cost
// around it. Each measurement below is a function of its own, run in the order of bench(), each
// printing its line (PERFORMANCE.md reads them). With --ranks, what splitting the grid among
// ranks costs instead (SPLIT lines).
#include "CommonOptions.h"
#include "Devices.h"
#include "Error.h"
#include "InitialState.h"
#include "LaunchTuner.h"
#include "Partition.h"
#include "ReferenceSolver.h"
#include "Report.h"
#include "RunInput.h"
#include "Simulation.h"
#include "Subcommands.h"
#include "ThreadRanks.h"
#include "Timing.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
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

// SETUP's state: the dam break keeps the state physical for the whole benchmark. (Its host copy
// only lives while the simulation is made.)
void makeSimulation(Bench& b)
{
  b.simulation = [&]
  {
    const auto start = Clock::now();
    const InitialState initial = makeScenario(Scenario::DamBreak, b.params);
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

// The steps before the timed ones: first launches (PoCL compiles each kernel for its work-group
// size then; GPU drivers load the code).
int warmupSteps(int steps)
{
  return std::max(1, std::min(steps / 10, 50));
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
            << " Gcell/s; largest square grid that fits: " << largest << "^2\n";
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

// SPLIT: one rank's timed steps, and its share of them spent coupling it to the other ranks.
struct RankTiming
{
  double seconds = 0;     // the timed steps, wall-clock
  std::int64_t taken = 0; // the timed steps taken
  SplitSeconds split;     // during those steps
  std::string device;
  std::uint64_t digest = 0; // of the rank's block after the timed steps (--check-bits)
};

// An order-free digest of a block's depth and momenta: each cell's bits hashed with its place
// in the whole grid, the hashes summed (mod 2^64), so that the blocks' digests of a split run
// add up to the digest of the same state held whole.
std::uint64_t stateDigest(const Simulation& simulation, const Block& block)
{
  const auto mix = [](std::uint64_t z) { // (splitmix64's finalizer)
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  std::vector<double> values(static_cast<std::size_t>(block.nx) * block.ny);
  std::uint64_t sum = 0;
  const Field fields[] = { Field::Depth, Field::MomentumX, Field::MomentumY };
  for (std::uint64_t f = 0; f < 3; ++f)
  {
    simulation.download(fields[f], values.data());
    for (int j = 0; j < block.ny; ++j)
      for (int i = 0; i < block.nx; ++i)
      {
        const double v = values[static_cast<std::size_t>(j) * block.nx + i];
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        const std::uint64_t place = (static_cast<std::uint64_t>(block.y0 + j) << 32 |
                                      static_cast<std::uint64_t>(block.x0 + i)) *
                                      3 +
                                    f;
        sum += mix(mix(place) ^ bits);
      }
  }
  return sum;
}

// A rank's warm-up, then its timed steps. exchange: the other ranks (null: a run alone), met
// before and after the timed steps, so that every rank times the same interval (the slowest
// rank's).
RankTiming timeRank(Simulation& simulation, RankExchange* exchange, int steps)
{
  const auto barrier = [&]
  {
    double none = 0;
    if (exchange)
      exchange->maxOverRanks(&none, 1);
  };
  simulation.step(warmupSteps(steps));
  barrier();
  const SplitSeconds before = simulation.splitSeconds();
  const std::int64_t stepsBefore = simulation.steps();
  const auto start = Clock::now();
  simulation.step(steps);
  barrier();
  RankTiming t;
  t.seconds = secondsSince(start);
  t.taken = simulation.steps() - stepsBefore;
  const SplitSeconds after = simulation.splitSeconds();
  t.split = { after.halo - before.halo,
    after.agree - before.agree,
    after.halos - before.halos,
    after.agreements - before.agreements,
    after.wait - before.wait };
  t.device = simulation.device().name;
  return t;
}

// The plan of rank's block run alone: rank's device (with --device auto, the rank's turn among
// the GPUs, as under mpirun) and the launch shape the block's size resolves to.
SimulationPlan blockPlan(const SimulationParameters& params, int ranks, int rank)
{
  SimulationParameters p = params;
  p.device = deviceSelectorForRank(params.device, rank);
  const Block b = splitGrid(params.nx, params.ny, ranks, rank).block();
  p.nx = b.nx;
  p.ny = b.ny;
  return Simulation::plan(p);
}

// The plan of rank in the split run: its block alone's device and launch shape (so that the
// baseline and the split run time the same kernels), over the whole grid for splitAmongRanks.
// Made before the threads start, so that no two ranks tune one device at once.
SimulationPlan rankPlan(const SimulationParameters& params, int ranks, int rank)
{
  const SimulationPlan alone = blockPlan(params, ranks, rank);
  SimulationParameters p = params;
  p.device = alone.params.device;
  p.launch = alone.shape.text();
  return Simulation::plan(p);
}

// The split run, each rank a thread with its own simulation timed by timeRank: the timings by
// rank. An error on any rank reaches the caller (the lowest rank's, once every thread ended).
std::vector<RankTiming> timeSplitRun(const std::vector<SimulationPlan>& plans,
  const InitialState& whole,
  int steps,
  bool checkBits)
{
  const int ranks = static_cast<int>(plans.size());
  std::vector<RankTiming> timings(plans.size());
  runOnThreads(ranks,
    [&](ThreadRankExchange& exchange)
    {
      const int r = exchange.rank();
      const Partition partition = splitGrid(whole.nx, whole.ny, ranks, r);
      SimulationPlan plan = plans[static_cast<std::size_t>(r)];
      splitAmongRanks(plan, partition, exchange);
      Simulation simulation(plan, blockOf(whole, partition.block()));
      RankTiming& t = timings[static_cast<std::size_t>(r)];
      t = timeRank(simulation, &exchange, steps);
      if (checkBits)
        t.digest = stateDigest(simulation, partition.block());
    });
  return timings;
}

// --check-bits: the whole grid on one rank (rank 0's device and launch shape, one step a launch
// as a split run takes them: two a launch choose their adaptive dt in pairs), the same steps as
// the split run; BITS says whether the split run's state is this one's, bit for bit.
void checkSplitBits(const SimulationPlan& rankZero,
  const InitialState& whole,
  int steps,
  const std::vector<RankTiming>& split)
{
  SimulationParameters params = rankZero.params;
  LaunchShape shape = rankZero.shape;
  shape.steps = 1;
  params.launch = shape.text();
  Simulation simulation(Simulation::plan(params), whole);
  simulation.step(warmupSteps(steps));
  simulation.step(steps);
  const std::uint64_t digest = stateDigest(simulation, Block{ 0, 0, whole.nx, whole.ny });
  std::uint64_t splitDigest = 0;
  for (const RankTiming& t : split)
    splitDigest += t.digest;
  const std::int64_t splitSteps = split.front().taken + warmupSteps(steps);
  std::printf("BITS ranks=%zu steps=%lld one_rank_steps=%lld identical=%s\n",
    split.size(),
    static_cast<long long>(splitSteps),
    static_cast<long long>(simulation.steps()),
    digest == splitDigest && splitSteps == simulation.steps() ? "yes" : "no");
}

// cells: the cells every step updates (the whole grid's, in a split run); the rest, rank 0's.
// exchange_fraction counts the waits for the steps' kernels inside the exchanges (wait_seconds):
// a host-driven exchange keeps the host waiting on the device for most of a step, so the
// exchange's own share is (halo + agree - wait) / step seconds, and the split's whole cost shows
// in step_seconds against the one-rank line's.
void printSplitLine(int ranks, const Block& block, double cells, const RankTiming& t)
{
  const double exchange = t.split.halo + t.split.agree;
  std::printf("SPLIT ranks=%d block=%dx%d steps=%lld cells_per_second=%.6e halo_seconds=%.6f "
              "agree_seconds=%.6f step_seconds=%.6f exchange_fraction=%.4f wait_seconds=%.6f\n",
    ranks,
    block.nx,
    block.ny,
    static_cast<long long>(t.taken),
    cells * static_cast<double>(t.taken) / t.seconds,
    t.split.halo,
    t.split.agree,
    t.seconds,
    exchange / t.seconds,
    t.split.wait);
}

// The grid split among --ranks threads of this process as ranks, each with its simulation, its
// queue and its device: the one-rank run of rank 0's block first (the baseline, the same kernels
// on the same device), then the split run. Both take --steps steps after a warm-up.
int benchSplit(const BenchOptions& options, const SimulationParameters& params)
{
  const int ranks = options.ranks;
  if (options.baseline)
    throw Error(
      "--baseline times a run on one rank: leave it out with --ranks " + std::to_string(ranks));
  const Block block = splitGrid(params.nx, params.ny, ranks, 0).block();
  const InitialState whole = makeScenario(Scenario::DamBreak, params);
  RankTiming alone;
  {
    Simulation simulation(blockPlan(params, ranks, 0), blockOf(whole, block));
    alone = timeRank(simulation, nullptr, options.steps);
  }
  std::vector<SimulationPlan> plans;
  for (int r = 0; r < ranks; ++r)
    plans.push_back(rankPlan(params, ranks, r));
  const std::vector<RankTiming> split =
    timeSplitRun(plans, whole, options.steps, options.checkBits);
  const RankTiming& first = split.front();
  std::cerr << "swe bench: " << params.nx << " x " << params.ny << " split among " << ranks
            << " threads as ranks (rank 0's block " << block.nx << " x " << block.ny << "), "
            << schemeName(params.scheme) << ", " << precisionName(params.precision)
            << "; rank 0: " << first.split.halos << " halo exchanges, " << first.split.agreements
            << " agreements in " << first.taken << " steps; devices:";
  for (int r = 0; r < ranks; ++r)
    std::cerr << (r ? ", " : " ") << r << ": " << split[static_cast<std::size_t>(r)].device;
  std::cerr << "\n";
  printSplitLine(1, block, static_cast<double>(block.nx) * block.ny, alone);
  printSplitLine(ranks, block, static_cast<double>(params.nx) * params.ny, first);
  if (options.checkBits)
    checkSplitBits(plans.front(), whole, options.steps, split);
  return 0;
}

int bench(BenchOptions& options)
{
  if (options.steps <= 0)
    throw Error("--steps must be > 0, got " + std::to_string(options.steps));
  if (options.ranks < 1)
    throw Error("--ranks must be >= 1, got " + std::to_string(options.ranks));
  if (options.checkBits && options.ranks < 2)
    throw Error("--check-bits compares a split run with one rank: give --ranks 2 or more");
  if (options.ranks > 1)
    return benchSplit(options, options.common.resolve());
  Bench b;
  b.params = options.common.resolve();
  if (!options.rainSeries.empty())
    b.params.rainSeries = readSeries(options.rainSeries);
  if (options.greenAmpt.size() == 3)
    b.params.infiltration = { options.greenAmpt[0], options.greenAmpt[1], options.greenAmpt[2] };
  for (int k = 0; k < options.sources; ++k) // (1 m^3/s each, along the grid's lower quarter row)
    b.params.sources.push_back({ (k + 0.5) * b.params.nx * b.params.dx / options.sources,
      0.25 * b.params.ny * b.params.dx,
      { { 0, 1 }, { 1e6, 1 } } });
  for (int g = 0; g < options.gauges; ++g)
    b.params.gauges.push_back(
      { (g + 0.5) * b.params.nx * b.params.dx / options.gauges, 0.5 * b.params.ny * b.params.dx });
  b.params.validate();
  makeSimulation(b);
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
  cmd->add_option(
    "--dt", options->common.params.fixedDt, "fixed time step [s] (default: adaptive)");
  cmd
    ->add_option("--manning",
      options->common.params.manning,
      "Manning coefficient n (default 0: frictionless, as the thesis's dam break)")
    ->capture_default_str();
  cmd->add_option("--rain", options->common.params.rainfall, "rain on every cell [mm/h]");
  cmd->add_option(
    "--losses", options->common.params.losses, "loss rate from every wet cell [mm/h]");
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
    "this many point sources of 1 m^3/s, spread along the grid's lower quarter row");
  cmd
    ->add_option("--green-ampt",
      options->greenAmpt,
      "Green-Ampt infiltration, K,PSI,DEFICIT (mm/h, mm, -), as swe run takes it")
    ->delimiter(',')
    ->expected(3);
  cmd->add_option("--gauges",
    options->gauges,
    "sample this many gauges after every step, spread along the grid's middle row");
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
