#pragma once
// swe run's options, and what turns them into parameters or checks them together before a run
// (RunCommand.cpp).
#include "CommonOptions.h"
#include "Parameters.h"
#include "RunInput.h"

#include <string>
#include <vector>

namespace CLI
{
class App;
}

namespace swe::cli
{
struct RunOptions
{
  CommonOptions common;
  InputOptions input;
  double tEnd = 20.0, outputEvery = 0.0;
  std::string outDir;
  std::vector<std::string> arrays;
  std::string restart;                 // a frame to continue from
  std::string rainSeries;              // a CSV hyetograph
  std::string rainZones;               // a CSV of a hyetograph a rain zone
  std::vector<std::string> sideSeries; // SIDE=TYPE:FILE
  std::vector<std::string> gauges;     // X,Y
  std::vector<std::string> sources;    // X,Y:FILE
  std::vector<double> greenAmpt;       // K, PSI, DEFICIT
  std::vector<std::string> stretches;  // SIDE=FROM,TO
  bool overwrite = false;              // remove another run's files from outDir first
  bool geotiff = false;                // the end state as GeoTIFF files in outDir
  bool digest = false;                 // print the end state's digest (StateDigest.h)
  std::string crs;                     // their coordinate reference system
};

// The run's parameters from its options (checked), with the series files they name read.
SimulationParameters resolvedParameters(RunOptions& options);
// --stretch SIDE=FROM,TO: an inflow or level side on that stretch only.
void applyStretches(const std::vector<std::string>& texts, SimulationParameters& params);
// --boundary-series SIDE=TYPE:FILE: an inflow's hydrograph or a water level's tide from a CSV
// file, in place of that side's --boundary.
void applySideSeries(const std::vector<std::string>& texts, SimulationParameters& params);
// The names of an option given comma-separated (--arrays Depth,Velocity), each value split at
// its commas. Throws swe::Error naming the option and the value with an empty name (CLI11's
// own splitting drops them, and took the next option's words for ',,,').
std::vector<std::string> commaSeparatedNames(const std::vector<std::string>& values,
  const std::string& option);
// --t-end and --output-every: finite, >= 0, and at most a million outputs.
void checkOutputTimes(double tEnd, double outputEvery);
// What --out, --overwrite, --geotiff, --crs, --arrays and --restart ask for together, before the
// run: an option that would do nothing, or fail only once the run is done, is refused.
void checkOutputOptions(const RunOptions& options, const SimulationParameters& params);
// swe run's options on its command, by kind (RunCommand.cpp adds the grid's and the numerics').
void addPhysicsOptions(CLI::App* cmd, RunOptions& options);
void addOutputOptions(CLI::App* cmd, RunOptions& options);
void addInputOptions(CLI::App* cmd, InputOptions& input);
// --gauge's points and --source's on the grid (known once an --input is read: its origin).
void placePoints(const RunOptions& options, SimulationParameters& params);
} // namespace swe::cli
