#include "InitialState.h"

#include "Error.h"
#include "StateBounds.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <unistd.h>

namespace swe
{
namespace
{
// Refuses a state the host cannot hold, before the allocation (which could wake the OOM killer
// rather than throw).
int checkHostMemory(int nx, int ny)
{
  if (nx <= 0 || ny <= 0)
    return nx; // an empty state; validate() names the bad size
  const std::uint64_t bytes = 4ull * sizeof(double) * static_cast<std::uint64_t>(nx) * ny;
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0 && bytes > static_cast<std::uint64_t>(pages) * pageSize / 2)
  {
    std::ostringstream s;
    s << "a " << nx << " x " << ny << " initial state needs " << bytes / (1 << 20)
      << " MiB of host memory, more than half of this machine's "
      << static_cast<std::uint64_t>(pages) * pageSize / (1 << 20) << " MiB";
    throw Error(s.str());
  }
  return nx;
}
// data/make_valley.py's terrain at (x, y) of its 800 m x 500 m [m]: a floor falling from 40 m
// to 20 m along x, sides rising 12 m over 250 m, a 3 m deep meandering channel and a low hill.
double valleyBed(double x, double y)
{
  const double pi = 3.14159265358979323846;
  const double floor = 40.0 - 20.0 * x / 800.0;
  const double across = std::abs(y - (250.0 + 40.0 * std::sin(2 * pi * x / 400.0)));
  const double sides = 12.0 * std::pow(std::max(0.0, (across - 30.0) / 220.0), 1.5);
  const double channel = -3.0 * std::exp(-(across / 12.0) * (across / 12.0));
  const double hill = 4.0 * std::exp(-(((x - 520.0) / 40.0) * ((x - 520.0) / 40.0) +
                                       ((y - 330.0) / 30.0) * ((y - 330.0) / 30.0)));
  return floor + sides + channel + hill;
}
} // namespace

InitialState::InitialState(int nx_, int ny_)
  : nx(checkHostMemory(nx_, ny_))
  , ny(ny_)
  , h(cells(), 0.0)
  , hu(cells(), 0.0)
  , hv(cells(), 0.0)
  , bed(cells(), 0.0)
{
}

std::size_t InitialState::closedCells() const
{
  std::size_t count = 0;
  for (std::size_t k = 0; k < bed.size(); ++k)
    count += closed(k) ? 1 : 0;
  return count;
}

SoilMap soilMap(const InitialState& initial, const GreenAmpt& green)
{
  const auto at = [](const std::vector<double>& values, std::size_t k, double uniform)
  { return values.empty() ? uniform : values[k]; };
  SoilMap soil;
  soil.conductivity.resize(initial.cells());
  soil.suctionDeficit.resize(initial.cells());
  for (std::size_t k = 0; k < initial.cells(); ++k)
  {
    soil.conductivity[k] = at(initial.conductivity, k, green.conductivity) / 3.6e6;
    soil.suctionDeficit[k] =
      at(initial.suction, k, green.suction) / 1000 * at(initial.deficit, k, green.deficit);
  }
  return soil;
}

std::vector<double> InitialState::rainZonesOpen() const
{
  std::vector<double> zones = rain;
  for (std::size_t k = 0; k < zones.size(); ++k)
    if (closed(k))
      zones[k] = 0;
  return zones;
}

RainedCells InitialState::rainedCells(std::size_t zones) const
{
  RainedCells cellsOf(std::max<std::size_t>(zones, 1), 0.0);
  for (std::size_t k = 0; k < cells(); ++k)
    if (!closed(k))
    {
      if (zones == 0)
        cellsOf[0] += rain.empty() ? 1.0 : rain[k];
      else if (k < rain.size() && rain[k] >= 0 && rain[k] < static_cast<double>(zones))
        cellsOf[static_cast<std::size_t>(rain[k])] += 1; // (other values: refused by the run)
    }
  return cellsOf;
}

namespace
{
// The per-cell rain and soil arrays are there where the parameters take them, and make sense.
void requireForcingFits(const InitialState& initial, const SimulationParameters& params)
{
  if (params.rainPerCell != !initial.rain.empty())
    throw Error(params.rainPerCell ? "the run rains per cell, but its initial state has no rain "
                                     "factors: choose a Rainfall Array"
                                   : "the initial state has rain factors, but the run does not "
                                     "rain per cell");
  const double zones = static_cast<double>(params.rainZones.size());
  if (zones > 0 && initial.rain.empty())
    throw Error("rain zones need the array of each cell's zone (Rainfall Array, swe run "
                "--rain-array)");
  for (std::size_t k = 0; zones > 0 && k < initial.cells(); ++k)
  {
    const double zone = initial.rain[k];
    if (!initial.closed(k) && !(zone >= 0 && zone < zones && zone == std::floor(zone)))
      throw Error("cell (" + std::to_string(initial.x0 + static_cast<int>(k % initial.nx)) + ", " +
                  std::to_string(initial.y0 + static_cast<int>(k / initial.nx)) +
                  ") of the Rainfall Array is in rain zone " + formatValue(zone) +
                  "; the zones are 0 to " + formatValue(zones - 1) +
                  ", one a rainfall series: give each cell one of them");
  }
  const bool soil =
    !initial.conductivity.empty() || !initial.suction.empty() || !initial.deficit.empty();
  if (params.infiltration.perCell != soil)
    throw Error(params.infiltration.perCell
                  ? "the run takes Green-Ampt's soil per cell, but its initial state has no soil "
                    "arrays"
                  : "the initial state has soil arrays, but the run's Green-Ampt is uniform");
  // (a conductivity of 0 is an impervious cell's: without an array of them, or a uniform one, the
  // soil map's suction and deficit take nothing in anywhere)
  if (soil && initial.conductivity.empty() && !(params.infiltration.conductivity > 0))
    throw Error("Green-Ampt's soil map has suction heads or moisture deficits but no hydraulic "
                "conductivity, so no cell would take any water in: give a Hydraulic Conductivity "
                "(mm/h, swe run --green-ampt K,PSI,DTHETA) or a Hydraulic Conductivity Array "
                "(--conductivity-array)");
}

// Point sources, gauges and the sides that bring water lie on cells with terrain.
void requireOpenWhereWaterIs(const InitialState& initial, const SimulationParameters& params)
{
  if (initial.closedCells() == 0)
    return;
  // Whether cell (i, j) of the whole grid is one of initial's and closed.
  const auto closedAt = [&](int i, int j)
  {
    const int a = i - initial.x0, b = j - initial.y0;
    return a >= 0 && a < initial.nx && b >= 0 && b < initial.ny &&
           initial.closed(initial.index(a, b));
  };
  const auto refuse = [](const std::string& what, int i, int j)
  {
    throw Error(what + " lies in cell (" + std::to_string(i) + ", " + std::to_string(j) +
                "), which has no terrain (no data in the DEM): move it onto the domain");
  };
  for (std::size_t k = 0; k < params.sources.size(); ++k)
  {
    const int i = gaugeCell(params.sources[k].x, params.dx),
              j = gaugeCell(params.sources[k].y, params.dx);
    if (closedAt(i, j))
      refuse("point source " + std::to_string(k + 1), i, j);
  }
  for (std::size_t g = 0; g < params.gauges.size(); ++g)
  {
    const int i = gaugeCell(params.gauges[g][0], params.dx),
              j = gaugeCell(params.gauges[g][1], params.dx);
    if (closedAt(i, j))
      refuse("gauge " + std::to_string(g + 1), i, j);
  }
  // A side of the grid that brings water (an inflow, a level) must bring it into open cells; a
  // rank checks the grid's sides its block lies on (an inflow's faces into a closed cell would
  // count water the cell never holds).
  const int gridNx = initial.nx, gridNy = initial.ny;
  const std::array<bool, 4> halo = params.haloSides();
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = params.boundaries[side];
    if (halo[static_cast<std::size_t>(side)] ||
        (b.type != BoundaryType::Inflow && b.type != BoundaryType::FixedLevel))
      continue;
    const std::array<int, 2> stretch = blockStretchCells(params, side);
    for (int k = stretch[0]; k < stretch[1]; ++k)
    {
      const auto [i, j] = sideCell(side, k, gridNx, gridNy);
      if (closedAt(i + initial.x0, j + initial.y0))
        refuse("the " + sideNames()[side] + " side's " +
                 (b.type == BoundaryType::Inflow ? "inflow" : "water level"),
          i + initial.x0,
          j + initial.y0);
    }
  }
}
} // namespace

void requireFitsParameters(const InitialState& initial, const SimulationParameters& params)
{
  requireForcingFits(initial, params);
  requireOpenWhereWaterIs(initial, params);
}

bool nothingMoves(const InitialState& initial, const SimulationParameters& params)
{
  // (inflowWaveSpeed is above 0 where rain, a series or a source brings water in)
  if (inflowWaveSpeed(params) > 0)
    return false;
  for (const Boundary& side : params.boundaries)
    if (side.type == BoundaryType::Inflow || side.type == BoundaryType::FixedLevel)
      return false;
  return std::all_of(initial.h.begin(), initial.h.end(), [](double h) { return h == 0; });
}

std::vector<double> InitialState::manningField(double uniform) const
{
  std::vector<double> field = manning.empty() ? std::vector<double>(cells(), uniform) : manning;
  for (std::size_t k = 0; k < field.size(); ++k)
    field[k] = closed(k) ? -1.0 : field[k];
  return field;
}

namespace
{
// Throws swe::Error naming the first cell of s whose depth, momentum or terrain no state has:
// not finite, a depth below zero (or zero, unless allowDry), water on a closed cell, a flow
// faster than any flood (StateBounds.h), an elevation off the Earth.
void validateCells(const InitialState& s, bool allowDry)
{
  const std::vector<double>* fields[] = { &s.h, &s.hu, &s.hv, &s.bed };
  const char* names[] = { "depth", "x-momentum", "y-momentum", "bed elevation" };
  for (std::size_t k = 0; k < s.cells(); ++k)
  {
    // The cell's name only for a message: made for every cell, it was most of the check's time
    // (see PERFORMANCE.md, 'Decisions that stand').
    const auto cell = [&] { return s.cellName(k); };
    const double h = s.h[k], hu = s.hu[k], hv = s.hv[k], bed = s.bed[k];
    for (int f = 0; f < 4; ++f)
      if (!std::isfinite((*fields[f])[k]) && !(f == 3 && s.closed(k)))
        throw Error(std::string("initial ") + names[f] + " is not finite at " + cell());
    // (one absurd elevation, a fill value no one declared, would make every depth a film the
    // flow is damped in: LocalDatum's film depth grows with the terrain's extent)
    if (std::fabs(bed) > kMaxElevation)
      throw Error("the terrain's elevation must be within +-" + formatValue(kMaxElevation) +
                  " m (Everest: 8849 m, the Mariana Trench: -10994 m), got " + formatValue(bed) +
                  " m at " + cell() +
                  ": an undeclared no-data value? Declare it (the raster's no-data value) or "
                  "make such cells NaN");
    if (s.closed(k) && (h != 0 || hu != 0 || hv != 0))
      throw Error("a cell without terrain (NaN) holds no water, but " + cell() + " has " +
                  formatValue(h) + " m");
    if (allowDry ? h < 0 : !(h > 0))
    {
      std::ostringstream m;
      if (allowDry)
        m << "initial depth must be >= 0 everywhere, got " << h << " m at " << cell();
      else
        m << "initial depth must be > 0 everywhere (Lax-Friedrichs has no dry cells: use the "
             "muscl-hllc scheme), got "
          << h << " m at " << cell();
      throw Error(m.str());
    }
    if (flowTooFast(h, hu, hv))
      refuseFlowSpeed(h, hu, hv, "of the initial state at " + cell());
  }
}
} // namespace

void InitialState::validate(bool allowDry) const
{
  if (nx <= 0 || ny <= 0)
    throw Error(
      "initial state has an empty grid (" + std::to_string(nx) + " x " + std::to_string(ny) + ")");
  if (closedCells() == cells())
    throw Error("the terrain has no data in any cell (" + std::to_string(nx) + " x " +
                std::to_string(ny) + "): nothing to simulate");
  if (!allowDry)
    for (std::size_t k = 0; k < bed.size(); ++k)
      if (closed(k))
        throw Error("the terrain has no data (NaN) at " + cellName(k) +
                    ": cells outside the domain need MUSCL-Hancock or MUSCL-HLLC, which have dry "
                    "cells");
  const std::vector<double>* fields[] = { &h, &hu, &hv, &bed };
  const char* names[] = { "depth", "x-momentum", "y-momentum", "bed elevation" };
  for (int f = 0; f < 4; ++f)
    if (fields[f]->size() != cells())
      throw Error(std::string("initial ") + names[f] + " has " + std::to_string(fields[f]->size()) +
                  " values, expected " + std::to_string(cells()));
  const struct
  {
    const std::vector<double>& values;
    const char* name;
    double max;
  } soil[] = { { conductivity, "hydraulic conductivity", kMaxRainfall },
    { suction, "suction head", 1e4 },
    { deficit, "moisture deficit", 1 } };
  for (const auto& s : soil)
  {
    if (!s.values.empty() && s.values.size() != cells())
      throw Error(std::string("initial ") + s.name + " has " + std::to_string(s.values.size()) +
                  " values, expected " + std::to_string(cells()));
    for (std::size_t k = 0; k < s.values.size(); ++k)
      if (!(s.values[k] >= 0 && s.values[k] <= s.max))
        throw Error(std::string(s.name) + " must be in [0, " + formatValue(s.max) + "], got " +
                    formatValue(s.values[k]) + " at " + cellName(k));
  }
  if (!rain.empty() && rain.size() != cells())
    throw Error("initial rain factors have " + std::to_string(rain.size()) + " values, expected " +
                std::to_string(cells()));
  for (std::size_t k = 0; k < rain.size(); ++k)
    if (!(rain[k] >= 0) || !std::isfinite(rain[k]))
      throw Error("the rain's factor must be a finite number >= 0, got " + formatValue(rain[k]) +
                  " at " + cellName(k));
  if (!manning.empty() && manning.size() != cells())
    throw Error("initial Manning field has " + std::to_string(manning.size()) +
                " values, expected " + std::to_string(cells()));
  for (std::size_t k = 0; k < manning.size(); ++k)
  {
    if (!(manning[k] >= 0) || !std::isfinite(manning[k]))
      throw Error("Manning coefficient must be a finite number >= 0, got " +
                  formatValue(manning[k]) + " at " + cellName(k));
    if (manning[k] > kMaxManning) // the uniform coefficient's range (Parameters.cpp)
      throw Error("Manning coefficient must be in [0, " + formatValue(kMaxManning) +
                  "] s/m^(1/3), got " + formatValue(manning[k]) + " at " + cellName(k));
  }
  validateCells(*this, allowDry);
}

std::string InitialState::cellName(std::size_t k) const
{
  return "cell (" + std::to_string(x0 + static_cast<int>(k % nx)) + ", " +
         std::to_string(y0 + static_cast<int>(k / nx)) + ")";
}

void InitialState::requireFlatBed() const
{
  for (std::size_t k = 1; k < bed.size(); ++k)
    if (bed[k] != bed[0])
      throw Error("the bed is not flat (" + formatValue(bed[0]) + " m at " + cellName(0) + ", " +
                  formatValue(bed[k]) + " m at " + cellName(k) +
                  ") and Lax-Friedrichs has no terrain: use the muscl-hllc scheme");
}

void InitialState::requireLevelsAboveBed(const SimulationParameters& params) const
{
  const std::array<bool, 4> halo = params.haloSides();
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = params.boundaries[side];
    if (b.type != BoundaryType::FixedLevel || halo[static_cast<std::size_t>(side)] || bed.empty())
      continue;
    double lowest = b.value;
    for (std::size_t k = 0; k < b.series.size(); ++k)
      lowest = k == 0 ? b.series[k][1] : std::min(lowest, b.series[k][1]);
    if (!(lowest > bed[0]))
      throw Error("the " + sideNames()[side] + " side's water level" +
                  (b.series.empty() ? "" : " series' lowest") + ", " + formatValue(lowest) +
                  " m, is not above the bed (" + formatValue(bed[0]) +
                  " m): its ghost cells would be dry, and Lax-Friedrichs has no dry cells: raise "
                  "the level, or use the muscl-hllc scheme");
  }
}

InitialState makeScenario(Scenario scenario, const SimulationParameters& params)
{
  return makeScenario(scenario, params, 0, 0, params.nx, params.ny);
}

InitialState makeScenario(Scenario scenario,
  const SimulationParameters& params,
  int x0,
  int y0,
  int nx,
  int ny)
{
  InitialState state(nx, ny);
  state.x0 = x0;
  state.y0 = y0;
  const double lx = params.nx * params.dx, ly = params.ny * params.dx;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
    {
      // (Cell (i, j) of the part is (x0 + i, y0 + j) of the grid.)
      const double x = (x0 + i + 0.5) * params.dx, y = (y0 + j + 0.5) * params.dx;
      double depth = 10.0;
      switch (scenario)
      {
        case Scenario::DamBreak:
          // The thesis's dam sits at 100 m of a 500 m basin; keep that fraction on any grid.
          depth = x < 0.2 * lx ? 20.0 : 10.0;
          break;
        case Scenario::RadialDamBreak:
        {
          const double r = std::hypot(x - 0.5 * lx, y - 0.5 * ly);
          depth = r < 0.15 * std::min(lx, ly) ? 20.0 : 10.0;
          break;
        }
        case Scenario::LakeAtRest:
          depth = 10.0;
          break;
        case Scenario::ImmersedBump:
        case Scenario::EmergedBump:
        {
          // SWASHES, scaled so that a domain of any length holds the 25 m case.
          const double xs = x * 25.0 / lx;
          const double z = std::max(0.0, 0.2 - 0.05 * (xs - 10.0) * (xs - 10.0));
          state.bed[state.index(i, j)] = z;
          depth = scenario == Scenario::ImmersedBump ? 0.5 - z : std::max(0.0, 0.1 - z);
          break;
        }
        case Scenario::RitterDryDamBreak:
          depth = x < 0.5 * lx ? 0.005 : 0.0;
          break;
        case Scenario::StokerWetDamBreak:
          depth = x < 0.5 * lx ? 0.005 : 0.001;
          break;
        case Scenario::ValleyDamBreak:
        {
          const double bed = valleyBed(x * 800.0 / lx, y * 500.0 / ly);
          state.bed[state.index(i, j)] = bed;
          depth = x * 800.0 / lx < 150.0 ? std::max(0.0, 42.0 - bed) : 0.0;
          break;
        }
      }
      state.h[state.index(i, j)] = depth;
    }
  return state;
}
} // namespace swe
