// An ensemble's members (solver/ensemble/EnsembleMembers): the Latin hypercube puts one value in
// each stratum and draws the same table from the same seed; ranges and tables are checked with
// messages naming the bad value; each member's run scales what it says and nothing else.
#include "EnsembleMembers.h"
#include "Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace
{
using swe::MemberTable;
using swe::Varied;
using swe::VariedRange;

// The message f throws as swe::Error, or "" where it throws none.
std::string refusal(const std::function<void()>& f)
{
  try
  {
    f();
  }
  catch (const swe::Error& e)
  {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

std::vector<double> column(const MemberTable& table, std::size_t c)
{
  std::vector<double> values;
  for (const auto& row : table.rows)
    values.push_back(row.at(c));
  return values;
}

TEST(EnsembleMembers, LatinHypercubePutsOneValueInEachStratum)
{
  const int members = 17;
  const std::vector<VariedRange> ranges = { { Varied::Manning, 0.02, 0.06 },
    { Varied::RainFactor, 0.5, 2.0 },
    { Varied::WaterLevel, -3.0, 1.0 } };
  const MemberTable table = swe::latinHypercube(ranges, members, 42);
  ASSERT_EQ(table.members(), members);
  ASSERT_EQ(table.columns,
    (std::vector<Varied>{ Varied::Manning, Varied::RainFactor, Varied::WaterLevel }));
  for (std::size_t c = 0; c < ranges.size(); ++c)
  {
    std::vector<int> perStratum(members, 0);
    for (double value : column(table, c))
    {
      ASSERT_GE(value, ranges[c].min);
      ASSERT_LE(value, ranges[c].max);
      const double where = (value - ranges[c].min) / (ranges[c].max - ranges[c].min) * members;
      ++perStratum.at(std::min(static_cast<int>(where), members - 1));
    }
    EXPECT_EQ(perStratum, std::vector<int>(members, 1)) << "column " << c;
  }
  // Shuffled: the strata are not in member order in every column.
  const std::vector<double> manning = column(table, 0);
  EXPECT_FALSE(std::is_sorted(manning.begin(), manning.end()));
}

TEST(EnsembleMembers, TheSameSeedDrawsTheSameTable)
{
  const std::vector<VariedRange> ranges = { { Varied::ManningFactor, 0.8, 1.2 },
    { Varied::InflowFactor, 0.5, 1.5 } };
  const MemberTable a = swe::latinHypercube(ranges, 10, 7);
  const MemberTable b = swe::latinHypercube(ranges, 10, 7);
  const MemberTable c = swe::latinHypercube(ranges, 10, 8);
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_NE(a.rows, c.rows);
  // The generator's sequence is the standard's (std::mt19937_64), so the table is the same on
  // every machine: its first value pins it.
  const std::vector<VariedRange> one = { { Varied::RainFactor, 0.0, 1.0 } };
  const MemberTable first = swe::latinHypercube(one, 1, 5489);
  EXPECT_DOUBLE_EQ(
    first.rows[0][0], static_cast<double>(14514284786278117030ULL >> 11) * 0x1.0p-53);
}

TEST(EnsembleMembers, ARangeOfOneValueGivesItToEveryMember)
{
  const MemberTable table = swe::latinHypercube({ { Varied::Manning, 0.035, 0.035 } }, 6, 1);
  EXPECT_EQ(column(table, 0), std::vector<double>(6, 0.035));
  EXPECT_EQ(swe::latinHypercube({ { Varied::RainFactor, 0.5, 2 } }, 1, 3).members(), 1);
}

TEST(EnsembleMembers, LatinHypercubeRefusesWhatItCannotDraw)
{
  const VariedRange rain{ Varied::RainFactor, 0.5, 2 };
  EXPECT_TRUE(contains(refusal([&] { swe::latinHypercube({ rain }, 0, 1); }),
    "an ensemble of 0 members: give 1 to 100000 members"));
  EXPECT_TRUE(
    contains(refusal([&] { swe::latinHypercube({}, 4, 1); }), "an ensemble varies nothing"));
  const std::string twice = refusal([&] { swe::latinHypercube({ rain, rain }, 4, 1); });
  EXPECT_TRUE(contains(twice, "rain has a range already; give each parameter one range")) << twice;
  const std::string reversed = refusal(
    [&] {
      swe::latinHypercube({ { Varied::Manning, 0.06, 0.02 } }, 4, 1);
    });
  EXPECT_TRUE(contains(reversed, "the minimum 0.06 is above the maximum 0.02")) << reversed;
}

TEST(EnsembleMembers, ParsesAVariedRange)
{
  const VariedRange manning = swe::parseVariedRange("manning=0.02:0.06");
  EXPECT_EQ(manning.parameter, Varied::Manning);
  EXPECT_EQ(manning.min, 0.02);
  EXPECT_EQ(manning.max, 0.06);
  const VariedRange level = swe::parseVariedRange("Level=-2.5:-1");
  EXPECT_EQ(level.parameter, Varied::WaterLevel);
  EXPECT_EQ(level.min, -2.5);
  EXPECT_EQ(level.max, -1);
  EXPECT_EQ(swe::parseVariedRange("manning-factor=0:1e3").max, 1000);
  for (int k = 0; k < swe::kVariedCount; ++k)
  {
    const auto parameter = static_cast<Varied>(k);
    EXPECT_EQ(swe::variedFromName(swe::variedName(parameter)), parameter);
  }
}

TEST(EnsembleMembers, RefusesABadRangeNamingIt)
{
  const auto message = [](const std::string& text)
  { return refusal([&] { swe::parseVariedRange(text); }); };
  EXPECT_EQ(message("manning=0.06:0.02"),
    "--vary manning=0.06:0.02: the minimum 0.06 is above the maximum 0.02; give MIN:MAX with "
    "MIN <= MAX");
  EXPECT_TRUE(contains(message("manning=abc"), "--vary manning=abc: give NAME=MIN:MAX"));
  EXPECT_TRUE(contains(message("manning=abc:0.05"), "'abc' is not a finite number"));
  EXPECT_TRUE(contains(message("rain=1:inf"), "'inf' is not a finite number"));
  EXPECT_TRUE(contains(message("rain=1:2x"), "'2x' is not a finite number"));
  const std::string wind = message("wind=1:2");
  EXPECT_TRUE(contains(wind,
    "'wind' is no parameter a member varies; give one of manning, "
    "manning-factor, rain, inflow, level"))
    << wind;
  const std::string zero = message("manning=0:0.05");
  EXPECT_TRUE(contains(zero, "the minimum 0 is outside manning's range (0, 1]")) << zero;
  EXPECT_TRUE(contains(message("rain=-1:2"), "the minimum -1 is outside rain's range [0, 1000]"));
  EXPECT_TRUE(
    contains(message("inflow=1:1001"), "the maximum 1001 is outside inflow's range [0, 1000]"));
  EXPECT_EQ(message("rain=0:1000"), "");
}

TEST(EnsembleMembers, ChecksATableNamingTheMemberAndColumn)
{
  MemberTable table;
  table.columns = { Varied::Manning, Varied::RainFactor };
  table.rows = { { 0.03, 1.0 }, { 0.04, 1.5 }, { 0.05, 1.2 } };
  EXPECT_EQ(refusal([&] { swe::checkMemberTable(table); }), "");

  MemberTable badValue = table;
  badValue.rows[1][1] = -0.5;
  const std::string value = refusal([&] { swe::checkMemberTable(badValue); });
  EXPECT_TRUE(contains(value,
    "member 2 of the members table, column 'rain': -0.5 is outside "
    "rain's range [0, 1000]; give a factor in [0, 1000]"))
    << value;
  badValue.rows[1][1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(contains(refusal([&] { swe::checkMemberTable(badValue); }),
    "member 2 of the members table, column 'rain': nan is not a finite number; give a factor in "
    "[0, 1000]"));
  MemberTable level;
  level.columns = { Varied::WaterLevel };
  level.rows = { { 1.5 }, { std::numeric_limits<double>::infinity() } };
  EXPECT_TRUE(contains(refusal([&] { swe::checkMemberTable(level); }),
    "member 2 of the members table, column 'level': inf is not a finite number; give a "
    "water-surface elevation [m], any finite value"));

  MemberTable badRow = table;
  badRow.rows[2].pop_back();
  const std::string row = refusal([&] { swe::checkMemberTable(badRow); });
  EXPECT_TRUE(contains(row, "member 3 of the members table has 1 values where the table has 2"))
    << row;

  MemberTable twice = table;
  twice.columns[1] = Varied::Manning;
  EXPECT_TRUE(
    contains(refusal([&] { swe::checkMemberTable(twice); }), "the column 'manning' twice"));
  MemberTable empty = table;
  empty.rows.clear();
  EXPECT_TRUE(contains(refusal([&] { swe::checkMemberTable(empty); }), "holds 0 members"));
  empty.columns.clear();
  EXPECT_TRUE(contains(refusal([&] { swe::checkMemberTable(empty); }), "has no columns"));
}

// A base run with rain and inflow of every kind.
swe::SimulationParameters forcedRun()
{
  swe::SimulationParameters params;
  params.manning = 0.03;
  params.rainfall = 10;
  params.rainSeries = { { { 0, 5 } }, { { 600, 20 } } };
  params.rainZones = { { { { 0, 1 } }, { { 300, 2 } } }, { { { 0, 4 } } } };
  params.boundaries[static_cast<int>(swe::Side::West)] =
    swe::Boundary(swe::BoundaryType::Inflow, 2.0, { { { 0, 1 } }, { { 100, 3 } } });
  params.boundaries[static_cast<int>(swe::Side::East)] =
    swe::Boundary(swe::BoundaryType::FixedLevel, 1.5, { { { 0, 1.5 } }, { { 100, 2 } } });
  params.sources = { swe::PointSource{ 10, 20, { { { 0, 8 } }, { { 60, 16 } } } } };
  params.sourceZones = { { { { 0, 30 } }, { { 120, 60 } } } };
  return params;
}

TEST(EnsembleMembers, AMembersRunScalesRainAndInflowNotTimes)
{
  MemberTable table;
  table.columns = { Varied::RainFactor, Varied::InflowFactor, Varied::ManningFactor };
  table.rows = { { 1, 1, 1 }, { 2, 0.5, 1.5 } };
  const swe::SimulationParameters base = forcedRun();
  const swe::SimulationParameters member = swe::memberParameters(base, table, 1);

  EXPECT_DOUBLE_EQ(member.manning, 0.045);
  EXPECT_EQ(member.rainfall, 20);
  EXPECT_EQ(member.rainSeries, (swe::Series{ { { 0, 10 } }, { { 600, 40 } } }));
  EXPECT_EQ(member.rainZones[0], (swe::Series{ { { 0, 2 } }, { { 300, 4 } } }));
  EXPECT_EQ(member.rainZones[1], (swe::Series{ { { 0, 8 } } }));
  const swe::Boundary& inflow = member.boundaries[static_cast<int>(swe::Side::West)];
  EXPECT_EQ(inflow.value, 1.0);
  EXPECT_EQ(inflow.series, (swe::Series{ { { 0, 0.5 } }, { { 100, 1.5 } } }));
  // A level side is no inflow: its water level stays.
  const swe::Boundary& level = member.boundaries[static_cast<int>(swe::Side::East)];
  EXPECT_EQ(level.value, 1.5);
  EXPECT_EQ(level.series, base.boundaries[static_cast<int>(swe::Side::East)].series);
  EXPECT_EQ(member.boundaries[static_cast<int>(swe::Side::North)].type, swe::BoundaryType::Wall);
  EXPECT_EQ(member.boundaries[static_cast<int>(swe::Side::North)].value, 0);
  EXPECT_EQ(member.sources[0].discharge, (swe::Series{ { { 0, 4 } }, { { 60, 8 } } }));
  EXPECT_EQ(member.sources[0].x, 10);
  EXPECT_EQ(member.sourceZones[0], (swe::Series{ { { 0, 15 } }, { { 120, 30 } } }));

  // Member 1's factors are 1: the base run as it was.
  const swe::SimulationParameters same = swe::memberParameters(base, table, 0);
  EXPECT_EQ(same.rainSeries, base.rainSeries);
  EXPECT_EQ(same.manning, base.manning);
  EXPECT_TRUE(contains(refusal([&] { swe::memberParameters(base, table, 2); }),
    "member 3 is not in the members table, which holds members 1 to 2"));
}

TEST(EnsembleMembers, AMembersManningReplacesTheUniformN)
{
  MemberTable table;
  table.columns = { Varied::WaterLevel, Varied::Manning };
  table.rows = { { 3.0, 0.05 } };
  const swe::SimulationParameters member = swe::memberParameters(forcedRun(), table, 0);
  EXPECT_EQ(member.manning, 0.05);
  EXPECT_EQ(member.rainfall, 10);
  EXPECT_EQ(table.value(0, Varied::WaterLevel, 0), 3.0);
  EXPECT_EQ(table.value(0, Varied::RainFactor, -1), -1);
  EXPECT_TRUE(table.varies(Varied::Manning));
  EXPECT_FALSE(table.varies(Varied::InflowFactor));
}

TEST(EnsembleMembers, AMembersStateScalesItsManningField)
{
  const double nan = std::numeric_limits<double>::quiet_NaN();
  swe::InitialState initial(3, 1);
  initial.manning = { 0.02, 0.04, 0.03 };
  initial.bed = { 0, 0, nan }; // the last cell closed
  MemberTable table;
  table.columns = { Varied::ManningFactor };
  table.rows = { { 1.5 } };
  swe::applyMemberToState(initial, table, 0);
  EXPECT_DOUBLE_EQ(initial.manning[0], 0.03);
  EXPECT_DOUBLE_EQ(initial.manning[1], 0.06);
  EXPECT_EQ(initial.manning[2], 0.03);

  // Without a field the uniform n is the parameters' (memberParameters).
  swe::InitialState uniform(2, 1);
  swe::applyMemberToState(uniform, table, 0);
  EXPECT_TRUE(uniform.manning.empty());

  MemberTable replacing;
  replacing.columns = { Varied::Manning };
  replacing.rows = { { 0.05 } };
  swe::applyMemberToState(uniform, replacing, 0);
  EXPECT_EQ(refusal([&] { swe::applyMemberToState(initial, replacing, 0); }),
    "a members table's 'manning' replaces a uniform n, and this run has a Manning field; vary "
    "'manning-factor' instead");
}
} // namespace

namespace swe::test
{
TEST(EnsembleMembers, VaryingWhatTheRunLacksIsRefused)
{
  SimulationParameters base;
  base.nx = base.ny = 4;
  const InitialState initial(4, 4);
  const auto refusal = [&](const char* range)
  {
    try
    {
      requireVariedActs(base, initial, latinHypercube({ parseVariedRange(range) }, 3, 1));
    }
    catch (const Error& e)
    {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refusal("rain=0.5:1.5").find("the run has no rain: give --rain"), std::string::npos);
  EXPECT_NE(refusal("inflow=0.5:1.5").find("has no inflow"), std::string::npos);
  EXPECT_NE(refusal("manning-factor=0.5:1.5").find("has no friction (n = 0)"), std::string::npos);
  EXPECT_EQ(refusal("manning=0.02:0.04"), "");
  base.rainfall = 10;
  base.manning = 0.03;
  base.boundaries[0] = Boundary(BoundaryType::Inflow, 1.0);
  for (const char* range : { "rain=0.5:1.5", "inflow=0.5:1.5", "manning-factor=0.5:1.5" })
    EXPECT_EQ(refusal(range), "") << range;
}
} // namespace swe::test
