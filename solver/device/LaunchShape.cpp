#include "LaunchShape.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace swe
{
namespace
{
bool powerOfTwo(int n)
{
  return n > 0 && (n & (n - 1)) == 0;
}
} // namespace

std::string LaunchShape::text() const
{
  if (wholeRows)
    return "rows" + std::to_string(rows);
  return std::to_string(groupX) + "x" + std::to_string(groupY) + "x" + std::to_string(rows) +
         (steps > 1 ? "s" + std::to_string(steps) : "");
}

LaunchShape parseLaunchShape(const std::string& text)
{
  LaunchShape shape;
  char tail = 0;
  if (text.compare(0, 4, "rows") == 0)
  {
    shape.wholeRows = true;
    if (std::sscanf(text.c_str() + 4, "%d%c", &shape.rows, &tail) != 1 || shape.rows < 1 ||
        shape.rows > 4096)
      throw Error("launch shape '" + text + "': rowsN needs N from 1 to 4096");
    return shape;
  }
  // "s" and a number, or nothing, after the rows; the tail catches anything more.
  const bool stepsWritten = text.find('s') != std::string::npos;
  const int fields =
    stepsWritten
      ? std::sscanf(text.c_str(),
          "%dx%dx%ds%d%c",
          &shape.groupX,
          &shape.groupY,
          &shape.rows,
          &shape.steps,
          &tail)
      : std::sscanf(text.c_str(), "%dx%dx%d%c", &shape.groupX, &shape.groupY, &shape.rows, &tail);
  if (fields != (stepsWritten ? 4 : 3))
    throw Error(
      "launch shape must be 'auto', 'default', GXxGYxROWS such as 128x2x8 (with s2 appended for "
      "two steps a launch), or rowsN such as rows16, got '" +
      text + "'");
  if (!powerOfTwo(shape.groupX) || !powerOfTwo(shape.groupY))
    throw Error("launch shape '" + text + "': the work-group sides must be powers of two");
  if (shape.rows < 1 || shape.rows > 64)
    throw Error("launch shape '" + text + "': rows per work-item must be 1 to 64");
  if (shape.steps != 1 && shape.steps != 2)
    throw Error("launch shape '" + text + "': steps per launch must be 1 or 2");
  return shape;
}

int columnsPerItem(const LaunchShape& shape, const SimulationParameters& params)
{
  return params.scheme == Scheme::LaxFriedrichs && !shape.wholeRows ? 2 : 1;
}

std::size_t localMemoryBytes(const LaunchShape& shape, const SimulationParameters& params)
{
  const std::size_t gx = static_cast<std::size_t>(shape.groupX),
                    gy = static_cast<std::size_t>(shape.groupY);
  const std::size_t realSize = params.precision == Precision::Double ? 8 : 4;
  std::size_t reals = gx * gy; // the group maximum's scratch
  if (isSecondOrder(params.scheme) && !shape.wholeRows)
    // The row's three exchanges: cell values and east-face values (four each), west-face
    // fluxes (three) per work-item (kernels/schemes/muscl_sweeps.cl).
    reals += 11 * gx;
  else if (shape.steps == 2)
    // The three values of the state between the two steps, for the group's cells and one more
    // on every side (the maximum's scratch reuses them).
    reals = 3 * (gx * columnsPerItem(shape, params) + 2) *
            (gy * static_cast<std::size_t>(shape.rows) + 2);
  return reals * realSize;
}

namespace
{
bool fits(const LaunchShape& shape, const SimulationParameters& params, const DeviceInfo& device)
{
  return static_cast<std::size_t>(shape.groupX) * shape.groupY <= device.maxWorkGroupSize &&
         localMemoryBytes(shape, params) <= device.localMemory;
}
} // namespace

void checkLaunchShape(const LaunchShape& shape,
  const SimulationParameters& params,
  const DeviceInfo& device)
{
  const std::size_t size = static_cast<std::size_t>(shape.groupX) * shape.groupY;
  if (size > device.maxWorkGroupSize)
    throw Error("launch shape " + shape.text() + ": work-groups of " + std::to_string(size) +
                " items are larger than '" + device.name + "' allows (" +
                std::to_string(device.maxWorkGroupSize) + ")");
  // (A sweep of one row is no use, and PoCL 3.1 built it wrongly: no cell changed.)
  if (isSecondOrder(params.scheme) && !shape.wholeRows &&
      (shape.groupY != 1 || shape.groupX < 8 || shape.rows < 2))
    throw Error("launch shape " + shape.text() +
                ": the second-order scheme takes work-groups of one row of at least 8 work-items, "
                "each sweeping 2 or more cells of a column (GXx1xROWS such as 64x1x16), or rowsN");
  if (shape.steps == 2 && (params.scheme != Scheme::LaxFriedrichs || shape.wholeRows))
    throw Error("launch shape " + shape.text() +
                ": two steps a launch need the Lax-Friedrichs scheme and a work-group shape, not "
                "rowsN");
  if (localMemoryBytes(shape, params) > device.localMemory)
    throw Error("launch shape " + shape.text() + ": its work-groups need " +
                std::to_string(localMemoryBytes(shape, params)) +
                " bytes of local memory in this precision, more than '" + device.name + "' has (" +
                std::to_string(device.localMemory) + "); use a smaller group");
}

LaunchShape defaultLaunchShape(const SimulationParameters& params, const DeviceInfo& device)
{
  // The second-order scheme: one row of items sweeping columns of 32 cells (the H200's pick at
  // 4096^2: see PERFORMANCE.md, 'Decisions that stand').
  LaunchShape shape = isSecondOrder(params.scheme) ? LaunchShape{ 128, 1, 32 } : LaunchShape{};
  while (!fits(shape, params, device) && shape.groupY > 1)
    shape.groupY /= 2;
  while (!fits(shape, params, device) && shape.groupX > (isSecondOrder(params.scheme) ? 8 : 1))
    shape.groupX /= 2;
  return shape;
}

namespace
{
// The candidates in the order the tuner tries them, before those that do not fit are left out:
// the usual pick first, then those that came next most often (PERFORMANCE.md).
std::vector<LaunchShape> orderedCandidates(const SimulationParameters& params,
  const DeviceInfo& device)
{
  const bool cpu = device.type == "CPU";
  const auto rows = [](int n) { return LaunchShape{ 64, 4, n, true }; };
  if (isSecondOrder(params.scheme) && cpu)
    // The CPU-shaped path, whole rows with explicit vectors: far faster than the sweeps on PoCL
    // (see PERFORMANCE.md, 'Decisions that stand'), so other sweep shapes are not worth their
    // tuning time; rows4 won most tunings.
    return { rows(4), rows(16), rows(1), defaultLaunchShape(params, device) };
  if (isSecondOrder(params.scheme))
  {
    // Each of tuningSide's size classes (from about 2900^2 and 5800^2 cells) tries the H200's
    // pick for it first (see PERFORMANCE.md, 'Decisions that stand').
    const double side = std::sqrt(static_cast<double>(params.nx) * params.ny);
    if (side < 2896)
      return { { 128, 1, 16 },
        { 32, 1, 32 },
        { 64, 1, 32 },
        { 128, 1, 32 },
        { 256, 1, 32 },
        { 128, 1, 64 },
        { 64, 1, 64 } };
    if (side < 5793)
      return { { 128, 1, 32 },
        { 64, 1, 32 },
        { 64, 1, 64 },
        { 128, 1, 64 },
        { 128, 1, 16 },
        { 32, 1, 32 },
        { 256, 1, 32 } };
    return { { 128, 1, 64 },
      { 128, 1, 32 },
      { 64, 1, 64 },
      { 64, 1, 32 },
      { 256, 1, 32 },
      { 128, 1, 16 },
      { 32, 1, 32 } };
  }
  if (cpu)
    // CPU devices run a work-group on one core, vectorised across x: whole rows (rows4, rows16
    // and rows64 each won tunings on PoCL), then wide groups, long columns.
    return { rows(16),
      rows(4),
      rows(64),
      defaultLaunchShape(params, device),
      { 256, 1, 1 },
      { 1024, 1, 16 } };
  // GPUs: two steps a launch won on the H200 (tall tiles in fp32, smaller ones that fit the
  // local memory in fp64: 32x8x2s2 with the adaptive dt, 32x4x2s2 with a fixed one); then one
  // step a launch.
  std::vector<LaunchShape> shapes;
  if (params.precision == Precision::Single)
    shapes = { { 32, 8, 4 }, { 64, 4, 4 }, { 32, 4, 4 }, { 64, 2, 4 }, { 32, 8, 2 }, { 32, 4, 2 } };
  else if (params.fixedDt > 0)
    shapes = { { 32, 4, 2 }, { 32, 8, 2 }, { 32, 4, 4 }, { 64, 2, 4 }, { 64, 4, 4 }, { 32, 8, 4 } };
  else
    shapes = { { 32, 8, 2 }, { 32, 4, 2 }, { 32, 4, 4 }, { 64, 2, 4 }, { 64, 4, 4 }, { 32, 8, 4 } };
  for (LaunchShape& shape : shapes)
    shape.steps = 2;
  for (const LaunchShape& shape : std::vector<LaunchShape>{ { 128, 1, 4 },
         { 64, 4, 4 },
         { 64, 2, 4 },
         { 128, 1, 2 },
         { 256, 1, 4 },
         { 256, 1, 8 },
         defaultLaunchShape(params, device) })
    shapes.push_back(shape);
  return shapes;
}
} // namespace

std::vector<LaunchShape> launchCandidates(const SimulationParameters& params,
  const DeviceInfo& device)
{
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& s : orderedCandidates(params, device))
    if (fits(s, params, device) && std::find(shapes.begin(), shapes.end(), s) == shapes.end())
      shapes.push_back(s);
  // (The default is shrunk to fit; it is there whatever else is not.)
  const LaunchShape fallback = defaultLaunchShape(params, device);
  if (std::find(shapes.begin(), shapes.end(), fallback) == shapes.end())
    shapes.push_back(fallback);
  return shapes;
}

LaunchShape likelyLaunchShape(const SimulationParameters& params, const DeviceInfo& device)
{
  return launchCandidates(params, device).front();
}
} // namespace swe
