#include "DeviceLimits.h"

#include "Error.h"
#include "HostMemory.h"
#include "Simulation.h"
#include "Stepper.h"
#include "SimulationTypes.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace swe
{
namespace
{
// Host memory a run may need beyond what it holds per cell: building the kernels (the compiler
// of a CPU device runs in this process).
constexpr std::uint64_t kBuildReserve = 512ull << 20;

// The host memory message: the parts (or the peak while the state is uploaded), and the largest
// square grid that fits.
std::string hostMemoryMessage(const SimulationParameters& params,
  bool perCellManning,
  const std::vector<HostShare>& parts,
  std::uint64_t perCell,
  std::uint64_t running,
  std::uint64_t available)
{
  const std::uint64_t cells = static_cast<std::uint64_t>(params.nx) * params.ny;
  const std::uint64_t needed = cells * perCell + kBuildReserve;
  std::ostringstream s;
  s << "grid " << params.nx << " x " << params.ny << " needs " << gib(needed) << " of host memory"
    << (perCellManning ? " with a Manning coefficient per cell" : "") << " (";
  if (perCell == running)
    for (const HostShare& part : parts)
      s << part.what << " " << gib(cells * part.bytesPerCell) << ", ";
  else
    s << "while the initial state is uploaded, " << gib(cells * perCell) << ", ";
  const auto fits = static_cast<std::uint64_t>(
    std::sqrt(static_cast<double>(available > kBuildReserve ? available - kBuildReserve : 0) /
              static_cast<double>(perCell)));
  s << "building the kernels " << gib(kBuildReserve) << ") but this process can count on "
    << gib(available) << ": use fewer cells (about " << fits << " x " << fits << " fit), or "
    << (addressSpaceRoom() <= available ? "raise the process's address-space limit (ulimit -v)"
                                        : "close other programs");
  return s.str();
}

// Refuses a run whose host memory, per part (alsoOnHost plus the engine's), passes what this
// process can count on; the message lists the parts and the largest square grid that fits.
void checkHostMemory(const SimulationParameters& params,
  bool perCellManning,
  const DeviceInfo& info,
  const std::vector<HostShare>& alsoOnHost)
{
  const std::uint64_t available = availableHostMemory();
  if (available == 0)
    return; // unknown: nothing to refuse on
  const std::uint64_t real = realBytes(params.precision);
  // The initial state (h, hu, hv, bed and the roughness, in fp64) and one field converted for
  // the upload exist only while the simulation is made, before the frames and checkpoints.
  const std::uint64_t whileMade = (perCellManning ? 40 : 32) + real;
  const std::uint64_t fields = stateFields(params).size();
  std::vector<HostShare> parts;
  if (info.type == "CPU") // a CPU device's buffers are host memory: state, bed, copy for frames
    parts.push_back(
      { "device buffers", deviceBytesPerCell(params, perCellManning) + fields * real });
  parts.push_back({ "download copy", fields * real });
  parts.insert(parts.end(), alsoOnHost.begin(), alsoOnHost.end());
  std::uint64_t running = 0, device = 0;
  for (const HostShare& part : parts)
    running += part.bytesPerCell;
  if (info.type == "CPU")
    device = parts.front().bytesPerCell;
  const std::uint64_t perCell = std::max(running, device + whileMade);
  const std::uint64_t cells = static_cast<std::uint64_t>(params.nx) * params.ny;
  if (cells * perCell + kBuildReserve <= available)
    return;
  throw Error(hostMemoryMessage(params, perCellManning, parts, perCell, running, available));
}
} // namespace

std::string gib(std::uint64_t bytes)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

DeviceInfo checkRunFits(const SimulationParameters& params,
  bool perCellManning,
  const std::vector<HostShare>& alsoOnHost)
{
  params.validate();
  const DeviceInfo info = selectDevice(params.device);
  if (params.precision == Precision::Double)
    requireDouble(info);
  const std::uint64_t real = realBytes(params.precision);
  const std::uint64_t cells = paddedCells(params.nx, params.ny, real);
  const std::uint64_t bytes = cells * deviceBytesPerCell(params, perCellManning);
  // (the largest buffer: a field, or two planes of one where the run rains per cell behind its
  // Manning field or has a soil map: DeviceState)
  const std::uint64_t oneBuffer =
    cells * real * (params.rainPerCell || params.infiltration.perCell ? 2 : 1);
  const std::string grid = std::to_string(params.nx) + " x " + std::to_string(params.ny);
  if (cells > static_cast<std::uint64_t>(INT_MAX))
    throw Error("grid " + grid + " has too many cells for 32-bit indexing (at most " +
                std::to_string(INT_MAX) + " including ghost layers)");
  if (bytes > info.globalMemory)
    throw Error("grid " + grid + " needs " + gib(bytes) + " of device memory" +
                (perCellManning ? " (with a Manning coefficient per cell)" : "") + " but '" +
                info.name + "' has " + gib(info.globalMemory) + ": use fewer cells" +
                (params.precision == Precision::Double ? " or single precision" : ""));
  if (oneBuffer > info.maxAllocation)
    throw Error("grid " + grid + " needs buffers of " + gib(oneBuffer) + " but '" + info.name +
                "' allocates at most " + gib(info.maxAllocation) + " at once: use fewer cells");
  checkHostMemory(params, perCellManning, info, alsoOnHost);
  return info;
}

void checkInitialStateFits(const SimulationPlan& plan, const InitialState& initial)
{
  const SimulationParameters& params = plan.params;
  if (initial.perCellManning() && !plan.perCellManning)
    checkRunFits(params, true, {});
  if (initial.nx != params.nx || initial.ny != params.ny)
    throw Error("initial state is " + std::to_string(initial.nx) + " x " +
                std::to_string(initial.ny) + " cells but the grid is " + std::to_string(params.nx) +
                " x " + std::to_string(params.ny));
  initial.validate(isSecondOrder(params.scheme));
  requireFitsParameters(initial, params);
  if (params.scheme == Scheme::LaxFriedrichs)
  {
    initial.requireFlatBed();
    initial.requireLevelsAboveBed(params);
  }
}

std::uint64_t deviceBytesPerCell(Precision precision, bool perCellManning)
{
  return (perCellManning ? 8 : 7) * static_cast<std::uint64_t>(realBytes(precision));
}

std::uint64_t deviceBytesPerCell(const SimulationParameters& params, bool perCellManning)
{
  // (the fields a state keeps beyond h, hu, hv: the infiltration, the flood maps)
  // (and the rain's factors, beside a Manning field, and a soil map's two: DeviceState)
  const std::uint64_t kept = stateFields(params).size() - kStateFields +
                             (params.rainPerCell ? 1 : 0) + (params.infiltration.perCell ? 2 : 0);
  return deviceBytesPerCell(params.precision, perCellManning || params.rainPerCell) +
         kept * realBytes(params.precision);
}

std::uint64_t deviceBytesUsed(const GridLayout& layout,
  const SimulationParameters& params,
  bool perCellManning)
{
  return layout.paddedCells() * deviceBytesPerCell(params, perCellManning);
}

std::uint64_t largestSquareGridOn(Precision precision, const DeviceInfo& device)
{
  const double byMemory =
    std::sqrt(static_cast<double>(device.globalMemory) / deviceBytesPerCell(precision, false));
  const double byIndex = std::sqrt(static_cast<double>(INT_MAX));
  // Less the ghost layers and the row alignment (at most 2 x 128 bytes a row).
  return static_cast<std::uint64_t>(std::min(byMemory, byIndex)) -
         2 * rowOffsetCells(realBytes(precision));
}

// Simulation's checks that need no simulation, beside the limits they read.
DeviceInfo Simulation::check(const SimulationParameters& params,
  bool perCellManning,
  const std::vector<HostShare>& alsoOnHost)
{
  return checkRunFits(params, perCellManning, alsoOnHost);
}

std::uint64_t Simulation::bytesMovedPerCell(const SimulationParameters& params)
{
  return stepBytesPerCell(params);
}

std::uint64_t Simulation::largestSquareGrid(Precision precision, const DeviceInfo& device)
{
  return largestSquareGridOn(precision, device);
}

std::uint64_t Simulation::bytesPerCell(Precision precision, bool perCellManning)
{
  return deviceBytesPerCell(precision, perCellManning);
}
double measureCopyBandwidth(const cl::Context& context, cl::CommandQueue& queue, std::size_t bytes)
{
  // At most 1 GiB: NVIDIA's OpenCL failed copies of a 16384² fp32 state's 3.2 GB (error -36 at
  // the finish), and 1 GiB already fills any device's bus.
  bytes = std::min<std::size_t>(bytes, 1ull << 30);
  cl::Buffer from(context, CL_MEM_READ_WRITE, bytes), to(context, CL_MEM_READ_WRITE, bytes);
  queue.enqueueFillBuffer(from, cl_uchar(1), 0, bytes);
  queue.enqueueCopyBuffer(from, to, 0, 0, bytes); // warm-up
  queue.finish();
  const int repetitions = 20;
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < repetitions; ++k)
    queue.enqueueCopyBuffer(from, to, 0, 0, bytes);
  queue.finish();
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  return 2.0 * bytes * repetitions / seconds.count();
}
} // namespace swe
