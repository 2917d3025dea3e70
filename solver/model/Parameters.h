#pragma once
// Everything that defines a simulation, independent of VTK and of OpenCL: the plugin's properties
// and the tool's flags are both turned into this struct, and the engine takes nothing else.
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace swe
{
enum class Precision
{
  Single,
  Double
};

enum class Scheme
{
  LaxFriedrichs, // the thesis's first-order scheme: flat bed, no dry cells
  MusclHllc,     // second order: MUSCL + hydrostatic reconstruction + HLLC, Heun; bed, wet/dry
  MusclHancock   // the same in space, MUSCL-Hancock in time: one flux pass a step, not two
};

// The second-order schemes share the terrain, the dry land, the row-sweep launches and the
// Courant number's meaning.
inline bool isSecondOrder(Scheme scheme)
{
  return scheme != Scheme::LaxFriedrichs;
}

enum class BoundaryType
{
  Wall,      // reflective (the default on every side)
  Open,      // transmissive: waves leave the domain
  Inflow,    // a given discharge per unit width into the domain [m^2/s]
  FixedLevel // a given water-surface elevation [m]
};

enum class Side
{
  West,
  East,
  South,
  North
};

// A forcing series: (time [s], value) at increasing times, linear between them, 0 before the first
// and after the last (kernels/device/forcing.h).
using Series = std::vector<std::array<double, 2>>;

// Green-Ampt infiltration, uniform over the grid; off while the conductivity is 0.
struct GreenAmpt
{
  double conductivity = 0; // saturated hydraulic conductivity K [mm/h]
  double suction = 0;      // wetting-front suction head psi [mm]
  double deficit = 0;      // moisture deficit (porosity - initial water content) [-], in [0, 1]
  // The soil per cell: the initial state's arrays (InitialState::conductivity, suction,
  // deficit) in place of these values where it has them (a soil map).
  bool perCell = false;
  bool on() const { return conductivity > 0 || perCell; }
};

// A point source: a discharge [m^3/s] into the cell at (x, y) (metres from the grid's corner),
// varying in time (a culvert's outlet, a river entering mid-domain); a negative one is a sink
// (a pump, a drain), which takes no more than the cell holds.
struct PointSource
{
  double x = 0, y = 0;
  Series discharge;
};

struct Boundary
{
  Boundary() = default;
  Boundary(BoundaryType type, double value, Series series = {})
    : type(type)
    , value(value)
    , series(std::move(series))
  {
  }
  BoundaryType type = BoundaryType::Wall;
  double value = 0.0; // discharge (Inflow) or surface elevation (FixedLevel); 0 otherwise
  // In place of value, for an Inflow (a hydrograph, m^2/s) or a FixedLevel (a tide, m) side:
  // the value varying in time, taken at the time of the state whose ghosts are filled.
  Series series;
  // An Inflow or FixedLevel on a stretch of the side only, [from, to] metres along it (from its
  // south end for the west and east sides, its west end for the south and north): the cells
  // whose centres lie there; the rest of the side is a wall. to = 0: the whole side.
  double from = 0, to = 0;
  bool onStretch() const { return from != 0 || to != 0; }
};

// The cells [first, end) along a side of `cells` cells of dx that boundary's stretch covers (the
// whole side without one).
std::array<int, 2> stretchCells(const Boundary& boundary, double dx, int cells);

enum class Scenario
{
  DamBreak,       // thesis test: 20 m where x < 100 m, 10 m beyond, closed flat basin
  RadialDamBreak, // a cylinder of deep water in the middle of a shallower lake
  LakeAtRest,     // flat water over a flat bed
  // SWASHES cases (Delestre et al. 2013), laid out along x; meant for strips of a few rows.
  ImmersedBump,      // lake at rest, h + z = 0.5 m over z = max(0, 0.2 - 0.05 (x - 10)^2), L = 25 m
  EmergedBump,       // the same bump sticking out of a 0.1 m lake
  RitterDryDamBreak, // h = 0.005 m for x < L/2, dry beyond (L = 10 m)
  StokerWetDamBreak, // h = 0.005 m for x < L/2, 0.001 m beyond
  // data/make_valley.py's valley (800 m x 500 m, stretched to the grid) with its reservoir at
  // 42 m behind a dam across the upper valley, dry below: a flood over dry land (MUSCL schemes).
  ValleyDamBreak
};

struct SimulationParameters
{
  // The scalar parameters (gravity, Manning, rain, ..., their defaults and ranges) are declared
  // in ParameterTable.h; this sets them to their defaults.
  SimulationParameters();

  int nx = 1000;
  int ny = 1000;
  // In a run split among ranks (blockParameters, splitAmongRanks): nx x ny is one rank's block,
  // whose first cell is cell (blockX0, blockY0) of the whole grid of wholeNx x wholeNy cells;
  // points (gauges, sources) and stretches stay in the whole grid's metres. 0: the grid is whole.
  int blockX0 = 0, blockY0 = 0, wholeNx = 0, wholeNy = 0;
  // The cells of the block this rank owns, in its own coordinates: all nx x ny of them, unless
  // the block reaches ownedNx x ownedNy cells past them into its neighbours' (an exchange
  // interval above 1: Partition::computeBlock). The rest it updates too, only to keep its own
  // cells right between exchanges; outputs, sums and dt come from its own cells alone.
  int ownedI0 = 0, ownedJ0 = 0, ownedNx = 0, ownedNy = 0;
  bool ownsWholeBlock() const { return ownedNx == 0 || (ownedNx == nx && ownedNy == ny); }
  // Makes nx x ny a whole grid of its own, no rank's block (no halo sides, every cell owned).
  void makeWhole()
  {
    blockX0 = blockY0 = wholeNx = wholeNy = ownedI0 = ownedJ0 = ownedNx = ownedNy = 0;
  }
  int gridNx() const { return wholeNx > 0 ? wholeNx : nx; }
  int gridNy() const { return wholeNy > 0 ? wholeNy : ny; }
  // The block's sides (west, east, south, north) inside the whole grid, whose ghosts another
  // rank's halo fills; none where the grid is whole.
  std::array<bool, 4> haloSides() const
  {
    const bool split = wholeNx > 0;
    return { split && blockX0 > 0,
      split && blockX0 + nx < wholeNx,
      split && blockY0 > 0,
      split && blockY0 + ny < wholeNy };
  }
  // The grid's corner in the coordinates points are given in (a DEM's); points are held
  // relative to it, and messages name them in those coordinates [m].
  std::array<double, 2> origin{ 0.0, 0.0 };
  double dx = 0.5; // cell size [m]
  double gravity;  // [m/s^2]
  double manning;  // Manning coefficient n [s/m^(1/3)]
  double rainfall; // uniform rainfall intensity over the whole grid [mm/h]; 0: none
  double losses;   // constant loss (infiltration) rate from every wet cell [mm/h]; 0: none
  // Rain varying in time, in place of `rainfall`: (time [s], intensity [mm/h]) at increasing
  // times, linear between them, none before the first or after the last (a hyetograph). Each
  // step adds the series' integral over it. Empty: none.
  Series rainSeries;
  // Rain per cell: the rate above (or the series) times the initial state's factor of each cell
  // (InitialState::rain; a radar field, a zone's share). MUSCL schemes.
  bool rainPerCell = false;
  // Rain zones, in place of `rainfall` and `rainSeries`: one series each, as rainSeries; with
  // rainPerCell, the initial state's rain array then holds each cell's zone, 0 to size() - 1
  // (a catchment's subareas, each with its own gauge's hyetograph). Empty: none.
  std::vector<Series> rainZones;
  // Gauges: points (x, y) in metres from the grid's corner, in the grid; the depth, surface and
  // velocity of each one's cell sampled after every step (Simulation::gauges). Empty: none.
  std::vector<std::array<double, 2>> gauges;
  // The gauges' record keeps a sample at least this far after the last one kept [s] (sampled
  // every step on the device; for long runs, a record of manageable size); 0: every step's.
  double gaugeInterval;
  // Point sources, added to their cells' depth after every step (MUSCL schemes). Empty: none.
  std::vector<PointSource> sources;
  // Discharge by zone [m^3/s], a series a zone: made point sources over the zones' cells before
  // a run (addZoneSources), which empties it. Empty: none.
  std::vector<Series> sourceZones;
  // Green-Ampt infiltration after every step, the cumulative infiltration kept per cell (MUSCL
  // schemes; in place of `losses`).
  GreenAmpt infiltration;
  // Flood maps (maximum depth, speed and hazard, arrival time, duration) kept on the device at
  // every step; arrivalDepth is the depth at which water has arrived and a cell counts as
  // flooded [m].
  bool floodMaps = false;
  double arrivalDepth;
  // The water balance (Simulation::waterBalance): the water that comes in and goes out through
  // the grid's sides and the point sources summed on the device at every step, into each
  // boundary or source cell's cumulative Inflow field (Field::Inflow). Not with a constant loss
  // rate, which is not counted (Green-Ampt infiltration is).
  bool waterBalance = false;
  // Skip dry land (kernels/state/dry_tiles.h): the step leaves out the tiles where no water is or
  // can come within the step, with the same bits as without. Where skipsDryLand() allows it.
  bool skipDry = true;
  // Steps between two halo exchanges of a run split among ranks (communication-avoiding): each
  // rank also updates exchangeInterval x the scheme's stencil reach of its neighbours' cells,
  // so that its own stay right for that many steps; dt is chosen once an exchange, from the
  // grid's largest wave speed, and held for the interval's steps, and MUSCL-Hancock takes every
  // step with its outflow cap. The same on one rank, so that any rank count gives the same bits
  // for the same interval. 1: an exchange and a dt every step.
  int exchangeInterval;
  // Courant number C: dt = C dx / max(|u|+c, |v|+c) for Lax-Friedrichs (safe up to 0.5), and
  // dt = C dx / (2 max(|u|+c, |v|+c)) for the second-order schemes (MUSCL-HLLC: positivity of
  // depth up to 0.5; MUSCL-Hancock: at any C, by its outflow cap).
  double cfl;     // in (0, kMaxCourantNumber]
  double fixedDt; // > 0: fixed time step [s]; 0: CFL-adaptive
  Scheme scheme = Scheme::LaxFriedrichs;
  Boundary boundaries[4]; // indexed by Side
  Precision precision = Precision::Single;
  std::string device = "auto"; // "auto", a device index, or a substring of a device name
  // Launch shape of the step kernel: "auto" (tuned once per device, scheme and precision, and
  // cached; see LaunchTuner.h), "default" (untuned), or "GXxGYxROWS" such as "128x2x8" ("s2"
  // appended: two steps a launch, Lax-Friedrichs with a fixed dt).
  std::string launch = "auto";
  // Extra OpenCL build options (e.g. "-DWG_X=32"): appended last, so they override defaults.
  std::string buildOptions;

  // Throws swe::Error naming the first bad value.
  void validate() const;
  // The same for rainSeries and the sides' series alone, and for the gauges.
  void validateGrid() const;    // cells and cell size
  void validateScalars() const; // each of ParameterTable's in its range
  void validateLaunch() const;  // the step kernel's launch shape
  void validateSides() const;   // each side's type and value
  void validateSeries() const;
  void validateRainZones() const;
  void validateGauges() const;
  void validateSources() const;
  void validateInfiltration() const;
  void validateStretches() const;
  void validateBalance() const;
};

// The cells rain falls on, for the water balance (InitialState::rainedCells): one count without
// rain zones (closed cells left out, each cell weighed by its rain factor), one a zone with them;
// empty: every cell.
using RainedCells = std::vector<double>;

// The cell a gauge coordinate (metres from the grid's corner) falls in, along x or y.
inline int gaugeCell(double coordinate, double dx)
{
  return static_cast<int>(coordinate / dx);
}
constexpr std::size_t kMaxGauges = 1000;
constexpr double kMaxSourceDischarge = 1e5; // [m^3/s], the Amazon's mouth is 2e5

// Names used on the command line and in the plugin, in a stable order.
const std::vector<std::string>& scenarioNames();
Scenario scenarioFromName(const std::string& name);
std::string scenarioName(Scenario scenario);
const std::vector<std::string>& boundaryTypeNames(); // wall, open, inflow, level
BoundaryType boundaryTypeFromName(const std::string& name);
const std::vector<std::string>& sideNames(); // west, east, south, north
Side sideFromName(const std::string& name);
// "west=inflow:2.5", "east=open": sets one side of params; throws swe::Error naming the problem.
void parseBoundary(const std::string& text, SimulationParameters& params);
// The cells [first, end) along side `side` (west, east, south, north) that its boundary's
// stretch covers, in the numbering of params' nx x ny cells (a rank's block holds part of the
// grid's side, maybe none of the stretch).
std::array<int, 2> blockStretchCells(const SimulationParameters& params, int side);
// Cell (i, j) of an nx x ny grid at position k along side `side`.
inline std::array<int, 2> sideCell(int side, int k, int nx, int ny)
{
  return side < 2 ? std::array<int, 2>{ side == 0 ? 0 : nx - 1, k }
                  : std::array<int, 2>{ k, side == 2 ? 0 : ny - 1 };
}

const std::vector<std::string>& schemeNames();
Scheme schemeFromName(const std::string& name);
std::string schemeName(Scheme scheme);
Precision precisionFromName(const std::string& name);
std::string precisionName(Precision precision);

// The slowest waves the time step counts on, where water comes in: an inflow side's ghost cells
// send waves of twice the celerity at the discharge's critical depth, 2 (g |q|)^(1/3)
// (kernels/state/boundaries.h); rain, those of a film kRainWaveDepth deep. So a dry grid fed by an
// inflow or by rain takes short steps from the start, not one step to the target (0 without
// either).
double inflowWaveSpeed(const SimulationParameters& params);
// The largest rain intensity [mm/h] of the run at any time: its rainfall, or its series' or
// zones' largest value (before any per-cell factor).
double peakRainfall(const SimulationParameters& params);
// Metres a second of the rainfall intensity and of the loss rate (both given in mm/h).
double rainfallRate(const SimulationParameters& params);
// Whether a run skips dry land: asked (skipDry), with a MUSCL scheme (Lax-Friedrichs has no
// terrain, so no dry land to speak of) and without rain (which wets every tile).
bool skipsDryLand(const SimulationParameters& params);
// Whether dt is held over an exchange interval (exchangeInterval > 1), and the cells a block
// reaches into its neighbours' for it: the interval times the cells one step's stencil reaches
// (Lax-Friedrichs 1; MUSCL-Hancock 2; MUSCL-HLLC 4, two stages of 2).
bool holdsDt(const SimulationParameters& params);
int overlapCells(const SimulationParameters& params);
constexpr int kMaxExchangeInterval = 64;
double lossRate(const SimulationParameters& params);

// Two steps a launch with the CFL-adaptive dt: the second step's dt is chosen before the launch,
// from the first state's largest wave speed times this margin; where a cell of the state between
// the steps turns out faster, the launch is refused and the next one takes only the first step.
// So no step exceeds the Courant number asked for: kernels/schemes/device_clock.h
// (pair_predicted_speed), ReferenceSolver::stepPair.
constexpr double kPairSpeedMargin = 1.01;

// The largest Courant number (in SimulationParameters::cfl's sense) a run may take: the adaptive
// dt's cfl is at most this, and a fixed dt that would pass it at any step stops the run with an
// error naming the step.
constexpr double kMaxCourantNumber = 1.0;

// The values a run takes and stays meaningful in fp32 and fp64 (validate() refuses the rest;
// Parameters.cpp says why each bound is where it is).
constexpr double kMinCellSize = 1e-3;          // [m]
constexpr double kMaxCellSize = 1e5;           // [m]
constexpr double kMinGravity = 0.01;           // [m/s^2]
constexpr double kMaxGravity = 100;            // [m/s^2]
constexpr double kMaxManning = 1;              // [s/m^(1/3)], also for a per-cell field
constexpr double kMaxRainfall = 2000;          // [mm/h]
constexpr double kMaxSuctionHead = 1e4;        // [mm]
constexpr double kRainWaveDepth = 1e-3;        // [m], see inflowWaveSpeed
constexpr double kMinCourantNumber = 1e-3;     // the largest is 1
constexpr double kMaxInflowDischarge = 1e4;    // [m^2/s]
constexpr double kMaxArrivalDepth = 100;       // [m]
constexpr double kMaxLevelSeries = 1e4;        // [m], |a water level| (Everest: 8849)
constexpr double kMaxElevation = 2e4;          // [m], |the terrain| (the Mariana Trench: -10994)
constexpr double kMinFixedDt = 1e-6;           // [s], a fixed dt's least
constexpr std::size_t kMaxSeriesPoints = 2000; // a forcing series' points (device constants)
constexpr std::size_t kMaxRainZones = 32;      // (the clock's RAIN_ZONE_SLOTS)

// Depth below which a cell counts as dry [m]: no velocity in the wet/dry scheme, no wave speed
// for the time step (the kernels' H_DRY and the twin's).
constexpr double kDryDepth = 1e-6;

// A number as a person would write it in a message: 0.1, -1, 1e-09, nan; as typed (1.0000001)
// where up to 15 digits give it exactly, else 6 significant digits.
std::string formatValue(double value);

// text in lower case (ASCII), for names matched in any case.
std::string lowercase(std::string text);

// Throws swe::Error unless value is finite; what names the quantity in the message.
void requireFinite(double value, const std::string& what);
} // namespace swe
