// swe run: a scenario, or a terrain from a .vti file, to --t-end, with a line of diagnostics at
// every output time and, with VTK, the outputs as a .vti series.
#include "CommonOptions.h"
#include "Devices.h"
#include "Error.h"
#include "BalanceLog.h"
#include "GaugeOutput.h"
#ifdef SWE_WITH_VTK
#include "GeoTiffOutput.h"
#endif
#include "LaunchedRanks.h"
#include "StateDigest.h"
#include "Partition.h"
#include "Report.h"
#include "RunInput.h"
#include "RunOptions.h"
#include "SeriesCsv.h"
#include "Simulation.h"
#include "SinglePrecisionAdvice.h"
#include "Subcommands.h"
#include "Timing.h"
#ifdef SWE_WITH_VTK
#include "FrameImage.h"
#include "OutputFolder.h"
#include "OutputTimes.h"
#include "VtiSeriesWriter.h"
#endif

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace swe::cli
{
namespace
{
// The .vti series --out asks for: its arrays checked up front, its frames counted in the memory
// check, its files written as the run goes. Without VTK, --out and --arrays are refused.
class Series
{
public:
  // Names a flood map in --arrays: the run keeps them (params.floodMaps).
  Series(const RunOptions& options, SimulationParameters& params)
  {
#ifdef SWE_WITH_VTK
    selection_ = frameArraySelection(options.arrays);
    if (!options.arrays.empty())
      for (int k = 0; k < kKeptArrayCount; ++k)
        params.floodMaps =
          params.floodMaps || (isFloodMap(keptField(k)) && selection_(frameArray(keptField(k))));
    if (!options.outDir.empty())
      frames_.push_back({ "frames",
        frameArrayBytesPerCell(params.precision == Precision::Double ? 8 : 4,
          stateFields(params).size() - kStateFields) });
#else
    (void)params;
    if (!options.outDir.empty() || !options.arrays.empty() || options.overwrite)
      throw Error(
        "--out, --arrays and --overwrite need VTK, and this swe was built without ParaView/VTK");
#endif
  }
  // --out's folder, held for the run (OutputFolder); rank 0 holds it for every rank, and all
  // stop where it cannot.
  void holdFolder([[maybe_unused]] const RunOptions& options)
  {
#ifdef SWE_WITH_VTK
    runAgreed(launchedRanks(),
      [&]
      {
        if (!options.outDir.empty() && printsReports())
          folder_ = std::make_unique<OutputFolder>(
            options.outDir, options.overwrite, !options.restart.empty());
      });
#endif
  }
  const std::vector<HostShare>& frames() const
  {
    return frames_;
  }

  void open([[maybe_unused]] const RunOptions& options,
    [[maybe_unused]] const std::optional<Partition>& partition)
  {
#ifdef SWE_WITH_VTK
    partition_ = partition;
    if (!options.outDir.empty())
      writer_ = std::make_unique<VtiSeriesWriter>(options.outDir,
        "swe",
        options.input.origin,
        selection_,
        partition_ ? &*partition_ : nullptr,
        partition_ ? launchedRanks() : nullptr);
#endif
  }
  // The next file, while the device takes the steps to nextTime.
  void write([[maybe_unused]] Simulation& simulation, [[maybe_unused]] double nextTime)
  {
#ifdef SWE_WITH_VTK
    if (writer_)
      writer_->write(simulation, nextTime);
#endif
  }
  // A run restarted at `time` from frameFile: its files go on from the frame's number, after
  // the earlier ones before it.
  void continueAt([[maybe_unused]] double time, [[maybe_unused]] const std::string& frameFile)
  {
#ifdef SWE_WITH_VTK
    if (writer_)
      writer_->continueAt(time, frameFile);
#endif
  }
  // The balance a run keeps, in each frame's field data too.
  void keepBalance([[maybe_unused]] const BalanceLog& balance)
  {
#ifdef SWE_WITH_VTK
    if (writer_ && balance.on())
      writer_->keepBalance(balance.initialVolume(), balance.rainedCells());
#endif
  }
  void reportWritten() const
  {
#ifdef SWE_WITH_VTK
    if (writer_ && printsReports())
      std::cerr << "swe: wrote " << writer_->seriesPath() << "\n";
#endif
  }

private:
  std::vector<HostShare> frames_;
#ifdef SWE_WITH_VTK
  FrameArraySelection selection_;
  std::optional<Partition> partition_;
  std::unique_ptr<OutputFolder> folder_;
  std::unique_ptr<VtiSeriesWriter> writer_;
#endif
};

// The simulation of a run, and what making it took beyond the simulation's own setup.
struct Made
{
  std::unique_ptr<Simulation> simulation;
  std::optional<Partition> partition; // a run split among the launcher's ranks
  SetupSeconds setup;                 // with the memory check in device
  double stateSeconds;                // the initial state: built, and released
  RainedCells rainedCells;            // its InitialState::rainedCells
};

// The scenario's grid is checked before its initial state is built (an input's, once read), with
// the frames --out keeps: too large a grid is refused with the numbers.
Made makeSimulation(RunOptions& options, SimulationParameters& params, const Series& series)
{
  auto start = Clock::now();
  RankExchange* ranks = launchedRanks();
  if (options.input.file.empty() && !ranks)
    Simulation::check(params, false, series.frames());
  const double checkSeconds = secondsSince(start);
  // The initial state's host copy lives only while the simulation is made (the memory check
  // counts it only then).
  start = Clock::now();
  Made made;
  // (said once the state is checked: singlePrecisionSourceWarning, and nothingMoves on one rank)
  std::string precisionWarning;
  bool still = false;
  made.simulation = [&]
  {
    if (!ranks)
    {
      InitialState initial = initialState(options.common, options.input, params);
      placePoints(options, params);
      made.rainedCells = initial.rainedCells(params.rainZones.size());
      auto simulation = std::make_unique<Simulation>(params, initial);
      precisionWarning = singlePrecisionSourceWarning(params, initial);
      still = nothingMoves(initial, params);
      return simulation;
    }
    // Split among the launcher's ranks: each simulates its block on its node's next device, and
    // holds only its block of a scenario (an --input is read whole, then cut).
    const bool scenario = options.input.file.empty();
    InitialState initial =
      scenario ? InitialState() : initialState(options.common, options.input, params);
    placePoints(options, params);
    made.partition = splitGrid(params.nx, params.ny, ranks->ranks(), ranks->rank());
    const Block& block = made.partition->block();
    SimulationPlan plan;
    runAgreed(ranks,
      [&]
      {
        SimulationParameters rankParams = blockParameters(params, *made.partition);
        rankParams.device = deviceSelectorForRank(params.device, nodeLocalRank());
        initial = scenario ? makeScenario(scenarioFromName(options.common.scenario),
                               params,
                               block.x0,
                               block.y0,
                               block.nx,
                               block.ny)
                           : blockOf(initial, block);
        made.rainedCells = initial.rainedCells(params.rainZones.size());
        plan = Simulation::plan(rankParams, initial.perCellManning());
        splitAmongRanks(plan, *made.partition, *ranks);
      });
    auto simulation = std::make_unique<Simulation>(plan, initial);
    precisionWarning = singlePrecisionSourceWarning(params, initial, ranks);
    return simulation;
  }();
  // (a restart's state is another; a split run's warning is every rank's, said once)
  if (!precisionWarning.empty() && options.restart.empty() && (!ranks || ranks->rank() == 0))
    std::cerr << "swe: warning: " << precisionWarning << "\n";
  if (still && options.restart.empty())
    std::cerr << "swe: warning: the domain starts dry everywhere and no water enters it, so "
                 "nothing will move: give --water-level above the terrain, a --depth-array or "
                 "--surface-array, --rain, or an inflow or level --boundary\n";
  made.setup = made.simulation->setupSeconds();
  made.stateSeconds = secondsSince(start) - made.setup.total();
  made.setup.device += checkSeconds;
  return made;
}

// Continues from the state of --restart, which must lie before --t-end.
void restartFrom(const RunOptions& options, Simulation& simulation, const Made& made)
{
  if (made.partition)
    throw Error("--restart runs on one rank: run it without mpirun");
  std::string warning;
  const Snapshot state = restartSnapshot(options.restart, simulation, warning);
  if (!warning.empty())
    std::cerr << "swe: warning: " << warning << "\n";
  if (!(state.time < options.tEnd))
    throw Error("'" + options.restart + "' is at t = " + formatValue(state.time) +
                " s, not before --t-end " + formatValue(options.tEnd) +
                " s: give a later end time");
  simulation.restore(state);
}

// Steps to every output time, with a line of diagnostics at each (and the time as it goes on a
// terminal); output k is written while the device takes the steps to the next.
void stepThroughOutputs(Simulation& simulation,
  const RunOptions& options,
  Series& series,
  BalanceLog& balance)
{
  const double tEnd = options.tEnd;
  const bool terminal = isatty(STDERR_FILENO) && printsReports();
  const double interval = options.outputEvery > 0 ? options.outputEvery : tEnd;
  // (at least the end: an interval far beyond it gave none, and no step)
  const long outputs =
    interval > 0 ? std::max(1L, static_cast<long>(std::ceil(tEnd / interval - 1e-9))) : 0;
  const auto outputTime = [&](long k) { return std::min(tEnd, k * interval); };
  const auto write = [&](long k)
  { series.write(simulation, k < outputs ? outputTime(k + 1) : simulation.time()); };
  // (A restarted run writes its first state, then the output times after it.)
  long first = 1;
  while (first <= outputs && outputTime(first) <= simulation.time())
    ++first;
  write(first - 1);
  for (long k = first; k <= outputs; ++k)
  {
    simulation.advanceTo(outputTime(k),
      [&](double t)
      {
        if (terminal)
          std::fprintf(stderr,
            "\r  t = %10.4f / %g s  (%lld steps)   ",
            t,
            tEnd,
            static_cast<long long>(simulation.steps()));
        return true;
      });
    const Diagnostics d = simulation.diagnostics();
    if (printsReports())
      std::fprintf(stderr,
        "%s  t = %10.4f s  steps = %lld  mass = %.10g m^3  max depth = %.4g m  "
        "max speed = %.4g m/s\n",
        terminal ? "\r" : "",
        simulation.time(),
        static_cast<long long>(simulation.steps()),
        d.mass,
        d.maxDepth,
        d.maxSpeed);
    balance.record(simulation);
    write(k);
  }
}

// What the step loop did beyond the steps asked for, and where the series went.
// The flood maps in a line: the area the water reached (at the arrival depth) and the largest
// depth and speed anywhere.
// The flood maps' summary: the flooded area, the largest depth and speed; under mpirun over
// every rank's block (collective then).
std::string floodMapSummary(const Simulation& simulation, RankExchange* ranks)
{
  const SimulationParameters& p = simulation.parameters();
  std::vector<double> arrival(static_cast<std::size_t>(p.nx) * p.ny), depth(arrival.size()),
    speed(arrival.size());
  simulation.download(Field::ArrivalTime, arrival.data());
  simulation.download(Field::MaxDepth, depth.data());
  simulation.download(Field::MaxSpeed, speed.data());
  double flooded = static_cast<double>(
    std::count_if(arrival.begin(), arrival.end(), [](double t) { return !std::isnan(t); }));
  double largest[2] = { *std::max_element(depth.begin(), depth.end()),
    *std::max_element(speed.begin(), speed.end()) };
  if (ranks)
  {
    ranks->sumOverRanks(&flooded, 1);
    ranks->maxOverRanks(largest, 2);
  }
  std::ostringstream s;
  s << "swe: flood maps: " << flooded * p.dx * p.dx << " m^2 flooded (" << flooded << " cells at "
    << p.arrivalDepth << " m or deeper), largest depth " << largest[0] << " m, largest speed "
    << largest[1] << " m/s\n";
  return s.str();
}

void printNotes(Simulation& simulation,
  const SimulationParameters& params,
  const Series& series,
  const Made& made)
{
  const std::string maps =
    params.floodMaps ? floodMapSummary(simulation, made.partition ? launchedRanks() : nullptr)
                     : std::string();
  if (!printsReports())
    return;
  if (simulation.launchShape().steps == 2 && params.fixedDt <= 0)
    std::cerr
      << "swe: " << simulation.refusedLaunches()
      << " two-step launches refused (each cost two launches without a step; PERFORMANCE.md)\n";
  if (params.scheme == Scheme::MusclHancock)
    std::cerr << "swe: " << simulation.redoneSteps()
              << " steps taken again with the outflow cap (a depth went below zero without it)\n";
  series.reportWritten();
  std::cerr << maps;
  if (!params.gauges.empty())
    printGaugePeaks(simulation.gauges());
}

int run(RunOptions& options)
{
  SimulationParameters params = resolvedParameters(options);
  Series series(options, params);
  checkOutputOptions(options, params);
  series.holdFolder(options);
  const Made made = makeSimulation(options, params, series);
  if (options.geotiff && made.partition)
    throw Error("--geotiff runs on one rank: run it without mpirun");
  Simulation& simulation = *made.simulation;
  if (!options.restart.empty())
    restartFrom(options, simulation, made);
  const std::string what =
    options.input.file.empty() ? options.common.scenario : options.input.file;
  auto start = Clock::now();
  const double mass0 = simulation.diagnostics().mass;
  const double firstRead = secondsSince(start);
  if (printsReports())
    std::cerr << "swe: " << what << ", " << schemeName(params.scheme) << ", " << params.nx << " x "
              << params.ny << " cells, dx = " << params.dx << " m, "
              << precisionName(params.precision) << " precision on " << simulation.device().name
              << (made.partition ? ", split among " + std::to_string(made.partition->ranks()) +
                                     " ranks (rank 0's device)"
                                 : std::string())
              << "\n";
  series.open(options, made.partition);
  if (!options.restart.empty())
    series.continueAt(simulation.time(), options.restart);
  BalanceLog balance(params, options.outDir);
  balance.start(simulation, made.rainedCells, made.partition ? launchedRanks() : nullptr);
  series.keepBalance(balance);
  stepThroughOutputs(simulation, options, series, balance);
  // (As before the SETUP line: the simulation's construction, the first read and the outputs.)
  const double seconds = simulation.setupSeconds().total() + secondsSince(start);
  const auto lastStart = Clock::now();
  const double mass = simulation.diagnostics().mass;
  const double lastRead = secondsSince(lastStart);
  printNotes(simulation, params, series, made);
  // (Under mpirun every rank holds every gauge's record: rank 0 writes it.)
  if (!params.gauges.empty() && !options.outDir.empty() && printsReports())
    writeGaugeCsv(simulation.gauges(), options.outDir + "/gauges.csv");
#ifdef SWE_WITH_VTK
  if (options.geotiff)
    writeGeoTiffs(simulation,
      options.outDir,
      options.input.origin,
      options.crs.empty() ? options.input.crs : options.crs);
#endif
  std::array<std::uint64_t, 3> digest{};
  if (options.digest)
    digest = stateDigest(simulation,
      made.partition ? made.partition->block() : Block{ 0, 0, params.nx, params.ny },
      params.nx,
      made.partition ? launchedRanks() : nullptr);
  if (!printsReports())
    return 0;
  if (options.digest)
    std::printf("DIGEST h=%016llx hu=%016llx hv=%016llx\n",
      static_cast<unsigned long long>(digest[0]),
      static_cast<unsigned long long>(digest[1]),
      static_cast<unsigned long long>(digest[2]));
  printSetup(made.stateSeconds,
    made.setup,
    { { "first read", firstRead }, { "last read", lastRead } },
    std::to_string(simulation.steps()) + " steps",
    seconds - simulation.setupSeconds().total() - firstRead,
    "this run");
  // (With the balance, its error in place of the mass's drift, which counts what the sides let
  // in or out.)
  std::printf("RESULT steps=%lld t=%.17g mass=%.17g %s=%.3e seconds=%.3f\n",
    static_cast<long long>(simulation.steps()),
    simulation.time(),
    mass,
    balance.on() ? "balance_rel_error" : "mass_rel_drift",
    balance.on() ? balance.relativeError()
                 : (mass0 > 0 ? std::fabs(mass - mass0) / mass0 : (mass > 0 ? INFINITY : 0.0)),
    seconds);
  return 0;
}

} // namespace

Subcommand addRun(CLI::App& app)
{
  const auto options = std::make_shared<RunOptions>();
  SimulationParameters& params = options->common.params;
  CLI::App* cmd =
    options->common.addSubcommand(app, "run", "run a scenario, or a terrain from a .vti file");
  cmd
    ->add_option("--scenario",
      options->common.scenario,
      "dambreak, radial-dambreak, lake-at-rest, immersed-bump, emerged-bump, ritter, stoker or "
      "valley-dambreak")
    ->capture_default_str();
  cmd->add_option("--dx", params.dx, "cell size [m]")->capture_default_str();
  cmd->add_option("--t-end", options->tEnd, "simulated time to reach [s]")->capture_default_str();
  cmd->add_option("--output-every", options->outputEvery, "output interval [s] (0: only the end)");
  addPhysicsOptions(cmd, *options);
  options->common.addScalarOptions(
    cmd, { ScalarId::CourantNumber, ScalarId::FixedTimeStep, ScalarId::Gravity });
  addOutputOptions(cmd, *options);
  addInputOptions(cmd, options->input);
  cmd->add_option("--restart",
    options->restart,
    "continue from a .vti frame an earlier run wrote (swe run --out, or the plugin's output "
    "saved whole), on the same grid, terrain, parameters and precision: bit for bit as if the "
    "run had never stopped");
  // With --input, the Shallow Water Solver's scheme unless one is named: a terrain has dry
  // land, which Lax-Friedrichs refuses.
  CLI::Option* scheme = cmd->get_option("--scheme");
  scheme->description("lax-friedrichs (a scenario's default), muscl-hllc or muscl-hancock (the "
                      "default with --input, as the Shallow Water Solver)");
  return { cmd,
    [options, scheme]
    {
      if (!options->input.file.empty() && scheme->count() == 0)
        options->common.scheme = "muscl-hancock";
      return run(*options);
    } };
}
} // namespace swe::cli
