// swe tune: times every candidate launch shape, prints them fastest first, and (re)writes the
// cache entry that "--launch auto" reads.
#include "CommonOptions.h"
#include "Error.h"
#include "LaunchTuner.h"
#include "Simulation.h"
#include "Subcommands.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>

namespace swe::cli
{
namespace
{
struct TuneOptions
{
  CommonOptions common;
  int side = 0;
};

// side: from --side, if given (else the grid is --nx by --ny).
int tune(CommonOptions& options, std::optional<int> side)
{
  options.params.launch = "default";
  if (side && *side <= 0)
    throw Error("--side must be a positive number of cells, got " + std::to_string(*side));
  if (side)
    options.params.nx = options.params.ny = *side;
  const SimulationParameters params = options.resolve();
  const DeviceInfo device = Simulation::check(params);
  // Every candidate, however long it takes (a run's own tuning stops after a few seconds); on a
  // terminal, what runs.
  TuningLimits limits;
  if (isatty(STDERR_FILENO))
    limits.progress = [](double fraction, const std::string& text)
    { std::fprintf(stderr, "\r  %3.0f %%  %-60s", 100 * fraction, text.c_str()); };
  const LaunchTuning tuning = tuneLaunchShapes(params, device, limits);
  if (limits.progress)
    std::fprintf(stderr, "\n");
  for (const auto& t : tuning.timings)
    std::printf(
      "%-12s %8.3f Gcell/s (%d^2)\n", t.shape.text().c_str(), t.cellsPerSecond / 1e9, t.side);
  storeLaunchShape(params, device, tuning);
  std::printf("RESULT launch=%s grid=%d cache=%s\n",
    tuning.timings.front().shape.text().c_str(),
    tuningSide(params, device),
    launchCachePath().c_str());
  return 0;
}
} // namespace

Subcommand addTune(CLI::App& app)
{
  const auto options = std::make_shared<TuneOptions>();
  CLI::App* cmd = options->common.addSubcommand(
    app, "tune", "time the step kernel's launch shapes and cache the fastest for --launch auto");
  cmd->add_option("--side",
    options->side,
    "tune for square grids of this side (sets --nx and --ny; the trial runs on the size rounded "
    "to a power of two, 1024 to 8192, on GPUs, and on 512^2 on CPUs)");
  cmd->add_option("--dt",
    options->common.params.fixedDt,
    "tune for runs with a fixed time step (any value > 0: the trial picks its own)");
  return { cmd,
    [options, cmd]
    {
      return tune(
        options->common, cmd->count("--side") ? std::optional<int>(options->side) : std::nullopt);
    } };
}
} // namespace swe::cli
