#include "LaunchTuner.h"

#include "AtomicFile.h"
#include "CacheWarnings.h"
#include "Error.h"
#include "InitialState.h"
#include "Simulation.h"
#include "Seconds.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace swe
{
namespace
{
// CPU devices' one trial grid, and the largest GPU grid every candidate runs on.
constexpr int kCpuTrialSide = 512;
constexpr int kGpuFullTrialSide = 4096;
// Marks a cache line from a search cut short at its time limit: "partial TRIED/ALL".
constexpr const char* kPartialMark = "partial ";
} // namespace

int tuningSide(const SimulationParameters& params, const DeviceInfo& device)
{
  // On GPUs the ranking depends on the grid: a shape that ranks first on one size can lose on
  // another (see PERFORMANCE.md, 'Decisions that stand'). So the trial runs on the run's own size,
  // rounded to a power of two from 1024 (a test's 64^2 would time launch overhead only) to 8192.
  // CPU caches are far smaller than the state at any such size; their trial is 512^2, for every
  // grid.
  int side = kCpuTrialSide;
  if (device.type != "CPU")
  {
    const double cells = static_cast<double>(params.nx) * static_cast<double>(params.ny);
    const long power = std::lround(std::log2(std::max(cells, 1.0)) / 2);
    side = 1 << std::clamp<long>(power, 10, 13);
  }
  const std::uint64_t room = Simulation::largestSquareGrid(params.precision, device) / 2;
  return static_cast<int>(std::max<std::uint64_t>(16, std::min<std::uint64_t>(side, room)));
}

namespace
{
std::string cacheKey(const SimulationParameters& params, const DeviceInfo& device)
{
  // Tabs separate the fields of a line, so names must not contain them.
  std::string key = device.platform + "|" + device.name + "|" + schemeName(params.scheme) + "|" +
                    precisionName(params.precision);
  // Lax-Friedrichs names its dt mode: the modes rank the two-step shapes differently. (Lines
  // from before two-step shapes served the adaptive dt had no mode: they are tuned again.)
  if (params.scheme == Scheme::LaxFriedrichs)
    key += params.fixedDt > 0 ? "|fixed-dt" : "|adaptive-dt";
  // The trial grid. (Lines from before size classes had none: they are tuned again.)
  key += "|grid " + std::to_string(tuningSide(params, device));
  std::replace(key.begin(), key.end(), '\t', ' ');
  return key;
}

std::map<std::string, std::string> readCache(const std::string& path)
{
  std::map<std::string, std::string> entries;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
  {
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos)
      entries[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return entries;
}

// Writes the cache whole (concurrent tuners never mix lines); on failure returns the reason,
// else "".
std::string writeCache(const std::string& path, const std::map<std::string, std::string>& entries)
{
  makeParentDirectories(path);
  std::string text = "# swe launch shapes: platform|device|scheme|precision[|dt mode]|grid side"
                     "<TAB>shape<TAB>Gcell/s measured[<TAB>partial TRIED/ALL: a search cut short "
                     "at its time limit, which swe tune completes]\n";
  for (const auto& entry : entries)
    text += entry.first + '\t' + entry.second + '\n';
  const int error = writeFileAtomicallyOrErrno(path, text);
  return error != 0 ? writeFailureCause(error) : "";
}

double measure(const SimulationParameters& params, const InitialState& initial)
{
  Simulation simulation(params, initial);
  simulation.step(2); // warm-up
  // Enough steps for about 20 ms, best of three.
  auto start = std::chrono::steady_clock::now();
  simulation.step(2);
  const double perStep = std::max(secondsSince(start) / 2, 1e-7);
  const int steps = std::max(1, std::min(200, static_cast<int>(0.02 / perStep)));
  // (Steps counted as taken: a refused two-step launch takes none.)
  double best = 0;
  for (int repeat = 0; repeat < 3; ++repeat)
  {
    const std::int64_t before = simulation.steps();
    start = std::chrono::steady_clock::now();
    simulation.enqueueSteps(steps);
    simulation.finish();
    const double seconds = std::max(secondsSince(start), 1e-9);
    best = std::max(best, static_cast<double>(simulation.steps() - before) / seconds);
  }
  return static_cast<double>(params.nx) * params.ny * best;
}
} // namespace

std::string launchCachePath()
{
  if (const char* path = std::getenv("SWE_LAUNCH_CACHE"))
    return path;
  return cacheDirectory() + "/launch-shapes.txt";
}

namespace
{
// One tuning's candidates, in turn, within its limits.
class Tuner
{
public:
  Tuner(const DeviceInfo& device, const TuningLimits& limits)
    : device_(device)
    , limits_(limits)
  {
    start_ = now();
    last_ = start_;
  }

  // Every shape's timing on a square grid of the given side (those the device cannot run left
  // out; an error when none runs and none ran before), fastest first: all of them, or those
  // before the limits stopped the search (then stopped() is true).
  std::vector<LaunchTiming> timeOnGrid(const SimulationParameters& params,
    const std::vector<LaunchShape>& shapes,
    int side)
  {
    SimulationParameters trial = params;
    trial.nx = trial.ny = std::max(side, 16);
    // A rank's block is tuned as a whole grid of the trial's size: kept as a block, the sides
    // its neighbours fill would stay empty (Lax-Friedrichs blew up against them).
    trial.makeWhole();
    const double cells = static_cast<double>(trial.nx) * trial.ny;
    if (stopsBefore(cells)) // (before the trial's initial state is made)
    {
      stopped_ = true;
      return {};
    }
    trial.boundaries[0] = trial.boundaries[1] = trial.boundaries[2] = trial.boundaries[3] =
      Boundary{};
    // The trial's dam break has no arrays of the run's (rain factors or zones, a soil map) and
    // is not its grid (points lie elsewhere): the step's launch alone is timed.
    trial.rainPerCell = false;
    trial.rainZones.clear();
    if (trial.infiltration.perCell)
      trial.infiltration = GreenAmpt{};
    trial.gauges.clear();
    trial.sources.clear();
    const InitialState initial = makeScenario(Scenario::DamBreak, trial); // once for all shapes
    // The run's fixed dt may not suit the trial: one that does, Courant number 0.4 against the
    // fastest dam-break wave (the front, at twice the deepest water's wave speed).
    if (trial.fixedDt > 0)
      trial.fixedDt =
        0.4 * trial.dx /
        (2 * std::sqrt(trial.gravity * *std::max_element(initial.h.begin(), initial.h.end())));
    std::vector<LaunchTiming> timings;
    for (const LaunchShape& shape : shapes)
    {
      if (stopsBefore(cells))
      {
        stopped_ = true;
        break;
      }
      tell(shape.text());
      trial.launch = shape.text();
      try
      {
        timings.push_back({ shape, measure(trial, initial), trial.nx });
        ++worked_;
      }
      catch (const Error& e)
      {
        // A shape this device or driver cannot run (resources, a compiler limit) is not a
        // candidate; the run fails only if none works.
        if (firstError_.empty())
          firstError_ = "launch shape " + shape.text() + ": " + e.what();
      }
      ++tried_;
      const double t = now();
      secondsPerCell_ = std::max(secondsPerCell_, (t - last_) / cells);
      last_ = t;
    }
    if (worked_ == 0)
      throw Error("no launch shape runs on '" + device_.name + "': " + firstError_);
    std::stable_sort(timings.begin(),
      timings.end(),
      [](const LaunchTiming& a, const LaunchTiming& b)
      { return a.cellsPerSecond > b.cellsPerSecond; });
    return timings;
  }

  bool stopped() const { return stopped_; }
  int tried() const { return tried_; }
  int planned() const { return planned_; }
  void plan(int planned) { planned_ = planned; }

  // The last word to progress: the shape picked.
  void finish(const LaunchTiming& best)
  {
    if (limits_.progress)
      limits_.progress(1.0,
        "Tuned the kernel launch: " + best.shape.text() + " (" + std::to_string(tried_) + " of " +
          std::to_string(planned_) + " shapes timed)");
  }

private:
  double now() const
  {
    if (limits_.clock)
      return limits_.clock();
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
  }

  // Whether the next candidate, on a grid of this many cells, would end past the time limit,
  // foreseen from the slowest so far per cell (kernel builds included: they vary more than the
  // steps). Never before one has worked: the run needs a shape.
  bool stopsBefore(double cells) const
  {
    if (worked_ == 0)
      return false;
    return last_ - start_ + secondsPerCell_ * cells > limits_.seconds;
  }

  // Tells progress of the candidate about to run: the share of the candidates done, or of the
  // time limit spent, whichever is further (never less than the last told).
  void tell(const std::string& shape)
  {
    if (!limits_.progress)
      return;
    double fraction = planned_ > 0 ? static_cast<double>(tried_) / planned_ : 0.0;
    if (std::isfinite(limits_.seconds) && limits_.seconds > 0)
      fraction = std::max(fraction, (last_ - start_) / limits_.seconds);
    fraction_ = std::max(fraction_, std::min(fraction, 0.99));
    limits_.progress(fraction_,
      "Tuning the kernel launch: " + shape + ", " + std::to_string(tried_ + 1) + " of " +
        std::to_string(planned_) + " shapes");
  }

  const DeviceInfo& device_;
  const TuningLimits& limits_;
  double start_ = 0, last_ = 0; // the clock at the start and after the last candidate
  double secondsPerCell_ = 0;   // the slowest candidate's
  double fraction_ = 0;
  int tried_ = 0, worked_ = 0, planned_ = 0;
  bool stopped_ = false;
  std::string firstError_;
};
} // namespace

LaunchTuning tuneLaunchShapes(const SimulationParameters& params,
  const DeviceInfo& device,
  const TuningLimits& limits,
  int side)
{
  if (side <= 0)
    side = tuningSide(params, device);
  // Every candidate on at most 4096^2 (512^2 on CPUs); on a larger trial grid only the four
  // fastest of those again: an 8192^2 trial of every candidate is far longer than a run should
  // wait, and the shapes that win there were among 4096^2's first four (see PERFORMANCE.md,
  // 'Decisions that stand').
  const int fullSide = std::min(side, device.type == "CPU" ? kCpuTrialSide : kGpuFullTrialSide);
  const std::vector<LaunchShape> candidates = launchCandidates(params, device);
  const auto finalistsOf = [](std::size_t count) { return std::min<std::size_t>(4, count); };
  Tuner tuner(device, limits);
  tuner.plan(
    static_cast<int>(candidates.size() + (side > fullSide ? finalistsOf(candidates.size()) : 0)));
  LaunchTuning tuning;
  tuning.timings = tuner.timeOnGrid(params, candidates, fullSide);
  if (side > fullSide && !tuner.stopped())
  {
    const std::size_t count = finalistsOf(tuning.timings.size());
    tuner.plan(static_cast<int>(candidates.size() + count));
    std::vector<LaunchShape> finalists;
    for (std::size_t k = 0; k < count; ++k)
      finalists.push_back(tuning.timings[k].shape);
    std::vector<LaunchTiming> again = tuner.timeOnGrid(params, finalists, side);
    // Those not timed again (the search stopped) keep their place among the rest.
    std::vector<LaunchTiming> rest;
    for (const LaunchTiming& timing : tuning.timings)
      if (std::none_of(again.begin(),
            again.end(),
            [&](const LaunchTiming& a) { return a.shape == timing.shape; }))
        rest.push_back(timing);
    again.insert(again.end(), rest.begin(), rest.end());
    tuning.timings = again;
  }
  tuning.tried = tuner.tried();
  tuning.planned = tuner.planned();
  tuner.finish(tuning.timings.front());
  return tuning;
}

std::vector<LaunchTiming> timeLaunchShapes(const SimulationParameters& params,
  const DeviceInfo& device,
  int side)
{
  return tuneLaunchShapes(params, device, TuningLimits{}, side).timings;
}

void storeLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTuning& tuning)
{
  if (tuning.timings.empty())
    return;
  const LaunchTiming& best = tuning.timings.front();
  char rate[32];
  std::snprintf(rate, sizeof(rate), "%.3f", best.cellsPerSecond / 1e9);
  const std::string path = launchCachePath();
  std::map<std::string, std::string> entries = readCache(path); // others may have tuned meanwhile
  std::string line = best.shape.text() + "\t" + rate;
  if (!tuning.complete())
    line += "\t" + std::string(kPartialMark) + std::to_string(tuning.tried) + "/" +
            std::to_string(tuning.planned);
  entries[cacheKey(params, device)] = line;
  const std::string problem = writeCache(path, entries);
  if (!problem.empty())
    reportUnwritableCache("launch-shape cache",
      path,
      problem,
      "every run will tune the kernel launch again; set SWE_LAUNCH_CACHE to a file in a writable "
      "directory");
}

void storeLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTiming& best)
{
  LaunchTuning tuning;
  tuning.timings = { best };
  storeLaunchShape(params, device, tuning);
}

namespace
{
// The cached shape for params' device, scheme and precision, if the cache has a usable one.
bool cachedLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  LaunchShape& shape)
{
  const std::map<std::string, std::string> entries = readCache(launchCachePath());
  const auto found = entries.find(cacheKey(params, device));
  if (found == entries.end())
    return false;
  try
  {
    shape = parseLaunchShape(found->second.substr(0, found->second.find('\t')));
    checkLaunchShape(shape, params, device);
    return true;
  }
  catch (const Error&)
  {
    return false; // a damaged or outdated line: tune again and overwrite it
  }
}
} // namespace

bool cachedLaunchShapeIsPartial(const SimulationParameters& params, const DeviceInfo& device)
{
  const std::map<std::string, std::string> entries = readCache(launchCachePath());
  const auto found = entries.find(cacheKey(params, device));
  if (found == entries.end())
    return false;
  const std::size_t tab = found->second.find('\t', found->second.find('\t') + 1);
  return tab != std::string::npos &&
         found->second.compare(tab + 1, std::strlen(kPartialMark), kPartialMark) == 0;
}

bool launchTuningNeeded(const SimulationParameters& params, const DeviceInfo& device)
{
  LaunchShape shape;
  return params.launch == "auto" && !cachedLaunchShape(params, device, shape);
}

LaunchShape resolveLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTuningProgress& progress)
{
  LaunchShape shape;
  if (params.launch == "default")
    shape = defaultLaunchShape(params, device);
  else if (params.launch != "auto")
    shape = parseLaunchShape(params.launch);
  else if (!cachedLaunchShape(params, device, shape))
  {
    // A first run waits for a few candidates at most: the device kind's usual pick comes first,
    // and the search goes on for about kAutoTuningSeconds.
    TuningLimits limits;
    limits.seconds = kAutoTuningSeconds;
    limits.progress = progress;
    const LaunchTuning tuning = tuneLaunchShapes(params, device, limits);
    shape = tuning.timings.front().shape;
    storeLaunchShape(params, device, tuning);
  }
  checkLaunchShape(shape, params, device);
  return shape;
}
} // namespace swe
