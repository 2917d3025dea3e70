#include "Parameters.h"

#include "Error.h"
#include "ParameterTable.h"
#include "LaunchShape.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace swe
{
std::string formatValue(double value)
{
  // As typed: the shortest of 6 to 15 significant digits that reads back as value (15: any
  // number typed with as many reads back as typed), so that 1.0000001 is not shown as the 1 it
  // was refused beside. A computed value rarely reads back in 15 digits: it gets 6.
  char text[32];
  for (int digits = 6; digits <= 15; ++digits)
  {
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value)
      return text;
  }
  std::snprintf(text, sizeof(text), "%.6g", value);
  return text;
}

std::string lowercase(std::string text)
{
  std::transform(text.begin(),
    text.end(),
    text.begin(),
    [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

void requireFinite(double value, const std::string& what)
{
  if (!std::isfinite(value))
    throw Error(what + " must be a finite number, got " + formatValue(value));
}

namespace
{
// Throws swe::Error unless the scheme has wet and dry cells (the terms that dry cells out, or
// that act on part of the grid only, need them), naming `what`.
void requireWetDry(Scheme scheme, const std::string& what)
{
  if (scheme == Scheme::LaxFriedrichs)
    throw Error(what + " needs MUSCL-Hancock or MUSCL-HLLC (Lax-Friedrichs has no wet and dry "
                       "cells)");
}

// Throws swe::Error unless side `name` (b) is an inflow or a water level, which alone can hold
// `what` (a series, a stretch).
void requireInflowOrLevel(const Boundary& b, const std::string& name, const std::string& what)
{
  if (b.type != BoundaryType::Inflow && b.type != BoundaryType::FixedLevel)
    throw Error("the " + name + " has " + what + " but is " +
                (b.type == BoundaryType::Wall ? "a wall" : "open") + ": " + what +
                " is for an inflow or a water level");
}

// Throws swe::Error unless series has 2 to kMaxSeriesPoints points at increasing times >= 0 with
// values in [low, high] (unit: theirs), naming the point (what: the series).
void checkSeries(const Series& series,
  const std::string& what,
  double low,
  double high,
  const std::string& unit)
{
  if (series.size() < 2 || series.size() > kMaxSeriesPoints)
    throw Error("the " + what + " needs 2 to " + std::to_string(kMaxSeriesPoints) +
                " points (time, " + unit + "), got " + std::to_string(series.size()));
  for (std::size_t k = 0; k < series.size(); ++k)
  {
    const double t = series[k][0], v = series[k][1];
    const std::string point = what + " point " + std::to_string(k + 1);
    requireFinite(t, point + "'s time");
    requireFinite(v, point + "'s value");
    if (t < 0 || (k > 0 && !(t > series[k - 1][0])))
      throw Error(point + ": time " + formatValue(t) + " s must be >= 0" +
                  (k > 0 ? " and after the point before (" + formatValue(series[k - 1][0]) + " s)"
                         : std::string()));
    if (v < low || v > high)
      throw Error(point + ": " + formatValue(v) + " " + unit + " is outside [" + formatValue(low) +
                  ", " + formatValue(high) + "] " + unit);
  }
}
} // namespace

namespace
{
// A coordinate as a user gave it: a DEM's (UTM metres: 4000500) in full, not 4.0005e+06.
std::string formatCoordinate(double value)
{
  std::ostringstream s;
  s << std::setprecision(12) << value;
  return s.str();
}

// Throws swe::Error unless (x, y) lies in the grid of params, naming `what`.
void requireInGrid(const SimulationParameters& params, double x, double y, const std::string& what)
{
  requireFinite(x, what + "'s x");
  requireFinite(y, what + "'s y");
  const int nx = params.gridNx(), ny = params.gridNy();
  const double x0 = params.origin[0], y0 = params.origin[1];
  // (in double before any cast: x / dx past 2^31 made a negative cell that passed)
  if (x < 0 || y < 0 || !(std::floor(x / params.dx) < nx) || !(std::floor(y / params.dx) < ny))
    throw Error(what + " at (" + formatCoordinate(x0 + x) + ", " + formatCoordinate(y0 + y) +
                ") m lies outside the grid, which spans [" + formatCoordinate(x0) + ", " +
                formatCoordinate(x0 + nx * params.dx) + ") x [" + formatCoordinate(y0) + ", " +
                formatCoordinate(y0 + ny * params.dx) + ") m");
}
} // namespace

void SimulationParameters::validateGauges() const
{
  if (gauges.size() > kMaxGauges)
    throw Error(
      "at most " + std::to_string(kMaxGauges) + " gauges, got " + std::to_string(gauges.size()));
  for (std::size_t g = 0; g < gauges.size(); ++g)
    requireInGrid(*this, gauges[g][0], gauges[g][1], "gauge " + std::to_string(g + 1));
}

void SimulationParameters::validateInfiltration() const
{
  const GreenAmpt& g = infiltration;
  for (ScalarId id : { ScalarId::Conductivity, ScalarId::Suction, ScalarId::Deficit })
    requireFinite(scalarParameter(id).get(*this), scalarParameter(id).name);
  if (!g.perCell && g.conductivity == 0 && g.suction == 0 && g.deficit == 0)
    return;
  // (with a soil map, a conductivity of 0 is that of the cells without one: none there)
  if (g.conductivity == 0 && !g.perCell)
    throw Error("hydraulic conductivity must be in (0, " + formatValue(kMaxRainfall) +
                "] mm/h, got 0 (" + scalarParameter(ScalarId::Conductivity).hint + ")");
  for (ScalarId id : { ScalarId::Conductivity, ScalarId::Suction, ScalarId::Deficit })
    requireInRange(scalarParameter(id), scalarParameter(id).get(*this));
  requireWetDry(scheme, "Green-Ampt infiltration");
  if (losses > 0)
    throw Error("give either a loss rate (" + formatValue(losses) +
                " mm/h) or Green-Ampt infiltration, not both");
}

void SimulationParameters::validateBalance() const
{
  if (rainPerCell && !(rainfall > 0) && rainSeries.empty() && rainZones.empty())
    throw Error("a rain factor per cell (Rainfall Array) scales Rainfall or the Rainfall Series: "
                "set one (Rainfall 1 mm/h makes the array's values the rates in mm/h), or give "
                "rain zones (the Series table's Rainfall 0, Rainfall 1, ...: the array then holds "
                "each cell's zone)");
  if (rainPerCell)
    requireWetDry(scheme, "rain per cell (Rainfall Array)");
  if (waterBalance && losses > 0)
    throw Error("the water balance does not count a constant loss rate (" + formatValue(losses) +
                " mm/h): use Green-Ampt infiltration, whose losses it counts, or turn the water "
                "balance off");
}

void SimulationParameters::validateSources() const
{
  const auto checkDischarge = [](const Series& discharge, const std::string& what)
  { checkSeries(discharge, what, -kMaxSourceDischarge, kMaxSourceDischarge, "m^3/s"); };
  for (std::size_t z = 0; z < sourceZones.size(); ++z)
    checkDischarge(sourceZones[z], "discharge of source zone " + std::to_string(z));
  if (!sourceZones.empty())
    requireWetDry(scheme, "a source zone");
  if (sources.empty())
    return;
  requireWetDry(scheme, "a point source");
  for (std::size_t k = 0; k < sources.size(); ++k)
  {
    const std::string name = "point source " + std::to_string(k + 1);
    requireInGrid(*this, sources[k].x, sources[k].y, name);
    checkDischarge(sources[k].discharge, name + "'s discharge");
  }
}

std::array<int, 2> stretchCells(const Boundary& boundary, double dx, int cells)
{
  if (!boundary.onStretch())
    return { 0, cells };
  const int first = static_cast<int>(std::ceil(boundary.from / dx - 0.5));
  const int end = static_cast<int>(std::floor(boundary.to / dx - 0.5)) + 1;
  return { std::clamp(first, 0, cells), std::clamp(end, 0, cells) };
}

std::array<int, 2> blockStretchCells(const SimulationParameters& params, int side)
{
  const bool alongY = side < 2; // west, east
  const std::array<int, 2> whole =
    stretchCells(params.boundaries[side], params.dx, alongY ? params.gridNy() : params.gridNx());
  const int first = alongY ? params.blockY0 : params.blockX0,
            cells = alongY ? params.ny : params.nx;
  return { std::clamp(whole[0] - first, 0, cells), std::clamp(whole[1] - first, 0, cells) };
}

void SimulationParameters::validateStretches() const
{
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = boundaries[side];
    if (!b.onStretch())
      continue;
    const std::string name = sideNames()[side] + " boundary";
    requireFinite(b.from, name + "'s stretch start");
    requireFinite(b.to, name + "'s stretch end");
    const bool alongY =
      side == static_cast<int>(Side::West) || side == static_cast<int>(Side::East);
    const int cells = alongY ? gridNy() : gridNx();
    requireInflowOrLevel(b, name, "a stretch");
    requireWetDry(scheme, "the " + name + "'s stretch");
    const std::array<int, 2> covered = stretchCells(b, dx, cells);
    if (!(b.from >= 0 && b.from < b.to && b.to <= cells * dx) || covered[1] <= covered[0])
      throw Error("the " + name + "'s stretch [" + formatValue(b.from) + ", " + formatValue(b.to) +
                  "] m must lie along the side, in [0, " + formatValue(cells * dx) +
                  "] m, and hold at least one cell's centre (cells of " + formatValue(dx) + " m)");
  }
}

void SimulationParameters::validateSeries() const
{
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = boundaries[side];
    if (b.series.empty())
      continue;
    const std::string name = sideNames()[side] + " boundary";
    requireInflowOrLevel(b, name, "a series");
    requireWetDry(scheme, "the " + name + "'s series");
    if (b.type == BoundaryType::Inflow)
      checkSeries(b.series, name + "'s hydrograph", 0, kMaxInflowDischarge, "m^2/s");
    else
      checkSeries(b.series, name + "'s level series", -kMaxLevelSeries, kMaxLevelSeries, "m");
  }
  validateRainZones();
  if (rainSeries.empty())
    return;
  if (rainfall > 0)
    throw Error("give either a uniform rainfall (" + formatValue(rainfall) +
                " mm/h) or a rainfall series, not both");
  requireWetDry(scheme, "a rainfall series");
  checkSeries(rainSeries, "rainfall series", 0, kMaxRainfall, "mm/h");
}

void SimulationParameters::validateRainZones() const
{
  if (rainZones.empty())
    return;
  if (rainZones.size() > kMaxRainZones)
    throw Error("at most " + std::to_string(kMaxRainZones) + " rain zones, got " +
                std::to_string(rainZones.size()) + ": merge zones that share a hyetograph");
  if (rainfall > 0 || !rainSeries.empty())
    throw Error("give either rain zones or a uniform rainfall or rainfall series, not both");
  requireWetDry(scheme, "rain zones");
  for (std::size_t z = 0; z < rainZones.size(); ++z)
    checkSeries(
      rainZones[z], "rainfall series of zone " + std::to_string(z), 0, kMaxRainfall, "mm/h");
}

SimulationParameters::SimulationParameters()
{
  for (const ScalarParameter& parameter : scalarParameters())
    parameter.set(*this, parameter.defaultValue);
}

void SimulationParameters::validate() const
{
  validateGrid();
  validateScalars();
  validateSeries();
  validateGauges();
  validateSources();
  validateInfiltration();
  validateStretches();
  validateBalance();
  // Losses dry cells out, which Lax-Friedrichs (no wet/dry) cannot take.
  if (losses > 0 && scheme == Scheme::LaxFriedrichs)
    throw Error("a loss rate needs wet and dry cells, which Lax-Friedrichs does not handle: "
                "use MUSCL-Hancock or MUSCL-HLLC, or set the loss rate to 0");
  validateSides();
  validateLaunch();
}

void SimulationParameters::validateGrid() const
{
  if (nx <= 0)
    throw Error("nx must be a positive number of cells, got " + std::to_string(nx));
  if (ny <= 0)
    throw Error("ny must be a positive number of cells, got " + std::to_string(ny));
  requireFinite(dx, "cell size dx");
  if (dx <= 0)
    throw Error("cell size dx must be > 0 m, got " + formatValue(dx));
  // Past the sign, the range where the arithmetic still means something, wide enough for any
  // flood, river or lab flume. Cells below 1 mm are under the capillary length (2.7 mm), where
  // surface tension, not gravity, drives the flow, and dt = C dx / speed makes even a second take
  // millions of steps (1e-30 m: none ends); cells above 100 km outgrow the Earth within a few
  // hundred of them, and h dx^2 overflows long before 1e308 m.
  if (dx < kMinCellSize || dx > kMaxCellSize)
    throw Error("cell size dx must be in [" + formatValue(kMinCellSize) + ", " +
                formatValue(kMaxCellSize) + "] m, got " + formatValue(dx) +
                " (finer cells are below the scale of shallow-water flow, coarser ones outgrow "
                "the Earth; a terrain in degrees must be projected to metres first)");
}

// The ranges of ParameterTable.cpp, and why they are where they are:
// - gravity: Ceres has 0.28 m/s^2, Jupiter 25; beyond, wave speeds sqrt(g h) are either below
//   fp32's smallest normal numbers for thin water (one step to the end, no wave moves) or a
//   planet that has no floods to model.
// - Manning: Chow's tables end near 0.2 (floodplains under heavy timber); 1 leaves room for
//   buildings modelled as roughness. Far beyond, g n^2 overflows fp32 and friction turns NaN.
// - rainfall: the most intense minute of rain on record is about 1900 mm/h (31 mm, Unionville
//   1956), an hour's about 400 mm/h; beyond is a river, better given as an inflow. Loss rates
//   and conductivities: soils take in up to some hundreds of mm/h (sand); the same bound.
// - arrival depth: water shallower than the dry depth has no velocity and counts as no water.
// - Courant number: below 0.001 a wave takes over a thousand steps per cell for no gain in
//   accuracy; near fp32's smallest numbers C dx flushes to zero and the run takes one step.
// - fixed dt: below a microsecond is no flood's (a millimetre cell under a metre of water takes
//   dt near 1e-4 s) but a unit slip, and would run for ever in steps that change nothing.
void SimulationParameters::validateScalars() const
{
  for (const ScalarParameter& parameter : scalarParameters())
    if (!parameter.checkedTogether)
      requireInRange(parameter, parameter.get(*this));
}

void SimulationParameters::validateLaunch() const
{
  if (launch != "auto" && launch != "default")
    parseLaunchShape(launch);
}

void SimulationParameters::validateSides() const
{
  for (int side = 0; side < 4; ++side)
  {
    const Boundary& b = boundaries[side];
    const std::string name = sideNames()[side] + " boundary";
    requireFinite(b.value, name + " value");
    if ((b.type == BoundaryType::Wall || b.type == BoundaryType::Open) && b.value != 0)
      throw Error("the " + name + " is " + (b.type == BoundaryType::Wall ? "a wall" : "open") +
                  " and takes no value, got " + formatValue(b.value) +
                  " (an inflow or a water level needs that type)");
    // The ghost cells take the discharge into the domain; a negative one would drain it, which
    // is what an open side is for.
    if (b.type == BoundaryType::Inflow && b.value < 0)
      throw Error("the " + name + "'s inflow must be >= 0 m^2/s into the domain, got " +
                  formatValue(b.value) + ": to let water leave, make that side open");
    // 10^4 m^2/s is a 100 m deep flow at 100 m/s, beyond any recorded flood; far beyond, q^2
    // overflows fp32 in the ghost cells' fluxes.
    if (b.type == BoundaryType::FixedLevel && std::fabs(b.value) > kMaxLevelSeries)
      throw Error("the " + name + "'s water level must be in [" + formatValue(-kMaxLevelSeries) +
                  ", " + formatValue(kMaxLevelSeries) + "] m, got " + formatValue(b.value) +
                  " (a surface elevation in the terrain's metres)");
    if (b.type == BoundaryType::Inflow && b.value > kMaxInflowDischarge)
      throw Error("the " + name + "'s inflow must be at most " + formatValue(kMaxInflowDischarge) +
                  " m^2/s, got " + formatValue(b.value) +
                  " (a discharge per metre of boundary, not of the whole river)");
  }
}

namespace
{
template<class Enum>
Enum fromName(const std::vector<std::string>& names, const std::string& name, const char* what)
{
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == name)
      return static_cast<Enum>(k);
  std::string known;
  for (const auto& n : names)
    known += (known.empty() ? "" : ", ") + n;
  throw Error(std::string("unknown ") + what + " '" + name + "' (known: " + known + ")");
}
} // namespace

const std::vector<std::string>& scenarioNames()
{
  static const std::vector<std::string> names = { "dambreak",
    "radial-dambreak",
    "lake-at-rest",
    "immersed-bump",
    "emerged-bump",
    "ritter",
    "stoker",
    "valley-dambreak" };
  return names;
}

Scenario scenarioFromName(const std::string& name)
{
  return fromName<Scenario>(scenarioNames(), name, "scenario");
}

std::string scenarioName(Scenario scenario)
{
  return scenarioNames().at(static_cast<std::size_t>(scenario));
}

const std::vector<std::string>& boundaryTypeNames()
{
  static const std::vector<std::string> names = { "wall", "open", "inflow", "level" };
  return names;
}

BoundaryType boundaryTypeFromName(const std::string& name)
{
  return fromName<BoundaryType>(boundaryTypeNames(), name, "boundary type");
}

const std::vector<std::string>& sideNames()
{
  static const std::vector<std::string> names = { "west", "east", "south", "north" };
  return names;
}

Side sideFromName(const std::string& name)
{
  return fromName<Side>(sideNames(), name, "side");
}

void parseBoundary(const std::string& text, SimulationParameters& params)
{
  const auto eq = text.find('=');
  if (eq == std::string::npos)
    throw Error("boundary '" + text + "' should read SIDE=TYPE[:VALUE], e.g. west=inflow:2.5");
  const Side side = sideFromName(text.substr(0, eq));
  const std::string rest = text.substr(eq + 1);
  const auto colon = rest.find(':');
  Boundary b;
  b.type = boundaryTypeFromName(rest.substr(0, colon));
  if (colon != std::string::npos)
  {
    const std::string number = rest.substr(colon + 1);
    std::size_t used = 0;
    try
    {
      b.value = std::stod(number, &used);
    }
    catch (const std::exception&)
    {
      used = 0;
    }
    if (used == 0 || used != number.size())
      throw Error("boundary '" + text + "': '" + number + "' is not a number");
  }
  else if (b.type == BoundaryType::Inflow || b.type == BoundaryType::FixedLevel)
    throw Error(
      "boundary '" + text + "' needs a value: " +
      (b.type == BoundaryType::Inflow ? "a discharge per unit width in m^2/s, e.g. inflow:2.5"
                                      : "a water-surface elevation in m, e.g. level:1.2"));
  params.boundaries[static_cast<int>(side)] = b;
}

const std::vector<std::string>& schemeNames()
{
  static const std::vector<std::string> names = { "lax-friedrichs", "muscl-hllc", "muscl-hancock" };
  return names;
}

Scheme schemeFromName(const std::string& name)
{
  return fromName<Scheme>(schemeNames(), name, "scheme");
}

std::string schemeName(Scheme scheme)
{
  return schemeNames().at(static_cast<std::size_t>(scheme));
}

Precision precisionFromName(const std::string& name)
{
  if (name == "single" || name == "float" || name == "fp32")
    return Precision::Single;
  if (name == "double" || name == "fp64")
    return Precision::Double;
  throw Error("unknown precision '" + name + "' (use single or double)");
}

std::string precisionName(Precision precision)
{
  return precision == Precision::Single ? "single" : "double";
}

double inflowWaveSpeed(const SimulationParameters& params)
{
  double speed = 0.0;
  for (const Boundary& side : params.boundaries)
    if (side.type == BoundaryType::Inflow)
    {
      double q = std::fabs(side.value); // (the largest of a hydrograph)
      for (const std::array<double, 2>& point : side.series)
        q = std::max(q, std::fabs(point[1]));
      speed = std::max(speed, 2.0 * std::cbrt(params.gravity * q));
    }
  // A point source as an inflow across one cell's side: its largest discharge over dx.
  for (const PointSource& source : params.sources)
    for (const std::array<double, 2>& point : source.discharge)
      speed = std::max(speed, 2.0 * std::cbrt(params.gravity * std::fabs(point[1]) / params.dx));
  if (peakRainfall(params) > 0)
    speed = std::max(speed, std::sqrt(params.gravity * kRainWaveDepth));
  return speed;
}

double peakRainfall(const SimulationParameters& params)
{
  double peak = params.rainfall;
  for (const std::array<double, 2>& point : params.rainSeries)
    peak = std::max(peak, point[1]);
  for (const Series& zone : params.rainZones)
    for (const std::array<double, 2>& point : zone)
      peak = std::max(peak, point[1]);
  return peak;
}

bool skipsDryLand(const SimulationParameters& params)
{
  return params.skipDry && isSecondOrder(params.scheme) && params.rainfall <= 0 &&
         params.rainSeries.empty() && !params.rainPerCell;
}

bool holdsDt(const SimulationParameters& params)
{
  return params.exchangeInterval > 1;
}

int overlapCells(const SimulationParameters& params)
{
  if (!holdsDt(params))
    return 0;
  const int reach = params.scheme == Scheme::MusclHllc      ? 4
                    : params.scheme == Scheme::MusclHancock ? 2
                                                            : 1;
  return reach * params.exchangeInterval;
}

double rainfallRate(const SimulationParameters& params)
{
  return params.rainfall / 3.6e6;
}

double lossRate(const SimulationParameters& params)
{
  return params.losses / 3.6e6;
}
} // namespace swe
