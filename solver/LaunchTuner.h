#pragma once
// Launch-shape tuning (thesis chapter 5: the best work-group shape depends on the device): on
// first use of a device, scheme, precision and grid size class, candidate shapes run a few steps
// of a dam break each and the fastest is kept in a small per-user cache file, so later runs start
// at once. The automatic path stops after about kAutoTuningSeconds; `swe tune` times them all.
// Every shape gives bit-identical results, so tuning never changes an answer.
#include "Devices.h"
#include "LaunchShape.h"
#include "Parameters.h"

#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace swe
{
// A tuning's progress, for a progress bar: the fraction done (0 to 1, increasing from call to
// call; 1 once it has finished) and a line saying what runs, such as "Tuning the kernel launch:
// 64x4x4, 3 of 13 shapes". Called on the tuning thread before each candidate and once at the end.
using LaunchTuningProgress = std::function<void(double fraction, const std::string& text)>;

// How long the automatic tuning may take, wall-clock seconds: a first run on a new device starts
// within about this (resolveLaunchShape).
constexpr double kAutoTuningSeconds = 3.0;

// Resolves params.launch: an explicit shape (checked), the default shape, or for "auto" the
// cached shape, tuning first when the cache has none: the candidates in turn, the device kind's
// usual pick first (likelyLaunchShape), until about kAutoTuningSeconds have passed; the fastest
// of those is cached, marked as a partial search when some were left (`swe tune` completes it).
// progress, if given, hears of that tuning. Simulation::plan calls this: a caller that wants a
// progress bar makes the plan itself (or calls this and passes the shape on as params.launch =
// shape.text()), so the simulation's construction does not tune.
LaunchShape resolveLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTuningProgress& progress = {});

// Whether resolveLaunchShape will tune first (params.launch is "auto" and the cache has no usable
// line), so that a caller can tell its user why the first run takes a while.
bool launchTuningNeeded(const SimulationParameters& params, const DeviceInfo& device);

// The cache: $SWE_LAUNCH_CACHE if set, else $XDG_CACHE_HOME/swe/launch-shapes.txt, else
// $HOME/.cache/swe/launch-shapes.txt. One line per device, scheme, precision and trial grid
// (tuningSide), and for Lax-Friedrichs per dt mode (|fixed-dt, |adaptive-dt: the modes rank
// two-step shapes differently).
std::string launchCachePath();

// The side of the square grid the tuner times params' run on: on GPUs the run's own size rounded
// to a power of two, 1024 to 8192; on CPUs 512; less on a device too small for that.
int tuningSide(const SimulationParameters& params, const DeviceInfo& device);

struct LaunchTiming
{
  LaunchShape shape;
  double cellsPerSecond = 0;
  int side = 0; // of the square trial grid it was timed on
};

// Times the candidates (launchCandidates) for a square grid of the given side, or of
// tuningSide(params, device) when side is 0: every candidate on that grid, or on 4096^2 (512^2
// on CPUs) when it is larger, and then the four fastest of those again on it. Fastest first
// (those timed on the larger grid ahead of the rest). Shapes that fail on the device are left
// out (an error only when all fail). Does not touch the cache.
std::vector<LaunchTiming> timeLaunchShapes(const SimulationParameters& params,
  const DeviceInfo& device,
  int side = 0);

// How far a tuning may go.
struct TuningLimits
{
  // Before each candidate after the first that worked, the tuning stops if the candidate would
  // end more than this many seconds after the start, foreseen from the slowest so far (per cell
  // of the trial grid); so also once the time is up. Infinite: every candidate.
  double seconds = std::numeric_limits<double>::infinity();
  LaunchTuningProgress progress;
  // Seconds on a steady clock, read once at the start and once after each candidate (tests pass
  // a fake one); empty: std::chrono::steady_clock.
  std::function<double()> clock;
};

struct LaunchTuning
{
  std::vector<LaunchTiming> timings; // fastest first, as timeLaunchShapes orders them
  int tried = 0;                     // candidates run, those that failed on the device included
  int planned = 0;                   // candidates a whole search runs
  bool complete() const { return tried >= planned; }
};

// timeLaunchShapes within limits: the candidates in order (launchCandidates), stopping as the
// limits say. At least one candidate runs (more while those before fail on the device).
LaunchTuning tuneLaunchShapes(const SimulationParameters& params,
  const DeviceInfo& device,
  const TuningLimits& limits,
  int side = 0);

// Writes the tuning's fastest shape into the cache for this device, scheme, precision and trial
// grid (best effort: a cache that cannot be written is reported to the warning handler, below).
// A search cut short is marked as such on its line ("partial 3/13"): runs use its shape at once,
// and `swe tune` replaces it with a whole search's.
void storeLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTuning& tuning);
// The same for the winner of a whole search.
void storeLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTiming& best);

// Whether the cached line for params' device, scheme, precision and trial grid comes from a
// search cut short (see storeLaunchShape); false when there is none.
bool cachedLaunchShapeIsPartial(const SimulationParameters& params, const DeviceInfo& device);

} // namespace swe
