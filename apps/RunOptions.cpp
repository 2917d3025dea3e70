#include "RunOptions.h"

#include "Error.h"
#include "GaugeOutput.h"
#include "SeriesCsv.h"
#include "StateBounds.h"
#ifdef SWE_WITH_VTK
#include "GeoTiff.h"
#endif

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

void checkOutputTimes(double tEnd, double outputEvery)
{
  // (times the clock reaches: StateBounds.h)
  requireSimulatedTime(tEnd, "end time");
  requireFinite(outputEvery, "output interval");
  if (outputEvery < 0)
    throw Error(
      "output interval must be > 0 s (or 0 for only the end), got " + formatValue(outputEvery));
  // The plugin's bound (kMaxOutputTimes in filters/PropertyParameters.cxx): a million outputs
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

} // namespace swe::cli
