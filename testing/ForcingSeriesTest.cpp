// Forcing that varies in time. Rain (SimulationParameters::rainSeries, a hyetograph): a closed
// flat basin gains the series' integral, before and after it ends; on terrain the device follows
// the C++ twin. A side's series (Boundary::series: an inflow's hydrograph, a water level's tide):
// the device follows the twin, the hydrograph's volume comes in. A bad series is refused naming
// its point.
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

namespace swe::test
{
namespace
{
// A triangular storm: nothing at 0 s, 360 mm/h (0.1 mm/s) at 10 s, nothing from 20 s on; 1 mm in
// all, 0.5 mm of it by 10 s.
const std::vector<std::array<double, 2>> kStorm = { { 0, 0 }, { 10, 360 }, { 20, 0 }, { 30, 0 } };

TEST(RainSeries, AClosedFlatBasinGainsTheSeriesIntegral)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (double h0 : { 0.0, 1.0 })
    {
      SimulationParameters p = smallParameters(Precision::Double, 23, 17);
      p.scheme = scheme;
      p.rainSeries = kStorm;
      InitialState lake = stillWater(p, h0);
      Simulation sim(p, lake);
      // (each step adds the series' exact integral over it, across the breakpoints too)
      for (auto [t, rained] :
        { std::pair{ 10.0, 5e-4 }, std::pair{ 25.0, 1e-3 }, std::pair{ 40.0, 1e-3 } })
      {
        sim.advanceTo(t);
        const Fields f = download(sim);
        for (std::size_t k = 0; k < f.h.size(); ++k)
        {
          ASSERT_NEAR(f.h[k], h0 + rained, 1e-14) << schemeName(scheme) << " t = " << t;
          ASSERT_EQ(f.h[k], f.h[0]) << "the rain is not uniform";
          ASSERT_EQ(f.hu[k], 0.0);
        }
      }
    }
}

// A hill standing out of a lake drained by an open side, under the storm with losses: the device
// and the twin take the same rate each step.
TEST(RainSeries, SecondOrderSchemesMatchTheTwinOnTerrain)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double);
    p.scheme = scheme;
    p.dx = 2.0;
    p.rainSeries = { { 0, 50 }, { 2, 400 }, { 4, 100 } };
    p.losses = 30;
    p.manning = 0.03;
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    EXPECT_LE(twinDifferenceAfter<double>(p, hillInALake(p), 100), 1e-10) << schemeName(scheme);
  }
}

// A tide on the west side of a sloping beach 100 m above sea level's datum (the series relative to
// the local datum on the device), and a hydrograph on the south side, both MUSCL schemes, fp64:
// the ghosts take each series at the time of the state they are filled for, as the twin does.
TEST(SideSeries, TidesAndHydrographsMatchTheTwin)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 40, 30);
    p.scheme = scheme;
    p.manning = 0.02;
    Series tide;
    for (int k = 0; k <= 20; ++k)
      tide.push_back({ 0.5 * k, 100.4 + 0.3 * std::sin(0.6 * k) });
    p.boundaries[static_cast<int>(Side::West)] = { BoundaryType::FixedLevel, 0.0, tide };
    p.boundaries[static_cast<int>(Side::South)] = {
      BoundaryType::Inflow, 0.0, { { 0, 0 }, { 2, 1.5 }, { 6, 0.2 } }
    };
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    InitialState beach(p.nx, p.ny);
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i)
      {
        const std::size_t k = beach.index(i, j);
        beach.bed[k] = 100.0 + 0.02 * i * p.dx;
        beach.h[k] = std::max(0.0, 100.4 - beach.bed[k]);
      }
    EXPECT_LE(twinDifferenceAfter<double>(p, beach, 150), 1e-10) << schemeName(scheme);
  }
}

// A hydrograph, 0 -> 2 -> 0 m^2/s over 4 s, into a closed basin round a hill whose flow bends
// back at the side: through the whole 10 m west side (40 m^3), or through 4 m of the north side
// (16 m^3), the rest of it a wall. It brings its integral exactly, whatever the flow inside it
// meets (the discharge is the side faces' mass flux), and nothing once it has ended. Solved
// between the cell and an inflow ghost, the faces brought 100.8 to 102.7 % of it here.
TEST(SideSeries, AHydrographBringsItsIntegral)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    for (Side side : { Side::West, Side::North })
    {
      SimulationParameters p = smallParameters(Precision::Double, 60, 10);
      p.dx = 1.0;
      p.scheme = scheme;
      Boundary hydrograph{ BoundaryType::Inflow, 0.0, { { 0, 0 }, { 2, 2 }, { 4, 0 } } };
      if (side == Side::North)
      {
        hydrograph.from = 20.0;
        hydrograph.to = 24.0;
      }
      p.boundaries[static_cast<int>(side)] = hydrograph;
      Simulation sim(p, hillInALake(p));
      const double m0 = sim.diagnostics().mass, volume = side == Side::West ? 40.0 : 16.0;
      sim.advanceTo(3.0);
      // (by 3 s: the rise's 4 m^3 a metre of side, and 1.5 of the fall's 2 s)
      EXPECT_NEAR(sim.diagnostics().mass - m0, volume * 3.5 / 4, 1e-10 * volume)
        << schemeName(scheme) << ", side " << static_cast<int>(side);
      sim.advanceTo(8.0);
      EXPECT_NEAR(sim.diagnostics().mass - m0, volume, 1e-10 * volume)
        << schemeName(scheme) << ", side " << static_cast<int>(side);
    }
}

// A tide that ends stays where it ended: a level rising from 0.5 to 0.6 m over 5 s on the west
// side of a 0.5 m lake fills it to 0.6 m, which it keeps after the series' last point (a level
// of 0 there drained it through the side).
TEST(SideSeries, ALevelSeriesHoldsItsLastValue)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 30, 6);
    p.dx = 1.0;
    p.scheme = scheme;
    p.manning = 0.05;
    p.boundaries[static_cast<int>(Side::West)] = {
      BoundaryType::FixedLevel, 0.0, { { 0, 0.5 }, { 5, 0.6 } }
    };
    Simulation sim(p, stillWater(p, 0.5));
    // (the lake sloshes about the new level, damped by its friction: 0.60 to 0.62 m by 240 s)
    sim.advanceTo(240.0);
    const double meanDepth = sim.diagnostics().mass / (p.nx * p.ny * p.dx * p.dx);
    EXPECT_NEAR(meanDepth, 0.6, 0.01) << schemeName(scheme);
  }
}

// Two point sources into a closed flat basin (one of them dry at the source), MUSCL-Hancock and
// MUSCL-HLLC fp64: the stored volume grows by the integral of their discharges, exactly.
TEST(PointSources, BringTheirSeriesIntegral)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 30, 20);
    p.scheme = scheme;
    p.dx = 1.0;
    p.sources = { { 5.5, 10.5, { { 0, 2 }, { 10, 2 } } }, // 20 m^3 over 10 s
      { 25.2, 4.9, { { 2, 0 }, { 6, 3 }, { 12, 0 } } } }; // 15 m^3
    InitialState lake(p.nx, p.ny);
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i)
        lake.h[lake.index(i, j)] = i < 15 ? 0.5 : 0.0; // the second source on dry land
    Simulation sim(p, lake);
    const double m0 = sim.diagnostics().mass;
    sim.advanceTo(7.0);
    // by 7 s: 14 m^3 and the triangle's rise to 6 s (6) and 1 s of its fall (2.75)
    EXPECT_NEAR(sim.diagnostics().mass - m0, 14 + 6 + 2.75, 1e-9) << schemeName(scheme);
    sim.advanceTo(15.0);
    EXPECT_NEAR(sim.diagnostics().mass - m0, 35.0, 1e-9) << schemeName(scheme);
  }
}

// A pump (a sink of 0.05 m^3/s for 10 s) in a closed lake takes its 0.5 m^3; a pump faster than
// the water can reach it takes only what its cell holds, no depth going below zero; and one on
// dry land takes nothing.
TEST(PointSources, SinksTakeWhatTheCellHolds)
{
  SimulationParameters p = smallParameters(Precision::Double, 30, 20);
  p.scheme = Scheme::MusclHancock;
  p.dx = 1.0;
  const Series slow = { { 0, -0.05 }, { 10, -0.05 } }, fast = { { 0, -2 }, { 10, -2 } };
  InitialState lake = stillWater(p, 0.5);
  const auto takenBy = [&](const Series& pump, const InitialState& initial)
  {
    p.sources = { { 5.5, 10.5, pump } };
    Simulation sim(p, initial);
    const double m0 = sim.diagnostics().mass;
    sim.advanceTo(12.0);
    const Fields f = download(sim);
    EXPECT_GE(*std::min_element(f.h.begin(), f.h.end()), 0.0);
    return m0 - sim.diagnostics().mass;
  };
  EXPECT_NEAR(takenBy(slow, lake), 0.5, 1e-9);
  const double fastTaken = takenBy(fast, lake);
  EXPECT_GT(fastTaken, 5.0);
  EXPECT_LT(fastTaken, 20.0);
  EXPECT_EQ(takenBy(fast, InitialState(p.nx, p.ny)), 0.0);
}

// Terrain that rises and falls along x and slopes up along y, under 0.2 m of water where lower.
InitialState wavyShore(const SimulationParameters& p)
{
  return waterOverTerrain(p, 0.2, [](int i, int j) { return 0.3 * std::sin(0.2 * i) + 0.01 * j; });
}

TEST(PointSources, MatchTheTwinOnTerrain)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 40, 30);
    p.scheme = scheme;
    p.manning = 0.02;
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    p.sources = { { 3.1, 7.4, { { 0, 0.5 }, { 1, 1.5 }, { 3, 0 } } },
      { 10.0, 7.5, { { 0, 0.2 }, { 5, 0.2 } } },
      { 15.2, 3.3, { { 0, -0.4 }, { 5, -0.4 } } } }; // a sink
    EXPECT_LE(twinDifferenceAfter<double>(p, wavyShore(p), 120), 1e-10) << schemeName(scheme);
  }
}

// A thousand sources and sinks, many sharing a cell (a sink before a source in one cell, a
// source before a sink in another: the order they are listed in decides what the cell keeps),
// on terrain with dry land, both MUSCL schemes and precisions: the device follows the twin, which
// takes them one after the other.
TEST(PointSources, AThousandSharingCellsMatchTheTwin)
{
  for (Precision precision : { Precision::Double, Precision::Single })
    for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
    {
      SimulationParameters p = smallParameters(precision, 40, 30);
      p.scheme = scheme;
      p.manning = 0.02;
      p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
      for (int k = 0; k < 996; ++k) // (cells of 0.5 m: about one source in three a shared cell)
      {
        const double q = (k % 7 == 3 ? -0.02 : 0.01) * (1 + k % 5);
        p.sources.push_back({ 0.25 + 0.5 * ((k * 37) % 40) * 0.9,
          0.25 + 0.5 * ((k * 11) % 30),
          { { 0, q }, { 1.0 + k % 3, 2 * q }, { 4, 0 } } });
      }
      const Series pump = { { 0, -1.0 }, { 5, -1.0 } }, fill = { { 0, 0.3 }, { 5, 0.3 } };
      p.sources.push_back({ 19.1, 14.1, pump });
      p.sources.push_back({ 19.2, 14.2, fill });
      p.sources.push_back({ 18.1, 13.1, fill });
      p.sources.push_back({ 18.2, 13.2, pump });
      const InitialState s = wavyShore(p);
      const double tolerance = precision == Precision::Double ? 1e-10 : 1e-5;
      EXPECT_LE(precision == Precision::Double ? twinDifferenceAfter<double>(p, s, 120)
                                               : twinDifferenceAfter<float>(p, s, 120),
        tolerance)
        << schemeName(scheme) << " " << precisionName(precision);
    }
}

// An inflow through a stretch of a side, a water level on a stretch of another, the rest of
// them walls, both MUSCL schemes fp64: the device follows the twin.
TEST(Stretches, MatchTheTwin)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 40, 30); // 20 x 15 m
    p.scheme = scheme;
    Boundary inflow{ BoundaryType::Inflow, 0.8 };
    inflow.from = 4.0;
    inflow.to = 7.5;
    Boundary level{ BoundaryType::FixedLevel, 0.45, { { 0, 0.4 }, { 5, 0.6 } } };
    level.from = 12.0;
    level.to = 20.0;
    p.boundaries[static_cast<int>(Side::West)] = inflow;
    p.boundaries[static_cast<int>(Side::North)] = level;
    EXPECT_LE(twinDifferenceAfter<double>(p, hillInALake(p), 120), 1e-10) << schemeName(scheme);
  }
}

// 1.5 m^2/s through 4 m of the 10 m east side of a closed lake for 3 s: 18 m^3 exactly, against
// 45 m^3 through the whole side (the wall beside the stretch lets nothing through).
TEST(Stretches, BringTheirShareOfTheInflow)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 60, 10);
    p.dx = 1.0;
    p.scheme = scheme;
    Boundary inflow{ BoundaryType::Inflow, 1.5 };
    inflow.from = 3.0;
    inflow.to = 7.0;
    p.boundaries[static_cast<int>(Side::East)] = inflow;
    Simulation sim(p, makeScenario(Scenario::LakeAtRest, p));
    const double m0 = sim.diagnostics().mass;
    sim.advanceTo(3.0);
    EXPECT_NEAR(sim.diagnostics().mass - m0, 18.0, 1e-10 * 18.0) << schemeName(scheme);
  }
}

TEST(RainSeries, BadSeriesAreRefusedNamingThePoint)
{
  struct Bad
  {
    std::vector<std::array<double, 2>> series;
    double rainfall;
    Scheme scheme;
    const char* expected;
  };
  const Bad cases[] = {
    { { { 0, 10 } }, 0, Scheme::MusclHancock, "needs 2 to 2000 points" },
    { { { 0, 10 }, { 5, 20 }, { 5, 30 } }, 0, Scheme::MusclHancock, "point 3: time 5 s" },
    { { { -1, 10 }, { 5, 20 } }, 0, Scheme::MusclHancock, "point 1: time -1 s" },
    { { { 0, 10 }, { 5, -2 } },
      0,
      Scheme::MusclHancock,
      "point 2: -2 mm/h is outside [0, 2000] mm/h" },
    { { { 0, 10 }, { 5, std::nan("") } }, 0, Scheme::MusclHancock, "point 2's value" },
    { { { 0, 10 }, { 5, 20 } }, 30, Scheme::MusclHancock, "not both" },
    { { { 0, 10 }, { 5, 20 } }, 0, Scheme::LaxFriedrichs, "needs MUSCL-Hancock or MUSCL-HLLC" },
  };
  struct BadSide
  {
    BoundaryType type;
    Series series;
    const char* expected;
  };
  const BadSide sides[] = {
    { BoundaryType::Wall, { { 0, 1 }, { 1, 2 } }, "the west boundary has a series but is a wall" },
    { BoundaryType::Inflow, { { 0, 1 }, { 1, -2 } }, "west boundary's hydrograph point 2" },
    { BoundaryType::FixedLevel, { { 0, 1 } }, "west boundary's level series needs 2" },
  };
  struct BadSource
  {
    PointSource source;
    Scheme scheme;
    const char* expected;
  };
  const BadSource sources[] = {
    { { 30, 1, { { 0, 1 }, { 1, 1 } } }, Scheme::MusclHancock, "point source 1 at (30, 1) m lies" },
    { { 1, 1, { { 0, 1 }, { 1, -1e6 } } },
      Scheme::MusclHancock,
      "point source 1's discharge point 2" },
    { { 1, 1, { { 0, 1 }, { 1, 1 } } }, Scheme::LaxFriedrichs, "a point source needs MUSCL" },
  };
  for (const BadSource& c : sources)
  {
    SimulationParameters p = smallParameters(Precision::Single); // 25 x 18.5 m
    p.scheme = c.scheme;
    p.sources = { c.source };
    expectRefused(p, c.expected);
  }
  for (auto [from, to, type, expected] :
    { std::tuple{ 3.0, 2.0, BoundaryType::Inflow, "stretch [3, 2] m must lie along the side" },
      std::tuple{ 0.0, 40.0, BoundaryType::Inflow, "in [0, 18.5] m" },
      std::tuple{ 1.0, 1.1, BoundaryType::Inflow, "hold at least one cell's centre" },
      std::tuple{ 1.0, 5.0, BoundaryType::Open, "has a stretch but is open" } })
  {
    SimulationParameters p = smallParameters(Precision::Single); // cells of 0.5 m
    p.scheme = Scheme::MusclHancock;
    p.boundaries[0] = { type, type == BoundaryType::Open ? 0.0 : 1.0 };
    p.boundaries[0].from = from;
    p.boundaries[0].to = to;
    expectRefused(p, expected);
  }
  for (const BadSide& c : sides)
  {
    SimulationParameters p = smallParameters(Precision::Single);
    p.scheme = Scheme::MusclHancock;
    p.boundaries[0] = { c.type, 0.0, c.series };
    expectRefused(p, c.expected);
  }
  for (const Bad& c : cases)
  {
    SimulationParameters p = smallParameters(Precision::Single);
    p.scheme = c.scheme;
    p.rainSeries = c.series;
    p.rainfall = c.rainfall;
    expectRefused(p, c.expected);
  }
}
} // namespace
} // namespace swe::test
