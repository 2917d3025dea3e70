#include "BenchDry.h"

#include "BenchSplit.h"
#include "Error.h"
#include "Simulation.h"
#include "Timing.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace swe::cli
{
namespace
{
// One timed run: its rate over the whole grid [cells/s], and what it ended with.
struct DryRun
{
  double rate = 0, wetShare = 0, updatedShare = 0;
  std::vector<unsigned char> state; // h, hu, hv as the device holds them
};

DryRun timeRun(const SimulationParameters& params, const InitialState& initial, int steps)
{
  Simulation simulation(params, initial);
  DryRun run;
  run.rate = timedStepRate(simulation, steps);
  run.updatedShare = simulation.updatedTileShare();
  const StateView view = simulation.downloadState();
  const std::size_t cells = static_cast<std::size_t>(view.nx) * view.ny;
  run.state.assign(view.data, view.data + kStateFields * cells * view.realSize);
  // (the depths lead the state, as the device holds them)
  const auto wet = [&](auto zero)
  {
    const auto* h = reinterpret_cast<const decltype(zero)*>(view.data);
    return std::count_if(h, h + cells, [](auto depth) { return depth > 0; });
  };
  const auto wetCells = view.realSize == sizeof(double) ? wet(0.0) : wet(0.0f);
  run.wetShare = static_cast<double>(wetCells) / static_cast<double>(cells);
  return run;
}
} // namespace

InitialState benchInitialState(const SimulationParameters& params,
  const std::string& scenario,
  double wetFraction)
{
  if (wetFraction <= 0)
    return makeScenario(scenarioFromName(scenario), params);
  if (!(wetFraction <= 1))
    throw Error("--wet-fraction must be in (0, 1], got " + formatValue(wetFraction));
  InitialState initial(params.nx, params.ny);
  const int wetColumns = static_cast<int>(wetFraction * params.nx + 0.5);
  for (int j = 0; j < params.ny; ++j)
    for (int i = 0; i < wetColumns; ++i)
      initial.h[initial.index(i, j)] = 1.0;
  return initial;
}

int benchSkipDry(SimulationParameters params, const InitialState& initial, int steps)
{
  DryRun off, on;
  double offRate = 0, onRate = 0;
  for (int round = 0; round < 2; ++round)
  {
    params.skipDry = false;
    off = timeRun(params, initial, steps);
    params.skipDry = true;
    on = timeRun(params, initial, steps);
    offRate = std::max(offRate, off.rate);
    onRate = std::max(onRate, on.rate);
  }
  const bool same = off.state == on.state;
  std::printf("DRY wet_share=%.4f updated_tile_share=%.4f off_cells_per_second=%.6e "
              "on_cells_per_second=%.6e speedup=%.3f same_bits=%s\n",
    on.wetShare,
    on.updatedShare,
    offRate,
    onRate,
    onRate / offRate,
    same ? "yes" : "no");
  return same ? 0 : 1;
}
} // namespace swe::cli
