#pragma once
// How the step kernel is launched: the work-group shape and the rows of cells each work-item
// updates. Any shape gives bit-identical results; only the speed differs (see LaunchTuner.h).
#include "Devices.h"
#include "Parameters.h"

#include <string>
#include <vector>

namespace swe
{
struct LaunchShape
{
  int groupX = 64; // work-items along x (the fastest-varying, contiguous axis)
  int groupY = 4;  // work-items along y
  int rows = 1;    // cells of a column one work-item updates
  // The CPU-shaped path (every scheme): one work-item per group updates `rows` whole rows with
  // explicit vectors along x; groupX and groupY then only shape the whole-grid kernels.
  bool wholeRows = false;
  // Steps one launch takes (Lax-Friedrichs, GPU-shaped): 1, or 2 for temporal blocking
  // (kernels/schemes/lax_friedrichs.cl, lax_friedrichs_two_steps; with the adaptive dt, the second
  // step's dt is predicted: Parameters.h, kPairSpeedMargin).
  int steps = 1;

  // "64x4x1", "64x4x4s2" (two steps a launch) or "rows16", the forms parseLaunchShape() reads.
  std::string text() const;
  bool operator==(const LaunchShape& other) const
  {
    return groupX == other.groupX && groupY == other.groupY && rows == other.rows &&
           wholeRows == other.wholeRows && steps == other.steps;
  }
};

// Reads "GXxGYxROWS" (e.g. "128x2x8"), the same with "s2" appended (two steps a launch), or
// "rowsN" (N whole rows per work-item). Throws swe::Error naming the text when it is not that
// form, the group size is not a power of two, rows are not 1..64 or steps not 1 or 2.
LaunchShape parseLaunchShape(const std::string& text);

// Cells along x one work-item of the GPU-shaped Lax-Friedrichs update takes: a pair, loaded as
// one vector (measured faster on the H200 than one cell: see PERFORMANCE.md, 'Decisions that
// stand'); 1 otherwise.
int columnsPerItem(const LaunchShape& shape, const SimulationParameters& params);

// Bytes of local memory one work-group of the step kernel of params.scheme takes in
// params.precision.
std::size_t localMemoryBytes(const LaunchShape& shape, const SimulationParameters& params);

// Throws swe::Error when the shape does not suit the scheme or the device (a work-group larger
// than the device allows or needing more local memory than it has; for the second-order scheme,
// anything but rowsN or one row of at least 8 items, whose neighbours trade through local memory;
// two steps a launch other than for Lax-Friedrichs with a work-group shape).
void checkLaunchShape(const LaunchShape& shape,
  const SimulationParameters& params,
  const DeviceInfo& device);

// The shape used without tuning: 64 x 4 (a wide row-shaped group, the thesis's finding) and one
// row per work-item (128 x 1 sweeping 32 rows for the second-order scheme), shrunk to what the
// device allows.
LaunchShape defaultLaunchShape(const SimulationParameters& params, const DeviceInfo& device);

// The shape the tuner tries first: what the device kind has picked most often for the scheme,
// precision, dt mode and grid size (PERFORMANCE.md), so that a tuning cut short at its time
// limit (LaunchTuner.h) starts from it. On CPU devices rows16 for Lax-Friedrichs and rows4 for
// the second order; on GPUs, Lax-Friedrichs two steps a launch (32x8x4s2 in fp32; 32x8x2s2 in
// fp64, 32x4x2s2 with a fixed dt), the second order 128x1x16 below about 2900^2 cells, 128x1x32
// to about 5800^2, and 128x1x64 beyond. The first of those that fits the device (else the
// default, shrunk to fit).
LaunchShape likelyLaunchShape(const SimulationParameters& params, const DeviceInfo& device);

// The shapes the tuner tries for a scheme and precision on a device, likelyLaunchShape first,
// then the ones that came next most often; the default among them.
std::vector<LaunchShape> launchCandidates(const SimulationParameters& params,
  const DeviceInfo& device);
} // namespace swe
