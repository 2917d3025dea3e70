#pragma once
// Launch-shape tuning (thesis chapter 5: the best work-group shape depends on the device): on
// first use of a device, scheme, precision and grid size class, each candidate shape runs a few
// steps of a dam break and the fastest is kept in a small per-user cache file, so later runs
// start at once.
// Every shape gives bit-identical results, so tuning never changes an answer.
#include "Devices.h"
#include "LaunchShape.h"
#include "Parameters.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace swe
{
// Resolves params.launch: an explicit shape (checked), the default shape, or for "auto" the
// cached shape, tuning first when the cache has none.
LaunchShape resolveLaunchShape(const SimulationParameters& params, const DeviceInfo& device);

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
// Writes the timed winner into the cache for this device, scheme, precision and trial grid (best
// effort: a cache that cannot be written is reported to the warning handler, below).
void storeLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTiming& best);

// Where the tuner reports what it works around but its user should hear of: a cache file it
// cannot write, so that every run tunes again. The engine prints nothing itself; the tool prints
// these, the plugin can give them as VTK warnings. Each cache path is reported once a process
// (the handler may be called from any thread that builds a Simulation). None by default.
using LaunchWarningHandler = std::function<void(const std::string& message)>;
void setLaunchWarningHandler(LaunchWarningHandler handler);
} // namespace swe
