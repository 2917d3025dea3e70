#pragma once
// The grid and the initial state of swe run: from a .vti image (--input, with VTK), or the
// scenario on the --nx/--ny/--dx grid.
#include "CommonOptions.h"
#include "InitialState.h"
#include "Simulation.h"
#include "SimulationTypes.h"

#include <array>
#include <string>
#include <vector>

namespace swe::cli
{
struct InputOptions
{
  std::string file; // .vti or a GDAL raster with the terrain; empty: a scenario
  std::string bed;  // empty: automaticBedArray
  std::string depth, surface, velocity, manning, rain;
  std::string manningClass, manningTable;     // a land-use class array and its CSV table (class, n)
  std::string conductivity, suction, deficit; // a Green-Ampt soil map's arrays
  // discharge by zone: the array of each cell's zone, and a CSV of a discharge series a zone
  std::string sourceArray, sourceZones;
  double waterLevel = 0;
  std::array<double, 3> origin{ 0, 0, 0 }; // set from --input: where the image's cells start
  std::string crs; // set from --input: its MAP_PROJECTION (a GDAL raster's), if any
};

// The initial state; from --input, also the grid, into params (checked) and input.origin.
InitialState initialState(const CommonOptions& options,
  InputOptions& input,
  SimulationParameters& params);

// The state `run` continues from (--restart): h, hu, hv (and the flood maps, where the run keeps
// them) of a .vti frame that swe run or the plugin wrote (Depth, Momentum and the maps in the
// run's precision, field data SimulationTime and Steps), on the run's grid. Throws swe::Error
// naming the file and what it lacks, or what of the run its records cannot go on with
// (frameSnapshot); the other settings the run differs in go into `warning`.
Snapshot restartSnapshot(const std::string& file, const Simulation& run, std::string& warning);
} // namespace swe::cli
