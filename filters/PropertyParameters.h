#pragma once
// What the properties the Shallow Water source and solver share mean: their values checked and
// turned into the engine's parameters. No VTK here (vtkShallowWaterBase gathers the values), so
// that this can be tested without ParaView; the error messages name the properties as the user
// sets them.
#include "Devices.h"
#include "ParameterTable.h"
#include "Parameters.h"

#include <array>
#include <string>
#include <vector>

namespace swe
{
// The shared properties' values as they were set, unchecked. Sides in the order west, east,
// south, north (sideNames()).
struct PropertyValues
{
  // Gravity, ManningCoefficient, Rainfall, ... (ParameterTable.h), indexed by ScalarId
  ScalarValues scalars = defaultScalarValues();
  Series rainfallSeries;                     // (s, mm/h)
  std::array<Series, 4> boundarySeries;      // (s, m^2/s or m), in place of the discharge or level
  std::vector<std::array<double, 2>> gauges; // (x, y) in the output's coordinates
  std::array<std::array<double, 2>, 4> boundaryStretches{}; // (from, to) m; (0, 0): whole side
  // (x, y, time, m^3/s); consecutive rows at one point are one source's series
  std::vector<std::array<double, 4>> sourceRows;
  bool floodMaps = false;
  bool waterBalance = false;
  bool skipDry = true;
  int scheme = 0;
  std::array<int, 4> boundaryTypes{};
  std::array<double, 4> boundaryDischarges{};
  std::array<double, 4> boundaryLevels{};
  std::string device;
  int precision = 0; // 0 single, 1 double
  double endTime = 0;
  double outputInterval = 0;
};

// The grid a filter runs on (vtkShallowWaterBase::DescribeGrid): cells along x and y, square
// cell size.
struct PropertyGrid
{
  int resolution[2] = { 0, 0 };
  double cellSize = 0;
  double origin[2] = { 0, 0 }; // where the grid's corner lies in the output's coordinates
};

// Throws swe::Error naming EndTime or OutputInterval when they give no sensible output times
// (not finite, a negative EndTime, an OutputInterval not above 0, more than a million outputs).
void checkOutputTimes(const PropertyValues& values);

// The engine's parameters from the values and the grid. Throws swe::Error naming Precision,
// Scheme, or a side's boundary type, or the discharge or level its type uses, when out of range
// or not finite; the rest is checked by Simulation::check (checkFilterRun).
SimulationParameters propertyParameters(const PropertyValues& values, const PropertyGrid& grid);

// Simulation::check for a filter's run: the grid on its device, and on the host with the frames
// and checkpoints the filter keeps, so that a grid too large for this machine is refused with the
// numbers rather than killed by the OOM killer later. Returns the device; throws swe::Error.
DeviceInfo checkFilterRun(const SimulationParameters& params);
} // namespace swe
