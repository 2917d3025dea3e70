#include "RunOptions.h"

#include "Error.h"
#include "GaugeOutput.h"
#include "SeriesCsv.h"
#include "StateBounds.h"
#ifdef SWE_WITH_VTK
#include "GeoTiff.h"
#endif

#include <CLI/CLI.hpp>

#include <cstdio>

namespace swe::cli
{
// --stretch SIDE=FROM,TO: an inflow or level side on that stretch only.
void applyStretches(const std::vector<std::string>& texts, SimulationParameters& params)
{
  for (const std::string& text : texts)
  {
    const auto eq = text.find('=');
    double from = 0, to = 0;
    char extra = 0;
    if (eq == std::string::npos ||
        std::sscanf(text.c_str() + eq + 1, "%lf,%lf%c", &from, &to, &extra) != 2)
      throw Error("--stretch '" + text + "' should read SIDE=FROM,TO in metres, e.g. west=200,300");
    Boundary& b = params.boundaries[static_cast<int>(sideFromName(text.substr(0, eq)))];
    if (b.onStretch())
      throw Error("--stretch '" + text + "': that side has a stretch already: give it once");
    b.from = from;
    b.to = to;
  }
}

// --boundary-series SIDE=TYPE:FILE: an inflow's hydrograph or a water level's tide from a CSV
// file, in place of that side's --boundary.
void applySideSeries(const std::vector<std::string>& texts, SimulationParameters& params)
{
  for (const std::string& text : texts)
  {
    const auto eq = text.find('='), colon = text.find(':', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || colon == std::string::npos)
      throw Error("--boundary-series '" + text +
                  "' should read SIDE=TYPE:FILE, e.g. west=inflow:hydrograph.csv");
    const Side side = sideFromName(text.substr(0, eq));
    const BoundaryType type = boundaryTypeFromName(text.substr(eq + 1, colon - eq - 1));
    if (type != BoundaryType::Inflow && type != BoundaryType::FixedLevel)
      throw Error("--boundary-series '" + text +
                  "': a series is for an inflow side (m^2/s) or a level side (m), not " +
                  (type == BoundaryType::Wall ? "a wall" : "an open side"));
    Boundary& b = params.boundaries[static_cast<int>(side)];
    // (a --boundary or another series for the side was replaced without a word)
    if (b.type != BoundaryType::Wall || b.value != 0 || !b.series.empty())
      throw Error("--boundary-series '" + text + "': the " + sideNames()[static_cast<int>(side)] +
                  " side is set already (by --boundary or another --boundary-series): give it " +
                  "once");
    b = { type, 0.0, readSeries(text.substr(colon + 1)) };
  }
}

std::vector<std::string> commaSeparatedNames(const std::vector<std::string>& values,
  const std::string& option)
{
  std::vector<std::string> names;
  for (const std::string& value : values)
    for (std::size_t begin = 0, end = 0; end != std::string::npos; begin = end + 1)
    {
      end = value.find(',', begin);
      names.push_back(value.substr(begin, end == std::string::npos ? end : end - begin));
      if (names.back().find_first_not_of(" \t") == std::string::npos)
        throw Error(
          option + " '" + value + "' has an empty name" +
          (value.find(',') == std::string::npos ? "" : " (between or beside its commas)") +
          ": name each array, e.g. " + option + " Depth,Velocity");
    }
  return names;
}

SimulationParameters resolvedParameters(RunOptions& options)
{
  checkOutputTimes(options.tEnd, options.outputEvery);
  options.arrays = commaSeparatedNames(options.arrays, "--arrays");
  if (!options.rainSeries.empty())
    options.common.params.rainSeries = readSeries(options.rainSeries);
  if (!options.rainZones.empty())
    options.common.params.rainZones = readSeriesColumns(options.rainZones);
  if (options.greenAmpt.size() == 3)
    options.common.params.infiltration = {
      options.greenAmpt[0], options.greenAmpt[1], options.greenAmpt[2]
    };
  SimulationParameters params = options.common.resolve();
  if (!options.sideSeries.empty() || !options.stretches.empty())
  {
    applySideSeries(options.sideSeries, params);
    applyStretches(options.stretches, params);
    // (an --input's grid comes later, and is checked with its parameters: imageState)
    if (options.input.file.empty())
      params.validate();
  }
  return params;
}

void checkOutputTimes(double tEnd, double outputEvery)
{
  // (times the clock reaches: StateBounds.h)
  requireSimulatedTime(tEnd, "end time");
  requireFinite(outputEvery, "output interval");
  if (outputEvery < 0)
    throw Error(
      "output interval must be > 0 s (or 0 for only the end), got " + formatValue(outputEvery));
  // The plugin's bound (kMaxOutputTimes, PropertyParameters.cxx): a million outputs
  // is already a file every step of a long run; far beyond, the count overflows the loop's long
  // and the run takes no step at all, and past 2^24 outputs fp32 clocks cannot tell one output
  // time from the next.
  constexpr double maxOutputTimes = 1e6;
  if (outputEvery > 0 && tEnd / outputEvery > maxOutputTimes)
    throw Error("--t-end " + formatValue(tEnd) + " / --output-every " + formatValue(outputEvery) +
                " gives more than a million output times: raise --output-every to at least " +
                formatValue(tEnd / maxOutputTimes) + " s (or 0 for only the end)");
  if (outputEvery > 0)
    requireTimeSpan(outputEvery, "output interval");
}

// What --out, --geotiff, --crs, --arrays and --restart ask for together, before the run: an
// option that would do nothing, or fail only once the run is done, is refused.
void checkOutputOptions(const RunOptions& options, const SimulationParameters& params)
{
  if ((options.geotiff || !options.crs.empty()) && options.outDir.empty())
    throw Error("--geotiff writes into --out: give a directory");
  if (!options.crs.empty() && !options.geotiff)
    throw Error("--crs " + options.crs + " is the GeoTIFF maps' system: give --geotiff too");
  if (options.overwrite && options.outDir.empty())
    throw Error("--overwrite removes another run's files from --out: give the directory");
  if (options.overwrite && !options.restart.empty())
    throw Error("--overwrite would remove the series that --restart continues: give one of them");
  if (!options.arrays.empty() && options.outDir.empty())
    throw Error("--arrays chooses what the frames in --out hold: give a directory");
  if (!options.restart.empty() && params.waterBalance)
    throw Error("--restart continues the state, not the water balance kept from t = 0: leave "
                "out --balance, or run from t = 0");
#ifdef SWE_WITH_VTK
  checkCrs(options.crs);
#endif
}

// --gauge's points and --source's on the grid (known once an --input is read: its origin).
void placePoints(const RunOptions& options, SimulationParameters& params)
{
  params.origin = { options.input.origin[0], options.input.origin[1] };
  if (!options.gauges.empty())
    params.gauges = gaugePoints(options.gauges, options.input.origin);
  for (const std::string& text : options.sources)
  {
    const auto colon = text.find(':');
    if (colon == std::string::npos)
      throw Error("--source '" + text + "' should read X,Y:FILE, e.g. 120,80:pump.csv");
    const auto at = gaugePoints({ text.substr(0, colon) }, options.input.origin, "--source");
    params.sources.push_back({ at[0][0], at[0][1], readSeries(text.substr(colon + 1)) });
  }
  params.validateGauges();
  params.validateSources();
}

// The physics and what a run records: friction, rain and losses, series, sources, stretches,
// gauges, flood maps, the water balance.
void addPhysicsOptions(CLI::App* cmd, RunOptions& options)
{
  SimulationParameters& params = options.common.params;
  options.common.addScalarOptions(
    cmd, { ScalarId::Manning, ScalarId::Rainfall, ScalarId::LossRate });
  cmd->add_option("--rain-series",
    options.rainSeries,
    "rain varying in time, in place of --rain: a CSV file of (time [s], intensity [mm/h]) at "
    "increasing times, linear between them, none before the first or after the last");
  cmd->add_option("--rain-zones",
    options.rainZones,
    "rain zones, in place of --rain and --rain-series: a CSV of a time column [s] and one "
    "intensity column [mm/h] a zone; --rain-array then gives each cell's zone, 0 for the first "
    "column");
  cmd->add_option("--boundary-series",
    options.sideSeries,
    "a side's value varying in time, SIDE=TYPE:FILE: an inflow's hydrograph (m^2/s) or a "
    "water level's tide (m) from a CSV file of (time [s], value), in place of --boundary");
  cmd
    ->add_option("--green-ampt",
      options.greenAmpt,
      "Green-Ampt infiltration in place of --losses: K,PSI,DEFICIT, the saturated hydraulic "
      "conductivity [mm/h], the suction head [mm] and the moisture deficit, e.g. 10,110,0.3")
    ->delimiter(',')
    ->expected(3);
  cmd->add_option("--source",
    options.sources,
    "a point source at X,Y (m, in the grid's coordinates) with its discharge from a CSV file of "
    "(time [s], m^3/s): X,Y:FILE (repeat for more)");
  cmd->add_option("--source-zones",
    options.input.sourceZones,
    "discharge by zone: a CSV of a time column [s] and a discharge column [m^3/s] a zone, each "
    "spread evenly over its zone's cells, wet or dry (as point sources); --source-array gives "
    "each cell's zone, 0 for the first column, a negative value for none");
  cmd->add_option("--source-array",
    options.input.sourceArray,
    "each cell's source zone for --source-zones, an array of --input");
  cmd->add_option("--stretch",
    options.stretches,
    "an inflow or level side on a stretch only, SIDE=FROM,TO in metres along it (from its south "
    "or west end); the rest of the side is a wall");
  cmd->add_option("--gauge",
    options.gauges,
    "a gauge at X,Y (m, in the grid's coordinates), sampled every step: its depth, surface and "
    "velocity go to gauges.csv in --out, its peak to the report (repeat for more)");
  options.common.addScalarOptions(cmd, { ScalarId::GaugeInterval });
  cmd->add_flag("--maps",
    params.floodMaps,
    "keep flood maps at every step (MaxDepth, MaxSpeed, MaxHazard, ArrivalTime, Duration): "
    "written with the other arrays, summed up at the end");
  options.common.addScalarOptions(cmd, { ScalarId::ArrivalDepth });
  cmd->add_flag("--balance",
    params.waterBalance,
    "keep the water balance (rain, inflow and outflow through the sides and point sources, "
    "infiltration, the water stored): a line at every output, balance.csv in --out, and its "
    "error in the RESULT line");
}

// --out and what goes into it: the series' arrays, --overwrite, GeoTIFF maps, the digest.
void addOutputOptions(CLI::App* cmd, RunOptions& options)
{
  cmd->add_option("--out",
    options.outDir,
    "directory for .vti files and a .pvd series (one run at a time; another run's series there "
    "is refused unless --overwrite or --restart)");
  cmd->add_flag("--overwrite",
    options.overwrite,
    "remove another run's series, gauges.csv, balance.csv and GeoTIFF maps from --out first");
  cmd->add_flag("--geotiff",
    options.geotiff,
    "also write the end state's Depth and FreeSurface and the fields the run keeps (flood maps, "
    "Infiltration, Inflow) as GeoTIFF files in --out, placed like --input (with VTK)");
  cmd->add_flag("--digest",
    options.digest,
    "print a digest of the end state's bits, the same on any number of ranks (DIGEST line)");
  cmd->add_option("--crs",
    options.crs,
    "the GeoTIFFs' coordinate reference system (EPSG:32633, a PROJ string or WKT; default: the "
    "--input raster's)");
  cmd->add_option("--arrays",
    options.arrays,
    "the cell arrays the .vti files hold, comma-separated (Depth, FreeSurface, Bed, Momentum, "
    "Velocity, and the flood maps of --maps, which naming one switches on; default all)");
}

void addInputOptions(CLI::App* cmd, InputOptions& input)
{
  cmd->add_option("--input",
    input.file,
    "a 2D .vti image, or a raster GDAL reads (a GeoTIFF DEM), with the terrain (replaces "
    "--scenario and the grid flags)");
  cmd->add_option("--bed-array",
    input.bed,
    "terrain array of --input (default: one named Bed, Elevation, DEM, Terrain or Band 1, or its "
    "only one-component array)");
  cmd->add_option("--depth-array",
    input.depth,
    "initial depth array of --input (default: Band 2 where it has one and no --surface-array is "
    "given, as the Shallow Water Solver; none: no array)");
  cmd->add_option("--rain-array",
    input.rain,
    "the rain's factor per cell, an array of --input: --rain (or --rain-series) times its value");
  cmd->add_option("--conductivity-array",
    input.conductivity,
    "a Green-Ampt soil map: each cell's hydraulic conductivity [mm/h], an array of --input");
  cmd->add_option(
    "--suction-array", input.suction, "a soil map's suction head per cell [mm], of --input");
  cmd->add_option(
    "--deficit-array", input.deficit, "a soil map's moisture deficit per cell, of --input");
  cmd->add_option("--surface-array",
    input.surface,
    "initial water-surface array of --input (default: FreeSurface where it has one and no "
    "--depth-array is given; none: no array)");
  cmd->add_option("--velocity-array",
    input.velocity,
    "initial velocity of --input: an array of 2 or 3 components, or two arrays of one, x then "
    "y, comma-separated (\"Band 3,Band 4\"); default: Velocity where it has one; none: no "
    "array");
  cmd->add_option("--manning-array",
    input.manning,
    "per-cell Manning array of --input (default: Manning where it has one; none: no array)");
  cmd->add_option("--manning-class-array",
    input.manningClass,
    "a land-use class per cell (whole numbers), an array of --input: each cell's Manning "
    "coefficient is its class's n in --manning-table, in place of --manning");
  cmd->add_option("--manning-table",
    input.manningTable,
    "the n [s/m^(1/3)] of each class of --manning-class-array: a CSV file with a header naming "
    "the columns class and n");
  cmd->add_option("--water-level",
    input.waterLevel,
    "initial water-surface elevation where --input gives no water [m]");
}
} // namespace swe::cli
