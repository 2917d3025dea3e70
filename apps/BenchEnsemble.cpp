#include "BenchEnsemble.h"

#include "BenchSplit.h"
#include "Ensemble.h"
#include "Error.h"
#include "Simulation.h"
#include "Timing.h"

#include <cstdio>

namespace swe::cli
{
namespace
{
// Member m's run: the base's, with a Manning coefficient of its own (0.02 to 0.03).
MemberRun memberRun(const SimulationParameters& params, const std::string& scenario, int m, int n)
{
  MemberRun run{ params, {} };
  run.params.manning = 0.02 + 0.01 * m / n;
  run.initial = makeScenario(scenarioFromName(scenario), run.params);
  return run;
}

// The simulated times a member reaches after the warm-up and after `steps` steps more.
std::pair<double, double> memberTimes(const MemberRun& run, int steps)
{
  Simulation probe(run.params, run.initial);
  probe.step(warmupSteps(steps));
  const double warm = probe.time();
  probe.step(steps);
  return { warm, probe.time() };
}

// The same cells as one grid, nx x (ny x members), `steps` steps timed after the warm-up [cells/s].
double oneGridRate(SimulationParameters params, const std::string& scenario, int members, int steps)
{
  params.ny *= members;
  params.manning = 0.025;
  const InitialState initial = makeScenario(scenarioFromName(scenario), params);
  Simulation simulation(params, initial);
  return timedStepRate(simulation, steps);
}
} // namespace

int benchEnsemble(SimulationParameters params, const std::string& scenario, int members, int steps)
{
  if (members < 2)
    throw Error("--members times an ensemble against one grid: give 2 or more, got " +
                std::to_string(members));
  params.floodMaps = true; // (as every member keeps them)
  const auto make = [&](int m) { return memberRun(params, scenario, m, members); };
  const auto [warm, end] = memberTimes(make(0), steps);
  double ensembleRate = 0;
  {
    Ensemble ensemble(members, make);
    ensemble.advanceTo(warm);
    std::int64_t before = 0;
    for (int m = 0; m < members; ++m)
      before += ensemble.state(m).steps;
    const auto start = Clock::now();
    ensemble.advanceTo(end);
    const double seconds = secondsSince(start);
    std::int64_t after = 0;
    for (int m = 0; m < members; ++m)
      after += ensemble.state(m).steps;
    if (ensemble.running() != members)
      throw Error("a member of the benchmark's ensemble stopped: " + ensemble.state(0).failure);
    ensembleRate =
      static_cast<double>(params.nx) * params.ny * static_cast<double>(after - before) / seconds;
  }
  const double oneRate = oneGridRate(params, scenario, members, steps);
  std::printf("ENSEMBLE members=%d member=%dx%d ensemble_cells_per_second=%.6e "
              "one_grid=%dx%d one_grid_cells_per_second=%.6e ratio=%.3f\n",
    members,
    params.nx,
    params.ny,
    ensembleRate,
    params.nx,
    params.ny * members,
    oneRate,
    ensembleRate / oneRate);
  return 0;
}
} // namespace swe::cli
