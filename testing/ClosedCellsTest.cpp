// Closed cells (InitialState: a NaN bed, no data in the DEM): outside the domain, a wall that
// keeps a lake at rest, never wet under rain or a flood, NaN terrain when read back; the device
// follows the twin; the water balance counts rain on the open cells only; what cannot work there
// is refused by name.
#include "Error.h"
#include "Simulation.h"
#include "SplitRunHelpers.h"
#include "TestHelpers.h"
#include "WaterBalance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace swe::test
{
namespace
{
constexpr Scheme kSecondOrder[] = { Scheme::MusclHllc, Scheme::MusclHancock };

// A 30 x 22 grid of 0.1 m cells on a wavy bed, its north-west corner and a block inside it
// closed; water up to 0.3 m.
InitialState holedTerrain(const SimulationParameters& p)
{
  InitialState s(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const std::size_t c = s.index(i, j);
      const bool closed = (i < 6 && j > 15) || (i >= 14 && i < 18 && j >= 8 && j < 12);
      s.bed[c] = closed ? std::numeric_limits<double>::quiet_NaN()
                        : 0.2 * std::cos(0.3 * i) * std::sin(0.2 * j) + 0.005 * i;
      s.h[c] = closed ? 0.0 : std::max(0.0, 0.3 - s.bed[c]);
    }
  return s;
}

SimulationParameters holedParameters(Scheme scheme)
{
  SimulationParameters p = smallParameters(Precision::Double, 30, 22);
  p.scheme = scheme;
  p.dx = 0.1;
  p.manning = 0.02;
  return p;
}

TEST(ClosedCells, StayDryUnderRainAndFlowAndFollowTheTwin)
{
  for (Scheme scheme : kSecondOrder)
  {
    SimulationParameters p = holedParameters(scheme);
    p.rainfall = 300;
    p.boundaries[static_cast<int>(Side::West)] = { BoundaryType::Inflow, 0.05 };
    p.boundaries[static_cast<int>(Side::West)].to = 1.4; // (below the closed corner)
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    const InitialState s = holedTerrain(p);
    EXPECT_LE(twinDifferenceAfter<double>(p, s, 150), 1e-10) << schemeName(scheme);
    Simulation sim(p, s);
    sim.advanceTo(3.0);
    const Fields f = download(sim);
    std::vector<double> bed(s.cells());
    sim.download(Field::Bed, bed.data());
    for (std::size_t k = 0; k < s.cells(); ++k)
    {
      ASSERT_EQ(std::isnan(bed[k]), s.closed(k)) << "cell " << k;
      if (s.closed(k))
        ASSERT_TRUE(f.h[k] == 0 && f.hu[k] == 0 && f.hv[k] == 0) << schemeName(scheme);
      else
        ASSERT_EQ(bed[k], s.bed[k]) << "open terrain reads back as given";
    }
  }
}

TEST(ClosedCells, KeepALakeAtRest)
{
  for (Scheme scheme : kSecondOrder)
  {
    const SimulationParameters p = holedParameters(scheme);
    InitialState s = holedTerrain(p);
    Simulation sim(p, s);
    sim.advanceTo(2.0);
    const Fields f = download(sim);
    for (std::size_t k = 0; k < s.cells(); ++k)
    {
      ASSERT_NEAR(f.h[k], s.h[k], 1e-13) << schemeName(scheme) << " cell " << k;
      ASSERT_LE(std::fabs(f.hu[k]) + std::fabs(f.hv[k]), 1e-13) << schemeName(scheme);
    }
  }
}

TEST(ClosedCells, TheBalanceCountsRainOnOpenCellsOnly)
{
  for (Scheme scheme : kSecondOrder)
  {
    SimulationParameters p = holedParameters(scheme);
    p.rainfall = 300;
    p.waterBalance = true;
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    const InitialState s = holedTerrain(p);
    const RainedCells open = s.rainedCells();
    Simulation sim(p, s);
    const double initial = closingInitialVolume(sim.downloadState(), p, open);
    sim.advanceTo(5.0);
    const WaterBalance b = waterBalanceOf(sim.downloadState(), p, initial, open);
    EXPECT_LE(std::fabs(b.relativeError()), 1e-12) << schemeName(scheme);
    const WaterBalance everywhere = waterBalanceOf(sim.downloadState(), p, initial);
    EXPECT_GT(std::fabs(everywhere.relativeError()), 1e-6) << "rain on closed cells is not water";
  }
}

TEST(ClosedCells, WhatCannotWorkThereIsRefusedByName)
{
  SimulationParameters p = holedParameters(Scheme::MusclHancock);
  const InitialState s = holedTerrain(p);
  const auto refused = [&](SimulationParameters q, const std::string& expected)
  {
    try
    {
      Simulation sim(q, s);
      ADD_FAILURE() << "not refused: " << expected;
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  SimulationParameters q = p;
  q.sources = { { 1.55, 0.95, { { 0, 1e-5 }, { 10, 1e-5 } } } };
  refused(q, "point source 1 lies in cell (15, 9), which has no terrain");
  q = p;
  q.gauges = { { 0.25, 2.05 } };
  refused(q, "gauge 1 lies in cell (2, 20), which has no terrain");
  q = p;
  q.boundaries[static_cast<int>(Side::West)] = { BoundaryType::Inflow, 0.05 };
  refused(q, "the west side's inflow lies in cell (0, 16), which has no terrain");
  // Split among ranks, by the rank whose block lies on that side, for every rank (its faces
  // would count water into a cell that never holds it).
  for (int ranks : { 2, 3 })
    try
    {
      onEveryRank<int>(q, s, ranks, [](Simulation&) { return 0; });
      ADD_FAILURE() << "not refused on " << ranks << " ranks";
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find("inflow lies in cell (0, 16), which has no terrain"),
        std::string::npos)
        << e.what();
    }
  q = p;
  q.scheme = Scheme::LaxFriedrichs;
  refused(q, "cells outside the domain need MUSCL-Hancock or MUSCL-HLLC");
  InitialState wet = s;
  wet.h[wet.index(15, 9)] = 0.1;
  try
  {
    Simulation sim(p, wet);
    ADD_FAILURE() << "water in a closed cell accepted";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("holds no water"), std::string::npos) << e.what();
  }
}
} // namespace
} // namespace swe::test
