#include "ParameterTable.h"

#include "Error.h"

#include <cmath>

namespace swe
{
namespace
{
constexpr double kNoBound = std::numeric_limits<double>::infinity();

// The member a parameter reads and writes; the exchange interval is a whole number of steps.
#define SWE_MEMBER(member)                                                                         \
  [](const SimulationParameters& p) { return static_cast<double>(p.member); },                     \
    [](SimulationParameters& p, double value)                                                      \
  { p.member = static_cast<decltype(p.member)>(value); }

// The bounds and hints: Parameters.h (kMax...) and Parameters.cpp say why each bound is where it
// is. The order is the order of the checks, of swe's options and of the run settings' lines.
// clang-format off
const std::array<ScalarParameter, kScalarCount> kTable = { {
  // id, name in messages, property, swe option, run-settings key, unit, default, least, most,
  // zero is off, whole, checked together, hint, doc, member
  { ScalarId::Gravity, "gravity", "Gravity", "--gravity", "gravity", "m/s^2", 9.81,
    kMinGravity, kMaxGravity, false, false, false,
    "9.81 on Earth",
    "gravity", SWE_MEMBER(gravity) },
  { ScalarId::Manning, "Manning coefficient", "ManningCoefficient", "--manning", "Manning",
    "s/m^(1/3)", 0, 0, kMaxManning, false, false, false,
    "rivers and floodplains: 0.01 to 0.2",
    "Manning coefficient n of every cell (a per-cell array replaces it)", SWE_MEMBER(manning) },
  { ScalarId::Rainfall, "rainfall", "Rainfall", "--rain", "rain", "mm/h", 0,
    0, kMaxRainfall, false, false, false,
    "a heavy storm: 20 to 100",
    "rain on every cell for the whole run", SWE_MEMBER(rainfall) },
  { ScalarId::LossRate, "loss rate", "LossRate", "--losses", "loss rate", "mm/h", 0,
    0, kMaxRainfall, false, false, false,
    "clay 1 to 5, loam 10 to 30, sand 100 or more",
    "loss (infiltration) rate from every wet cell", SWE_MEMBER(losses) },
  { ScalarId::Conductivity, "hydraulic conductivity", "HydraulicConductivity", "", "", "mm/h", 0,
    0, kMaxRainfall, false, false, true,
    "clay about 0.3, loam 3.4, sand 120",
    "Green-Ampt's saturated hydraulic conductivity K", SWE_MEMBER(infiltration.conductivity) },
  { ScalarId::Suction, "suction head", "SuctionHead", "", "", "mm", 0,
    0, kMaxSuctionHead, false, false, true,
    "sand about 50, loam 90, clay 320",
    "Green-Ampt's wetting-front suction head", SWE_MEMBER(infiltration.suction) },
  { ScalarId::Deficit, "moisture deficit", "MoistureDeficit", "", "", "", 0,
    0, 1, false, false, true,
    "the porosity less the initial water content: 0.1 to 0.4",
    "Green-Ampt's moisture deficit", SWE_MEMBER(infiltration.deficit) },
  { ScalarId::ArrivalDepth, "arrival depth", "ArrivalDepth", "--arrival-depth", "arrival depth",
    "m", 0.01, kDryDepth, kMaxArrivalDepth, false, false, false,
    "0.01 to 0.3 m is usual: a wet road to a depth that stops a car",
    "the depth at which a cell counts as flooded, for ArrivalTime and Duration",
    SWE_MEMBER(arrivalDepth) },
  { ScalarId::GaugeInterval, "gauge interval", "GaugeInterval", "--gauge-interval",
    "gauge interval", "s", 0, 0, kNoBound, false, false, false,
    "0: every step",
    "keep a gauge sample at least this many seconds after the last one kept",
    SWE_MEMBER(gaugeInterval) },
  { ScalarId::CourantNumber, "Courant number (CFL)", "CourantNumber", "--cfl", "Courant number",
    "", 0.45, kMinCourantNumber, kMaxCourantNumber, false, false, false,
    "the default 0.45 is stable and accurate",
    "Courant number of the adaptive time step", SWE_MEMBER(cfl) },
  { ScalarId::FixedTimeStep, "fixed time step dt", "FixedTimeStep", "--dt", "fixed time step",
    "s", 0, kMinFixedDt, kNoBound, true, false, false,
    "0: CFL-adaptive",
    "a fixed time step in place of the CFL-adaptive one", SWE_MEMBER(fixedDt) },
  { ScalarId::ExchangeInterval, "exchange interval", "ExchangeInterval", "--exchange-interval",
    "exchange interval", "steps", 1, 1, kMaxExchangeInterval, false, true, false,
    "1: halos and dt every step; 8 to 32 hide the exchange's round trip",
    "steps between halo exchanges of a run split among ranks: each rank also updates that many "
    "steps' reach of its neighbours' cells, and holds dt over the interval (the same on one "
    "rank, so any rank count gives the same results)", SWE_MEMBER(exchangeInterval) },
} };
// clang-format on
#undef SWE_MEMBER
} // namespace

const std::array<ScalarParameter, kScalarCount>& scalarParameters()
{
  return kTable;
}

const ScalarParameter& scalarParameter(ScalarId id)
{
  return kTable[static_cast<std::size_t>(id)];
}

const ScalarParameter& scalarParameterOfProperty(const std::string& property)
{
  for (const ScalarParameter& parameter : kTable)
    if (property == parameter.property)
      return parameter;
  throw Error("no scalar parameter is called '" + property + "'");
}

ScalarValues defaultScalarValues()
{
  ScalarValues values{};
  for (const ScalarParameter& parameter : kTable)
    values[static_cast<std::size_t>(parameter.id)] = parameter.defaultValue;
  return values;
}

std::string rangeText(const ScalarParameter& p)
{
  const std::string unit = *p.unit ? std::string(" ") + p.unit : std::string();
  std::string text = std::isinf(p.most)
                       ? "at least " + formatValue(p.least) + unit
                       : "in [" + formatValue(p.least) + ", " + formatValue(p.most) + "]" + unit;
  if (p.zeroIsOff)
    text += ", or 0";
  if (p.whole)
    text += " (a whole number)";
  return text;
}

void requireInRange(const ScalarParameter& p, double value)
{
  requireFinite(value, p.name);
  const bool inRange = (value >= p.least && value <= p.most) || (p.zeroIsOff && value == 0);
  if (!inRange || (p.whole && value != std::floor(value)))
    throw Error(std::string(p.name) + " must be " + rangeText(p) + ", got " + formatValue(value) +
                " (" + p.hint + ")");
}
} // namespace swe
