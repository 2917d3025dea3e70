#pragma once
// Conserved variables and bed on the nx x ny interior cells, row-major with x fastest, in double
// precision on the host; the engine converts to the device precision when it uploads.
#include "Parameters.h"

#include <cstddef>
#include <string>
#include <vector>

namespace swe
{
struct InitialState
{
  int nx = 0;
  int ny = 0;
  // bed NaN: a closed cell, outside the domain (no data in the DEM): never wet, no rain; the
  // second-order schemes only, and dry.
  std::vector<double> h, hu, hv, bed;
  // Manning coefficient per cell; empty: the uniform SimulationParameters::manning.
  std::vector<double> manning;
  // The rain's factor per cell (SimulationParameters::rainPerCell, >= 0); empty: none.
  std::vector<double> rain;
  // Green-Ampt's soil per cell (GreenAmpt::perCell): hydraulic conductivity [mm/h], suction
  // head [mm], moisture deficit [-]; each empty: the uniform value.
  std::vector<double> conductivity, suction, deficit;
  // Where its first cell lies in the whole grid, for a rank's block of a split run (blockOf,
  // makeScenario with a block): messages name the whole grid's cells.
  int x0 = 0, y0 = 0;

  InitialState() = default;
  // Zero-filled; throws swe::Error if the host cannot hold it.
  InitialState(int nx, int ny);
  std::size_t cells() const
  {
    return nx > 0 && ny > 0 ? static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) : 0;
  }
  std::size_t index(int i, int j) const { return static_cast<std::size_t>(j) * nx + i; }
  bool closed(std::size_t k) const { return bed[k] != bed[k]; }
  std::size_t closedCells() const;
  // Whether the device holds a Manning coefficient per cell: given, or to mark closed cells.
  bool perCellManning() const { return !manning.empty() || !rain.empty() || closedCells() > 0; }
  // The open cells, each counted as its rain factor: what rain at a uniform rate falls on.
  // (zones: the run's rain zones, SimulationParameters::rainZones.size())
  RainedCells rainedCells(std::size_t zones = 0) const;
  // The rain array of a run with rain zones, closed cells (whose zone no one checks: a DEM's
  // no-data) in zone 0: they never hold water, rained on or not.
  std::vector<double> rainZonesOpen() const;
  // The device's Manning field: manning (or `uniform` everywhere), and -1 in closed cells, which
  // the kernels empty after every stage (finish_stage).
  std::vector<double> manningField(double uniform) const;

  // Throws swe::Error naming the first cell with a non-finite value, or a negative depth; a dry
  // cell (depth 0) is an error too unless the scheme handles dry cells.
  void validate(bool allowDry = false) const;
  // Throws swe::Error unless the bed is flat (the Lax-Friedrichs scheme has no bed terms).
  void requireFlatBed() const;
  // Throws swe::Error unless every level side's water (its value, or its series' lowest) stands
  // above the flat bed: a level at or below it makes the side's ghost cells dry, which
  // Lax-Friedrichs cannot take (its fluxes divide by the depth).
  void requireLevelsAboveBed(const SimulationParameters& params) const;
  // "cell (i, j)" of value k, in the whole grid's numbering.
  std::string cellName(std::size_t k) const;
};

// Throws swe::Error where initial does not suit params beyond its grid: rain factors where
// params rain per cell and only there; a point source, a gauge or a cell of an inflow or level
// side of the grid (its stretch) in a closed cell (a rank's block: of the cells it holds).
void requireFitsParameters(const InitialState& initial, const SimulationParameters& params);

// Green-Ampt's soil per cell as the kernels take it: K [m/s] and P = suction head x moisture
// deficit [m], from initial's soil arrays or else green's uniform values.
struct SoilMap
{
  std::vector<double> conductivity, suctionDeficit;
};
SoilMap soilMap(const InitialState& initial, const GreenAmpt& green);

// Whether a run can only stay as it is: no water anywhere and none coming in (no rain, series,
// source, inflow or level side). The plugin and swe run warn of it, naming what to set.
bool nothingMoves(const InitialState& initial, const SimulationParameters& params);

// A closed cell's bed on the device, above the local datum: a wall no water surface reaches, so
// no flux enters it (the hydrostatic reconstruction's face depth there is 0); values above half of
// it read back as NaN.
constexpr double kClosedBed = 1e5;

// Builds a scenario's initial state on the grid of params (which must be valid).
InitialState makeScenario(Scenario scenario, const SimulationParameters& params);
// The same for the nx x ny cells from (x0, y0) of that grid only (one rank's block of a split
// run: a rank never holds the whole grid's state).
InitialState makeScenario(Scenario scenario,
  const SimulationParameters& params,
  int x0,
  int y0,
  int nx,
  int ny);
} // namespace swe
