#pragma once
// Launch-shape tuning (thesis chapter 5: the best work-group shape depends on the device): on
// first use of a device, scheme and precision, each candidate shape runs a few steps of a dam
// break and the fastest is kept in a small per-user cache file, so later runs start at once.
// Every shape gives bit-identical results, so tuning never changes an answer.
#include "Devices.h"
#include "LaunchShape.h"
#include "Parameters.h"

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
// $HOME/.cache/swe/launch-shapes.txt. One line per device, scheme and precision, and for
// Lax-Friedrichs per dt mode (|fixed-dt, |adaptive-dt: the modes rank two-step shapes
// differently).
std::string launchCachePath();

struct LaunchTiming
{
  LaunchShape shape;
  double cellsPerSecond = 0;
};

// Times every candidate (launchCandidates) on a square grid of the given side, or of the
// device's tuning size when side is 0 (4096 on GPUs, 512 on CPUs, less on a device too small for
// that); fastest first. Shapes that fail on the device are left out (an error only when all
// fail). Does not touch the cache.
std::vector<LaunchTiming> timeLaunchShapes(const SimulationParameters& params,
  const DeviceInfo& device,
  int side = 0);
// Writes the timed winner into the cache for this device, scheme and precision (best effort).
void storeLaunchShape(const SimulationParameters& params,
  const DeviceInfo& device,
  const LaunchTiming& best);
} // namespace swe
