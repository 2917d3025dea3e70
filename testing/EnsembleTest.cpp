// Ensembles (Ensemble.h): a member's state has the bits of the same run alone, in every scheme
// and precision; the statistics are those of a host fold of the members' own maps; a member that
// blows up is named and the others go on; an ensemble too large for the device is refused with
// the count that fits.
#include "Ensemble.h"
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"
#include "ThreadRanks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace swe::test
{
namespace
{
// A dam break on a strip (SWASHES' Stoker case: 0.005 m behind x = 5 m, 0.001 m beyond, or
// Ritter's, dry beyond), its Manning coefficient member m's.
MemberRun strip(Scheme scheme, Precision precision, Scenario scenario, int member)
{
  MemberRun run;
  run.params = smallParameters(precision, 40, 5);
  run.params.dx = 10.0 / 40;
  run.params.scheme = scheme;
  run.params.floodMaps = true;
  run.params.arrivalDepth = 5e-4;
  run.params.manning = 0.02 * member;
  run.initial = makeScenario(scenario, run.params);
  return run;
}

std::vector<unsigned char> stateBits(const Simulation& simulation)
{
  const StateView view = simulation.downloadState();
  const std::size_t bytes =
    static_cast<std::size_t>(view.nx) * view.ny * view.realSize * view.fields;
  return { view.data, view.data + bytes };
}

std::vector<double> map(const Simulation& simulation, Field field)
{
  std::vector<double> values(
    static_cast<std::size_t>(simulation.parameters().nx) * simulation.parameters().ny);
  simulation.download(field, values.data());
  return values;
}

struct BitsCase
{
  Scheme scheme;
  Precision precision;
};

class EnsembleBits : public ::testing::TestWithParam<BitsCase>
{
};

TEST_P(EnsembleBits, AMemberHasTheBitsOfItsRunAlone)
{
  const BitsCase c = GetParam();
  const auto make = [&](int m)
  { return strip(c.scheme, c.precision, Scenario::StokerWetDamBreak, m); };
  Ensemble ensemble(3, make);
  const double times[] = { 3.0, 8.0 };
  for (double t : times)
    ensemble.advanceTo(t);
  for (int m = 0; m < ensemble.members(); ++m)
  {
    const MemberRun run = make(m);
    Simulation alone(run.params, run.initial);
    for (double t : times)
      alone.advanceTo(t);
    ASSERT_NE(ensemble.member(m), nullptr);
    EXPECT_GT(alone.steps(), 10);
    EXPECT_EQ(ensemble.state(m).steps, alone.steps()) << "member " << m;
    EXPECT_EQ(stateBits(*ensemble.member(m)), stateBits(alone)) << "member " << m;
  }
  // (the members do differ: friction slows the later ones)
  EXPECT_NE(stateBits(*ensemble.member(0)), stateBits(*ensemble.member(2)));
}

INSTANTIATE_TEST_SUITE_P(Schemes,
  EnsembleBits,
  ::testing::Values(BitsCase{ Scheme::LaxFriedrichs, Precision::Single },
    BitsCase{ Scheme::LaxFriedrichs, Precision::Double },
    BitsCase{ Scheme::MusclHllc, Precision::Single },
    BitsCase{ Scheme::MusclHllc, Precision::Double },
    BitsCase{ Scheme::MusclHancock, Precision::Single },
    BitsCase{ Scheme::MusclHancock, Precision::Double }));

// The statistics by their definitions (EnsembleStatistics.h), cell by cell, from the maps each
// member's own simulation gives.
std::vector<double> expectedStatistics(const Ensemble& ensemble, std::size_t k)
{
  std::vector<double> depths, arrivals;
  for (int m = 0; m < ensemble.members(); ++m)
    if (const Simulation* member = ensemble.member(m))
    {
      depths.push_back(map(*member, Field::MaxDepth)[k]);
      const double arrival = map(*member, Field::ArrivalTime)[k];
      arrivals.push_back(std::isnan(arrival) ? INFINITY : arrival);
    }
  std::sort(depths.begin(), depths.end());
  std::sort(arrivals.begin(), arrivals.end());
  const auto quantile = [](const std::vector<double>& v, double q)
  {
    const double position = q * (v.size() - 1);
    const std::size_t i = static_cast<std::size_t>(position);
    const double above = v[std::min(i + 1, v.size() - 1)];
    return position == i || v[i] == above ? v[i] : v[i] + (position - i) * (above - v[i]);
  };
  double flooded = 0, sum = 0;
  for (std::size_t m = 0; m < depths.size(); ++m)
  {
    flooded += std::isinf(arrivals[m]) ? 0 : 1;
    sum += depths[m];
  }
  const double n = static_cast<double>(depths.size());
  const auto finite = [](double v) { return std::isinf(v) ? NAN : v; };
  return { flooded / n,
    sum / n,
    quantile(depths, 0.1),
    quantile(depths, 0.5),
    quantile(depths, 0.9),
    finite(arrivals.front()),
    finite(quantile(arrivals, 0.5)) };
}

TEST(Ensemble, StatisticsAreAFoldOfTheMembersOwnMaps)
{
  // Ritter's dam break over a dry bed, slowed more in each member: the front reaches some cells
  // in some members only.
  const auto make = [](int m)
  { return strip(Scheme::MusclHancock, Precision::Double, Scenario::RitterDryDamBreak, m); };
  Ensemble ensemble(7, make);
  ensemble.advanceTo(3.0);
  const EnsembleStatistics s = ensemble.statistics();
  ASSERT_EQ(s.members, 7);
  EXPECT_DOUBLE_EQ(s.time, 3.0);
  int partly = 0, never = 0;
  for (std::size_t k = 0; k < s.map(EnsembleMap::ProbabilityFlooded).size(); ++k)
  {
    const std::vector<double> expected = expectedStatistics(ensemble, k);
    for (int i = 0; i < kEnsembleMapCount; ++i)
    {
      const double got = s.maps[i][k];
      if (std::isnan(expected[i]))
        EXPECT_TRUE(std::isnan(got)) << ensembleMapName(EnsembleMap(i)) << " cell " << k;
      else
        EXPECT_NEAR(got, expected[i], 1e-6 * std::max(1.0, std::fabs(expected[i])))
          << ensembleMapName(EnsembleMap(i)) << " cell " << k;
    }
    partly += expected[0] > 0 && expected[0] < 1 ? 1 : 0;
    never += expected[0] == 0 ? 1 : 0;
  }
  EXPECT_GT(partly, 0) << "no cell flooded in some members only: the case checks too little";
  EXPECT_GT(never, 0);
}

// Members spread over ranks (threads here, processes under mpirun): rank 0 has the statistics of
// the same ensemble on one rank, bit for bit, and every rank every member's state.
TEST(Ensemble, MembersSpreadOverRanksGiveTheStatisticsOfOneRank)
{
  const auto make = [](int m)
  {
    MemberRun run = strip(Scheme::MusclHancock, Precision::Single, Scenario::RitterDryDamBreak, m);
    if (m == 3)
      run.params.fixedDt = 5.0; // (blows up: its rank says so to the others)
    return run;
  };
  Ensemble alone(5, make);
  alone.advanceTo(2.0);
  const EnsembleStatistics expected = alone.statistics();
  std::vector<EnsembleStatistics> got(3);
  std::vector<std::vector<MemberState>> states(3);
  runOnThreads(3,
    [&](ThreadRankExchange& exchange)
    {
      Ensemble spread(5, make, &exchange);
      spread.advanceTo(2.0);
      got[exchange.rank()] = spread.statistics();
      for (int m = 0; m < spread.members(); ++m)
        states[exchange.rank()].push_back(spread.state(m));
      EXPECT_EQ(spread.running(), 4);
    });
  ASSERT_EQ(got[0].members, 4);
  for (int i = 0; i < kEnsembleMapCount; ++i)
    EXPECT_EQ(
      0, std::memcmp(got[0].maps[i].data(), expected.maps[i].data(), expected.maps[i].size() * 4))
      << ensembleMapName(EnsembleMap(i));
  for (int rank = 0; rank < 3; ++rank)
    for (int m = 0; m < 5; ++m)
    {
      EXPECT_EQ(states[rank][m].steps, alone.state(m).steps) << "rank " << rank << " member " << m;
      EXPECT_EQ(states[rank][m].failed, m == 3);
      EXPECT_EQ(states[rank][m].failure, alone.state(m).failure);
    }
}

// What each of two thread ranks is told when making an ensemble of `members` (its swe::Error's
// message; "" where none is thrown).
std::vector<std::string> refusalsOnTwoRanks(int members, const MemberMaker& make)
{
  std::vector<std::string> messages(2);
  runOnThreads(2,
    [&](ThreadRankExchange& exchange)
    {
      try
      {
        Ensemble spread(members, make, &exchange);
      }
      catch (const Error& e)
      {
        messages[exchange.rank()] = e.what();
      }
    });
  return messages;
}

// A member refused on one rank stops every rank with its message, none left waiting.
TEST(Ensemble, AMemberRefusedOnOneRankStopsEveryRank)
{
  const auto make = [](int m)
  {
    MemberRun run = strip(Scheme::MusclHancock, Precision::Single, Scenario::StokerWetDamBreak, 1);
    if (m == 3)
      run.params.manning = 5; // (refused: n in [0, 1])
    return run;
  };
  for (const std::string& message : refusalsOnTwoRanks(4, make))
    EXPECT_NE(message.find("member 4: "), std::string::npos) << message;
}

// Members of another grid on another rank are refused on every rank (their maps would not fold).
TEST(Ensemble, MembersOfAnotherGridOnAnotherRankAreRefusedOnEveryRank)
{
  const auto make = [](int m)
  {
    MemberRun run = strip(Scheme::MusclHancock, Precision::Single, Scenario::StokerWetDamBreak, 1);
    if (m % 2 == 1)
    {
      run.params.nx = 41;
      run.initial = makeScenario(Scenario::StokerWetDamBreak, run.params);
    }
    return run;
  };
  for (const std::string& message : refusalsOnTwoRanks(4, make))
    EXPECT_NE(message.find("the members on rank 1 run on 41 x 5 cells and member 1 on 40 x 5"),
      std::string::npos)
      << message;
}

TEST(Ensemble, AMemberThatBlowsUpIsNamedAndTheOthersGoOn)
{
  const auto make = [](int m)
  {
    MemberRun run = strip(Scheme::MusclHancock, Precision::Double, Scenario::StokerWetDamBreak, m);
    if (m == 1)
      run.params.fixedDt = 5.0; // far beyond the wave speeds' limit
    return run;
  };
  Ensemble ensemble(3, make);
  ensemble.advanceTo(1.0);
  EXPECT_EQ(ensemble.running(), 2);
  EXPECT_TRUE(ensemble.state(1).failed);
  EXPECT_EQ(ensemble.member(1), nullptr);
  EXPECT_NE(ensemble.state(1).failure.find("step"), std::string::npos) << ensemble.state(1).failure;
  for (int m : { 0, 2 })
  {
    EXPECT_FALSE(ensemble.state(m).failed);
    EXPECT_DOUBLE_EQ(ensemble.state(m).time, 1.0);
  }
  EXPECT_EQ(ensemble.statistics().members, 2);
}

TEST(Ensemble, MoreMembersThanTheDeviceHoldsAreRefusedWithTheCountThatFits)
{
  SimulationParameters p = smallParameters(Precision::Double, 4000, 4000);
  try
  {
    checkMembersFit(p, false, 1000000, 1000000);
    FAIL() << "a million members of 4000 x 4000 accepted";
  }
  catch (const Error& e)
  {
    const std::string message = e.what();
    EXPECT_NE(message.find("1000000 members of 4000 x 4000 cells need"), std::string::npos)
      << message;
    EXPECT_NE(message.find(" members fit; run fewer members or cells"), std::string::npos)
      << message;
  }
  EXPECT_THROW(checkMembersFit(p, false, 0, 0), Error);
}

TEST(Ensemble, MembersOfAnotherGridAreRefused)
{
  const auto make = [](int m)
  {
    MemberRun run = strip(Scheme::MusclHancock, Precision::Single, Scenario::StokerWetDamBreak, 0);
    if (m == 1)
    {
      run.params.nx = 41;
      run.initial = makeScenario(Scenario::StokerWetDamBreak, run.params);
    }
    return run;
  };
  try
  {
    Ensemble ensemble(2, make);
    FAIL() << "members on two grids accepted";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("member 2: it runs on 41 x 5 cells"), std::string::npos)
      << e.what();
  }
}
} // namespace
} // namespace swe::test
