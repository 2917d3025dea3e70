#include "EnsembleMembers.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

namespace swe
{
namespace
{
const char* const kVariedNames[kVariedCount] = { "manning",
  "manning-factor",
  "rain",
  "inflow",
  "level" };

std::string variedNameList()
{
  std::string text;
  for (const char* name : kVariedNames)
    text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

bool withinLimits(double value, const VariedLimits& limits)
{
  if (!std::isfinite(value))
    return false;
  const bool aboveMin = limits.minIncluded ? value >= limits.min : value > limits.min;
  return aboveMin && value <= limits.max;
}

// "(0, 1]", "[0, 1000]", or "any finite value".
std::string limitsText(Varied parameter)
{
  const VariedLimits limits = variedLimits(parameter);
  if (!std::isfinite(limits.min))
    return "any finite value";
  return (limits.minIncluded ? "[" : "(") + formatValue(limits.min) + ", " +
         formatValue(limits.max) + "]";
}

// What a value of the parameter is, for the fix a message suggests.
std::string valueKind(Varied parameter)
{
  switch (parameter)
  {
    case Varied::Manning:
      return "a Manning coefficient n [s/m^(1/3)]";
    case Varied::WaterLevel:
      return "a water-surface elevation [m]";
    default:
      return "a factor";
  }
}

// Throws swe::Error (starting with `where`) unless value is within the parameter's limits.
void requireWithinLimits(Varied parameter, double value, const std::string& where)
{
  if (withinLimits(value, variedLimits(parameter)))
    return;
  const std::string limits = limitsText(parameter);
  const std::string fix = "; give " + valueKind(parameter) +
                          (std::isfinite(variedLimits(parameter).min) ? " in " : ", ") + limits;
  if (!std::isfinite(value))
    throw Error(where + formatValue(value) + " is not a finite number" + fix);
  throw Error(where + formatValue(value) + " is outside " + variedName(parameter) + "'s range " +
              limits + fix);
}

// The whole of text as a number, or false.
bool parseWhole(const std::string& text, double& value)
{
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())))
    return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// Throws swe::Error naming `where` unless range is one a member's values can be drawn from.
void checkRange(const VariedRange& range, const std::string& where)
{
  if (range.min > range.max)
    throw Error(where + ": the minimum " + formatValue(range.min) + " is above the maximum " +
                formatValue(range.max) + "; give MIN:MAX with MIN <= MAX");
  requireWithinLimits(range.parameter, range.min, where + ": the minimum ");
  requireWithinLimits(range.parameter, range.max, where + ": the maximum ");
}

std::string rangeText(const VariedRange& range)
{
  return "--vary " + std::string(variedName(range.parameter)) + "=" + formatValue(range.min) + ":" +
         formatValue(range.max);
}

void requireMember(const MemberTable& table, int member)
{
  if (member < 0 || member >= table.members())
    throw Error("member " + std::to_string(member + 1) + " is not in the members table, which " +
                "holds members 1 to " + std::to_string(table.members()));
  if (table.rows[static_cast<std::size_t>(member)].size() != table.columns.size())
    throw Error("the members table's member " + std::to_string(member + 1) + " has " +
                std::to_string(table.rows[static_cast<std::size_t>(member)].size()) +
                " values for " + std::to_string(table.columns.size()) + " columns");
}

// A uniform double in [0, 1) from the generator's next 53 bits: the same on every machine.
double uniform(std::mt19937_64& generator)
{
  return static_cast<double>(generator() >> 11) * 0x1.0p-53;
}

// One value in each of the range's `members` strata, in a shuffled order (Fisher-Yates).
std::vector<double> stratifiedColumn(const VariedRange& range,
  int members,
  std::mt19937_64& generator)
{
  std::vector<double> values(static_cast<std::size_t>(members));
  const double width = range.max - range.min;
  for (int k = 0; k < members; ++k)
  {
    const double value = range.min + width * (k + uniform(generator)) / members;
    values[static_cast<std::size_t>(k)] = std::min(std::max(value, range.min), range.max);
  }
  for (std::size_t i = values.size(); i-- > 1;)
  {
    const auto j = std::min(static_cast<std::size_t>(uniform(generator) * double(i + 1)), i);
    std::swap(values[i], values[j]);
  }
  return values;
}

void scaleValues(Series& series, double factor)
{
  for (auto& point : series)
    point[1] *= factor;
}
} // namespace

const char* variedName(Varied parameter)
{
  return kVariedNames[static_cast<int>(parameter)];
}

Varied variedFromName(const std::string& name)
{
  const std::string lower = lowercase(name);
  for (int k = 0; k < kVariedCount; ++k)
    if (lower == kVariedNames[k])
      return static_cast<Varied>(k);
  throw Error("'" + name + "' is no parameter a member varies; give one of " + variedNameList());
}

VariedLimits variedLimits(Varied parameter)
{
  switch (parameter)
  {
    case Varied::Manning:
      return { 0.0, kMaxManning, false };
    case Varied::WaterLevel:
    {
      const double infinity = std::numeric_limits<double>::infinity();
      return { -infinity, infinity, true };
    }
    default:
      return { 0.0, kMaxVariedFactor, true };
  }
}

VariedRange parseVariedRange(const std::string& text)
{
  const std::string where = "--vary " + text;
  const auto eq = text.find('=');
  const auto colon = eq == std::string::npos ? eq : text.find(':', eq + 1);
  if (eq == std::string::npos || colon == std::string::npos)
    throw Error(
      where + ": give NAME=MIN:MAX, e.g. manning=0.02:0.06 (NAME one of " + variedNameList() + ")");
  VariedRange range;
  try
  {
    range.parameter = variedFromName(text.substr(0, eq));
  }
  catch (const Error& e)
  {
    throw Error(where + ": " + e.what());
  }
  const std::string minText = text.substr(eq + 1, colon - eq - 1);
  const std::string maxText = text.substr(colon + 1);
  for (const std::string* number : { &minText, &maxText })
  {
    double value = 0;
    if (!parseWhole(*number, value) || !std::isfinite(value))
      throw Error(where + ": '" + *number + "' is not a finite number; give MIN:MAX as two " +
                  "numbers, e.g. " + variedName(range.parameter) + "=" +
                  formatValue(range.parameter == Varied::Manning ? 0.02 : 0.8) + ":" +
                  formatValue(range.parameter == Varied::Manning ? 0.06 : 1.2));
    (number == &minText ? range.min : range.max) = value;
  }
  checkRange(range, where);
  return range;
}

double MemberTable::value(int member, Varied parameter, double fallback) const
{
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == parameter)
      return rows.at(static_cast<std::size_t>(member)).at(c);
  return fallback;
}

bool MemberTable::varies(Varied parameter) const
{
  return std::find(columns.begin(), columns.end(), parameter) != columns.end();
}

MemberTable latinHypercube(const std::vector<VariedRange>& ranges, int members, std::uint64_t seed)
{
  if (members < 1 || members > kMaxMembers)
    throw Error("an ensemble of " + std::to_string(members) + " members: give 1 to " +
                std::to_string(kMaxMembers) + " members");
  if (ranges.empty())
    throw Error("an ensemble varies nothing: give a range a parameter, e.g. --vary " +
                std::string("manning=0.02:0.06"));
  MemberTable table;
  for (const VariedRange& range : ranges)
  {
    if (table.varies(range.parameter))
      throw Error(rangeText(range) + ": " + variedName(range.parameter) +
                  " has a range already; give each parameter one range");
    checkRange(range, rangeText(range));
    table.columns.push_back(range.parameter);
  }
  table.rows.assign(static_cast<std::size_t>(members), std::vector<double>(ranges.size()));
  std::mt19937_64 generator(seed);
  for (std::size_t c = 0; c < ranges.size(); ++c)
  {
    const std::vector<double> column = stratifiedColumn(ranges[c], members, generator);
    for (std::size_t m = 0; m < column.size(); ++m)
      table.rows[m][c] = column[m];
  }
  return table;
}

void checkMemberTable(const MemberTable& table)
{
  if (table.columns.empty())
    throw Error("the members table has no columns: give a column a varied parameter (" +
                variedNameList() + ")");
  if (table.members() < 1 || table.members() > kMaxMembers)
    throw Error("the members table holds " + std::to_string(table.members()) +
                " members: give 1 to " + std::to_string(kMaxMembers) + " rows, one a member");
  for (std::size_t c = 0; c < table.columns.size(); ++c)
    if (std::find(table.columns.begin(), table.columns.begin() + c, table.columns[c]) !=
        table.columns.begin() + c)
      throw Error("the members table has the column '" + std::string(variedName(table.columns[c])) +
                  "' twice; give each parameter one column");
  for (int m = 0; m < table.members(); ++m)
  {
    const std::vector<double>& row = table.rows[static_cast<std::size_t>(m)];
    const std::string member = "member " + std::to_string(m + 1) + " of the members table";
    if (row.size() != table.columns.size())
      throw Error(member + " has " + std::to_string(row.size()) + " values where the table has " +
                  std::to_string(table.columns.size()) + " columns; give each member a value " +
                  "a column");
    for (std::size_t c = 0; c < row.size(); ++c)
      requireWithinLimits(
        table.columns[c], row[c], member + ", column '" + variedName(table.columns[c]) + "': ");
  }
}

SimulationParameters memberParameters(const SimulationParameters& base,
  const MemberTable& table,
  int member)
{
  requireMember(table, member);
  SimulationParameters params = base;
  params.manning = table.value(member, Varied::Manning, params.manning);
  params.manning *= table.value(member, Varied::ManningFactor, 1.0);

  const double rain = table.value(member, Varied::RainFactor, 1.0);
  params.rainfall *= rain;
  scaleValues(params.rainSeries, rain);
  for (Series& zone : params.rainZones)
    scaleValues(zone, rain);

  const double inflow = table.value(member, Varied::InflowFactor, 1.0);
  for (Boundary& side : params.boundaries)
    if (side.type == BoundaryType::Inflow)
    {
      side.value *= inflow;
      scaleValues(side.series, inflow);
    }
  for (PointSource& source : params.sources)
    scaleValues(source.discharge, inflow);
  for (Series& zone : params.sourceZones)
    scaleValues(zone, inflow);
  return params;
}

void requireVariedActs(const SimulationParameters& base,
  const InitialState& initial,
  const MemberTable& table)
{
  const auto refuse = [](Varied parameter, const std::string& lacking)
  {
    throw Error(std::string("the members vary '") + variedName(parameter) + "', and the run " +
                lacking + ", so every member would run the same");
  };
  const bool rains = base.rainfall > 0 || !base.rainSeries.empty() || !base.rainZones.empty();
  if (table.varies(Varied::RainFactor) && !rains)
    refuse(Varied::RainFactor, "has no rain: give --rain, --rain-series or --rain-zones");
  bool inflows = !base.sources.empty() || !base.sourceZones.empty();
  for (const Boundary& side : base.boundaries)
    inflows = inflows || side.type == BoundaryType::Inflow;
  if (table.varies(Varied::InflowFactor) && !inflows)
    refuse(Varied::InflowFactor,
      "has no inflow: give an inflow --boundary or --boundary-series, --source or --source-zones");
  if (table.varies(Varied::ManningFactor) && !table.varies(Varied::Manning) && base.manning == 0 &&
      initial.manning.empty())
    refuse(Varied::ManningFactor, "has no friction (n = 0): give --manning or a Manning array");
}

void applyMemberToState(InitialState& initial, const MemberTable& table, int member)
{
  requireMember(table, member);
  if (initial.manning.empty())
    return;
  if (table.varies(Varied::Manning))
    throw Error("a members table's 'manning' replaces a uniform n, and this run has a Manning " +
                std::string("field; vary 'manning-factor' instead"));
  const double factor = table.value(member, Varied::ManningFactor, 1.0);
  const bool hasBed = initial.bed.size() == initial.manning.size();
  for (std::size_t k = 0; k < initial.manning.size(); ++k)
    if (std::isfinite(initial.manning[k]) && !(hasBed && initial.closed(k)))
      initial.manning[k] *= factor;
}
} // namespace swe
