// swe ensemble: one terrain run many times with parameters that vary (Manning's n, rain, inflow,
// the initial level), the members side by side on one device; at every output time a line of
// what the members say together and, in --out, the statistics of their flood maps.
#include "CommonOptions.h"
#include "Ensemble.h"
#include "EnsembleMembers.h"
#include "EnsembleOutput.h"
#include "Error.h"
#include "LaunchedRanks.h"
#include "MemberTableCsv.h"
#include "RankExchange.h"
#include "Report.h"
#include "RunInput.h"
#include "RunOptions.h"
#include "Simulation.h"
#include "Subcommands.h"
#include "Timing.h"
#ifdef SWE_WITH_VTK
#include "OutputFolder.h"
#endif

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace swe::cli
{
namespace
{
struct EnsembleOptions
{
  RunOptions run; // the base run every member varies
  int members = 0;
  std::vector<std::string> vary; // NAME=MIN:MAX
  std::string membersTable;      // a CSV of members
  std::uint64_t seed = 1;
  std::vector<int> memberFrames; // members (1-based) whose frames go to --out
  std::string crs;               // the --input's coordinate reference system, once read
};

// The members: from --members-table, or drawn from the --vary ranges.
MemberTable memberTable(const EnsembleOptions& options)
{
  if (!options.membersTable.empty())
  {
    if (!options.vary.empty() || options.members > 0)
      throw Error("--members-table " + options.membersTable +
                  " gives the members: leave out --members and --vary");
    return readMemberTable(options.membersTable);
  }
  if (options.vary.empty())
    throw Error("an ensemble needs its members: give --members N and --vary NAME=MIN:MAX (one "
                "--vary a parameter), or --members-table FILE");
  if (options.members < 1)
    throw Error("--vary draws members: give their number with --members N (at least 1)");
  std::vector<VariedRange> ranges;
  for (const std::string& text : options.vary)
    ranges.push_back(parseVariedRange(text));
  return latinHypercube(ranges, options.members, options.seed);
}

// Each member's run: the base run's parameters varied, on the base state, or on the --input
// terrain filled to the member's own level.
class MemberRuns
{
public:
  MemberRuns(const EnsembleOptions& options, SimulationParameters& params, const MemberTable& table)
    : options_(options)
    , table_(table)
  {
    if (table.varies(Varied::WaterLevel) && options.run.input.file.empty())
      throw Error("'level' varies the initial water level of an --input terrain, and this "
                  "ensemble runs the scenario " +
                  options.run.common.scenario + ": give --input, or vary something else");
    input_ = options.run.input;
    base_ = initialState(options.run.common, input_, params);
    placePoints(options.run, params);
    params_ = params;
    requireVariedActs(params_, base_, table_);
    if (table.varies(Varied::WaterLevel))
      requireLevelActs();
  }
  // Member m's run.
  MemberRun make(int member) const
  {
    MemberRun run{ memberParameters(params_, table_, member), {} };
    run.initial = table_.varies(Varied::WaterLevel)
                    ? stateAtLevel(table_.value(member, Varied::WaterLevel, 0))
                    : base_;
    applyMemberToState(run.initial, table_, member);
    return run;
  }
  const InitialState& base() const { return base_; }
  // The --input as read: its origin and coordinate reference system.
  const InputOptions& input() const { return input_; }

private:
  // The --input's initial state with the water at `level`.
  InitialState stateAtLevel(double level) const
  {
    InputOptions input = input_;
    input.waterLevel = level;
    SimulationParameters grid = params_;
    return initialState(options_.run.common, input, grid);
  }
  // A depth or surface array of the --input gives the initial water whatever the level: refused
  // where two levels a metre apart give the same depths.
  void requireLevelActs() const
  {
    const double level = table_.value(0, Varied::WaterLevel, 0);
    if (stateAtLevel(level + 1).h == stateAtLevel(level).h)
      throw Error("the members vary 'level', and the initial water of " + input_.file +
                  " comes from its depth or surface array whatever the level: give "
                  "--depth-array none --surface-array none");
  }

  const EnsembleOptions& options_;
  InputOptions input_;
  const MemberTable& table_;
  SimulationParameters params_;
  InitialState base_;
};

// What the members say together at an output time, in a line.
void reportStatistics(const Ensemble& ensemble, const EnsembleStatistics& s, double dx)
{
  const auto& probability = s.map(EnsembleMap::ProbabilityFlooded);
  const auto& mean = s.map(EnsembleMap::MaxDepthMean);
  long likely = 0, any = 0;
  for (float p : probability)
  {
    likely += p >= 0.5f ? 1 : 0;
    any += p > 0 ? 1 : 0;
  }
  float deepest = 0;
  for (float d : mean)
    deepest = std::isnan(d) ? deepest : std::max(deepest, d);
  std::fprintf(stderr,
    "  t = %10.4f s  %d of %d members running  flooded in half or more %.6g m^2, in any %.6g "
    "m^2  largest mean max depth %.4g m\n",
    s.time,
    ensemble.running(),
    ensemble.members(),
    likely * dx * dx,
    any * dx * dx,
    deepest);
}

// The members that stopped, and the RESULT line: the cells a second the members' steps made.
void reportEnd(const Ensemble& ensemble,
  double time,
  const SimulationParameters& params,
  double setup,
  double seconds)
{
  double cellSteps = 0, worstBalance = 0;
  for (int m = 0; m < ensemble.members(); ++m)
  {
    const MemberState& state = ensemble.state(m);
    if (state.failed)
      std::cerr << "swe: member " << m + 1 << " stopped at t = " << state.time
                << " s: " << state.failure << "\n";
    cellSteps += static_cast<double>(state.steps) * params.nx * params.ny;
    worstBalance = std::max(worstBalance, std::fabs(state.balance.relativeError()));
  }
  std::printf("RESULT members=%d running=%d t=%.17g cell_steps=%.6g setup_seconds=%.3f "
              "seconds=%.3f gcells_per_second=%.4g",
    ensemble.members(),
    ensemble.running(),
    time,
    cellSteps,
    setup,
    seconds,
    cellSteps / seconds * 1e-9);
  if (params.waterBalance)
    std::printf(" worst_balance_rel_error=%.3e", worstBalance);
  std::printf("\n");
}

// What the command line asks of the outputs beyond swe run's checks, before any member is made.
void checkEnsembleOptions(EnsembleOptions& options, const MemberTable& table)
{
  const RunOptions& base = options.run;
  if (!base.gauges.empty())
    throw Error("swe ensemble keeps no gauges: leave out --gauge (or run the member of interest "
                "with swe run)");
  std::vector<int>& frames = options.memberFrames;
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  if (!frames.empty() && base.outDir.empty())
    throw Error("--member-frames writes into --out: give a directory");
  for (int number : frames)
    if (number < 1 || number > table.members())
      throw Error("--member-frames " + std::to_string(number) + ": the ensemble has members 1 to " +
                  std::to_string(table.members()));
}

// The outputs after every advance: the statistics, the members kept, members.csv. Every rank
// takes part (a member's frames are its rank's to write; the rest is rank 0's), and a failure
// on one stops all.
void stepThroughOutputs(Ensemble& ensemble,
  EnsembleOutput& output,
  const EnsembleOptions& options,
  const MemberTable& table,
  const SimulationParameters& params,
  RankExchange* ranks)
{
  const RunOptions& base = options.run;
  const double interval = base.outputEvery > 0 ? base.outputEvery : base.tEnd;
  const long outputs = std::max(1L, static_cast<long>(std::ceil(base.tEnd / interval - 1e-9)));
  // (where the lines go to a terminal, the members' progress as they go, on one line)
  const bool terminal = isatty(STDERR_FILENO) && printsReports();
  for (long k = 0; k <= outputs && ensemble.running() > 0; ++k)
  {
    const double target = std::min(base.tEnd, k * interval);
    if (k > 0)
      ensemble.advanceTo(target,
        [&](int member, double t)
        {
          if (terminal)
            std::fprintf(stderr,
              "\r  member %d of %d at t = %10.4f / %g s   ",
              member + 1,
              ensemble.members(),
              t,
              target);
          return true;
        });
    if (terminal)
      std::fprintf(stderr, "\r%60s\r", "");
    const EnsembleStatistics statistics = ensemble.statistics();
    runAgreed(ranks,
      [&]
      {
        output.writeMemberFrames(ensemble);
        output.write(statistics);
        if (k > 0 && printsReports())
        {
          reportStatistics(ensemble, statistics, params.dx);
          output.writeMembers(ensemble, table, params.waterBalance);
        }
        if (k == outputs && base.geotiff)
          output.writeGeoTiffs(statistics, base.crs.empty() ? options.crs : base.crs);
      });
  }
}

// The members' values, outcomes and statistics at every output time, and the RESULT line; under
// mpirun the members are spread over the ranks (Ensemble.h), and rank 0 reports and writes.
int run(EnsembleOptions& options)
{
  RunOptions& base = options.run;
  SimulationParameters params = resolvedParameters(base);
  checkOutputOptions(base, params);
  const MemberTable table = memberTable(options);
  checkEnsembleOptions(options, table);
  RankExchange* ranks = launchedRanks();
  if (ranks)
    params.device = deviceSelectorForRank(params.device, nodeLocalRank());
#ifdef SWE_WITH_VTK
  std::unique_ptr<OutputFolder> folder;
  runAgreed(ranks,
    [&]
    {
      if (!base.outDir.empty() && printsReports())
        folder = std::make_unique<OutputFolder>(base.outDir, base.overwrite, false);
    });
#else
  if (!base.outDir.empty())
    throw Error("--out needs VTK, and this swe was built without ParaView/VTK");
#endif
  const auto start = Clock::now();
  const MemberRuns runs(options, params, table);
  options.crs = runs.input().crs;
  EnsembleOutput output(
    base.outDir, runs.input().origin, params.dx, runs.base().bed, printsReports());
  Ensemble ensemble(
    table.members(), [&](int m) { return runs.make(m); }, ranks);
  runAgreed(
    ranks, [&] { output.keepMemberFrames(options.memberFrames, ensemble, base.overwrite); });
  const double setup = secondsSince(start);
  if (printsReports())
    std::cerr << "swe: ensemble of " << ensemble.members() << " members, "
              << (base.input.file.empty() ? base.common.scenario : base.input.file) << ", "
              << schemeName(params.scheme) << ", " << params.nx << " x " << params.ny
              << " cells, dx = " << params.dx << " m, " << precisionName(params.precision)
              << " precision on " << ensemble.member(0)->device().name
              << (ranks ? " (rank 0's; the members spread over " + std::to_string(ranks->ranks()) +
                            " ranks)"
                        : std::string())
              << "\n";
  const auto stepping = Clock::now();
  stepThroughOutputs(ensemble, output, options, table, params, ranks);
  const double seconds = secondsSince(stepping);
  if (printsReports())
  {
    reportEnd(ensemble, ensemble.time(), params, setup, seconds);
    if (!base.outDir.empty())
      std::cerr << "swe: wrote " << output.seriesPath() << " and " << base.outDir
                << "/members.csv\n";
  }
  return ensemble.running() == ensemble.members() ? 0 : 3;
}
} // namespace

Subcommand addEnsemble(CLI::App& app)
{
  const auto options = std::make_shared<EnsembleOptions>();
  RunOptions& base = options->run;
  SimulationParameters& params = base.common.params;
  base.common.scheme = "muscl-hancock";
  CLI::App* cmd = base.common.addSubcommand(app,
    "ensemble",
    "run one terrain many times with parameters that vary, side by side on one device, and map "
    "how likely each cell is to flood");
  cmd->add_option("--members", options->members, "members to draw from the --vary ranges");
  cmd->add_option("--vary",
    options->vary,
    "NAME=MIN:MAX, a parameter the members vary, drawn by a Latin hypercube: manning (n), "
    "manning-factor, rain (a factor), inflow (a factor) or level (m, with --input); repeatable");
  cmd->add_option("--members-table",
    options->membersTable,
    "a CSV of the members instead: a header naming the parameters, a row a member");
  cmd->add_option("--seed", options->seed, "the Latin hypercube's seed")->capture_default_str();
  cmd->add_option("--member-frames",
    options->memberFrames,
    "members (numbered from 1) whose own frames go to --out as member_N/swe.pvd, as swe run "
    "writes them (repeatable)");
  cmd
    ->add_option("--scenario",
      base.common.scenario,
      "dambreak, radial-dambreak, lake-at-rest, immersed-bump, emerged-bump, ritter, stoker or "
      "valley-dambreak")
    ->capture_default_str();
  cmd->add_option("--dx", params.dx, "cell size [m]")->capture_default_str();
  cmd->add_option("--t-end", base.tEnd, "simulated time to reach [s]")->capture_default_str();
  cmd->add_option("--output-every", base.outputEvery, "statistics interval [s] (0: only the end)");
  addPhysicsOptions(cmd, base);
  base.common.addScalarOptions(
    cmd, { ScalarId::CourantNumber, ScalarId::FixedTimeStep, ScalarId::Gravity });
  cmd->add_option("--out",
    base.outDir,
    "directory for the statistics (ensemble.pvd and its .vti files) and members.csv");
  cmd->add_flag("--overwrite", base.overwrite, "remove another run's files from --out first");
  cmd->add_flag("--geotiff",
    base.geotiff,
    "also write the last statistics as GeoTIFF files in --out, placed like --input (with VTK)");
  cmd->add_option("--crs", base.crs, "the GeoTIFFs' coordinate reference system");
  addInputOptions(cmd, base.input);
  return { cmd, [options] { return run(*options); } };
}
} // namespace swe::cli
