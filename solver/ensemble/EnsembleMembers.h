#pragma once
// An ensemble's members: which parameters vary, each member's values (a table: one row a member,
// one column a parameter), drawn from ranges by a seeded Latin hypercube or given by the user,
// and the run each member makes of the base run's parameters.
#include "InitialState.h"
#include "Parameters.h"

#include <cstdint>
#include <string>
#include <vector>

namespace swe
{
// What a member may vary. Factors multiply the base run's value; the others replace it.
enum class Varied
{
  Manning,       // "manning": the uniform Manning coefficient n [s/m^(1/3)]
  ManningFactor, // "manning-factor": a factor on n, uniform or per cell
  RainFactor,    // "rain": a factor on every rain rate (uniform, series, zones)
  InflowFactor,  // "inflow": a factor on every inflow (inflow sides, point sources, source zones)
  WaterLevel     // "level": the initial water-surface elevation [m] of an --input terrain
};
constexpr int kVariedCount = 5;

// The name a members table's column and --vary use ("manning", "manning-factor", "rain",
// "inflow", "level").
const char* variedName(Varied parameter);
// The parameter of a name; throws swe::Error naming it and listing the names that work.
Varied variedFromName(const std::string& name);

// A range a parameter is drawn from: --vary NAME=MIN:MAX.
struct VariedRange
{
  Varied parameter = Varied::Manning;
  double min = 0, max = 0;
};
// Parses NAME=MIN:MAX; throws swe::Error for another form, a number that is not finite, min >
// max, or values outside the parameter's range (variedLimits).
VariedRange parseVariedRange(const std::string& text);

// The values a parameter may take: n in (0, 1], factors in [0, 1e3], a level any finite value.
constexpr double kMaxVariedFactor = 1e3;
struct VariedLimits
{
  double min, max;
  bool minIncluded;
};
VariedLimits variedLimits(Varied parameter);

// The most members an ensemble has (each a run of its own: far more than any will take).
constexpr int kMaxMembers = 100000;

// One row a member, one column a varied parameter.
struct MemberTable
{
  std::vector<Varied> columns;
  std::vector<std::vector<double>> rows; // rows[member][column]
  int members() const { return static_cast<int>(rows.size()); }
  // The member's value of a parameter; `fallback` where no column holds it.
  double value(int member, Varied parameter, double fallback) const;
  bool varies(Varied parameter) const;
};

// `members` rows drawn by a Latin hypercube over the ranges: each range cut into `members` equal
// strata, one value drawn uniformly in each, the strata of each column shuffled; the same seed
// gives the same table on every machine (its own generator, not the standard library's
// distributions, whose results the standard leaves to the implementation). A range of min ==
// max gives that value to every member. Throws swe::Error for members < 1 or above kMaxMembers,
// no ranges, a range parseVariedRange refuses, or a parameter in two ranges.
MemberTable latinHypercube(const std::vector<VariedRange>& ranges, int members, std::uint64_t seed);

// Checks a table the user gave: 1 to kMaxMembers members and at least one column, no column twice,
// every row as long as the columns, every value within its parameter's limits. Throws swe::Error
// naming the member (1-based, as a spreadsheet's row after the header) and the column of a bad
// value.
void checkMemberTable(const MemberTable& table);

// The base run's parameters as member `member` runs them: Manning replaced or scaled, rain and
// inflow scaled (WaterLevel is the initial state's: the caller builds it with the level).
SimulationParameters memberParameters(const SimulationParameters& base,
  const MemberTable& table,
  int member);

// Throws swe::Error where the table varies what the base run does not have (rain without rain,
// inflow without an inflow side, source or zone, a Manning factor without friction), saying
// what to give: every member would run the same.
void requireVariedActs(const SimulationParameters& base,
  const InitialState& initial,
  const MemberTable& table);

// The member's initial state from the base run's: a Manning field scaled by its factor. Throws
// swe::Error where the table sets Manning (a uniform n) and the state has a Manning field.
void applyMemberToState(InitialState& initial, const MemberTable& table, int member);
} // namespace swe
