#pragma once
// What a run may ask of the device and of the host, answered before anything is allocated: the
// device bytes a cell takes, the largest grid that fits, and the check that refuses a grid too
// large for the device's memory, its largest allocation, 32-bit indexing or the host memory
// this process can count on (HostMemory.h), with the numbers.
#include "Devices.h"
#include "GridLayout.h"
#include "InitialState.h"
#include "OpenCL.h"
#include "Parameters.h"
#include "SimulationTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace swe
{
struct SimulationPlan;

// Simulation::check: validates params, resolves the device and checks the grid against it and
// the host.
DeviceInfo checkRunFits(const SimulationParameters& params,
  bool perCellManning,
  const std::vector<HostShare>& alsoOnHost);

// Throws unless the initial state suits the plan: its grid, its values for the scheme, and its
// Manning field in the memory check (counted by the plan, or checked here).
void checkInitialStateFits(const SimulationPlan& plan, const InitialState& initial);

// Device bytes one grid cell needs: 2 x (h, hu, hv) ping-pong, the bed and, when the coefficient
// is given per cell, the Manning field (the partial-maximum buffers add < 1 % and are ignored);
// with params, the fields the state keeps besides (stateFields: infiltration, flood maps).
std::uint64_t deviceBytesPerCell(Precision precision, bool perCellManning);
std::uint64_t deviceBytesPerCell(const SimulationParameters& params, bool perCellManning);

// Device bytes a run's own buffers take (the fields of deviceBytesPerCell, padded as laid out).
std::uint64_t deviceBytesUsed(const GridLayout& layout,
  const SimulationParameters& params,
  bool perCellManning);

// The largest n such that an n x n grid fits the device (memory and 32-bit indexing).
std::uint64_t largestSquareGridOn(Precision precision, const DeviceInfo& device);

// "1.50 GiB".
std::string gib(std::uint64_t bytes);

// Bytes per second of a device-to-device copy (read + write) of `bytes`, at most 1 GiB. Waits.
double measureCopyBandwidth(const cl::Context& context, cl::CommandQueue& queue, std::size_t bytes);
} // namespace swe
