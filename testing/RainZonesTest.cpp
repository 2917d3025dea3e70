// Rain zones (SimulationParameters::rainZones): each cell takes its zone's series, as the Rainfall
// Array says. Zones that share one series give that series' bits; a storm that moves from one
// zone to the next follows the twin, brings each zone's own volume and closes the water balance;
// zone numbers that are not zones, and zones beside other rain, are refused by name.
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"
#include "WaterBalance.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace swe::test
{
namespace
{
constexpr Scheme kSecondOrder[] = { Scheme::MusclHllc, Scheme::MusclHancock };

// The rain basin (TestHelpers.h), 0.5 m deep, its west third zone 0, its middle zone 1 and its
// east third zone 2.
SimulationParameters basin(Scheme scheme)
{
  SimulationParameters p = rainBasin(scheme);
  p.rainPerCell = true;
  return p;
}

InitialState zonedLake(const SimulationParameters& p)
{
  InitialState s(p.nx, p.ny);
  s.rain.resize(s.cells());
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      s.h[s.index(i, j)] = 0.5;
      s.rain[s.index(i, j)] = static_cast<double>(3 * i / p.nx);
    }
  return s;
}

// A storm that passes from west to east: each zone's burst 4 s later than the one before.
std::vector<Series> passingStorm()
{
  std::vector<Series> zones;
  for (int z = 0; z < 3; ++z)
  {
    const double start = 4.0 * z;
    zones.push_back({ { start, 0 }, { start + 2, 720 }, { start + 5, 180 }, { start + 8, 0 } });
  }
  return zones;
}

TEST(RainZones, ZonesSharingASeriesGiveThatSeriesBits)
{
  for (Scheme scheme : kSecondOrder)
  {
    SimulationParameters series = basin(scheme);
    series.rainSeries = passingStorm()[1];
    InitialState s = zonedLake(series);
    SimulationParameters zoned = series;
    zoned.rainSeries.clear();
    zoned.rainZones.assign(3, series.rainSeries);
    Simulation byZone(zoned, s);
    s.rain.assign(s.cells(), 1.0);
    Simulation bySeries(series, s);
    byZone.advanceTo(10.0);
    bySeries.advanceTo(10.0);
    EXPECT_EQ(maxRelativeDifference(download(bySeries), download(byZone)), 0.0)
      << schemeName(scheme);
  }
}

TEST(RainZones, APassingStormFollowsTheTwinAndClosesTheBalance)
{
  // (the CPU-shaped kernels and the GPU sweeps, whichever device runs the tests)
  for (Scheme scheme : kSecondOrder)
    for (const char* launch : { "rows4", "16x1x4" })
    {
      SimulationParameters p = basin(scheme);
      p.launch = launch;
      p.rainZones = passingStorm();
      p.waterBalance = true;
      const InitialState s = zonedLake(p);
      EXPECT_LE(twinDifferenceAfter<double>(p, s, 150), 1e-10) << schemeName(scheme) << launch;
      const RainedCells cells = s.rainedCells(p.rainZones.size());
      ASSERT_EQ(cells.size(), 3u);
      EXPECT_EQ(cells[0] + cells[1] + cells[2], static_cast<double>(s.cells()));
      Simulation sim(p, s);
      const double initial = closingInitialVolume(sim.downloadState(), p, cells);
      sim.advanceTo(6.0);
      // By t = 6 s zone 0 had its burst to 180 mm/h and zone 1 its rise to 720 mm/h, each with
      // its own series' integral; zone 2 none yet.
      double expected = 0;
      for (std::size_t z = 0; z < 3; ++z)
        expected += rainDepthUntil(p, 6.0, static_cast<int>(z)) * cells[z];
      const WaterBalance b = waterBalanceOf(sim.downloadState(), p, initial, cells);
      EXPECT_NEAR(b.rain, expected, 1e-12) << schemeName(scheme);
      EXPECT_NEAR(rainDepthUntil(p, 6.0, 2), 0.0, 0.0);
      EXPECT_NEAR(rainDepthUntil(p, 6.0, 0),
        (720.0 * 2 / 2 + (720.0 + 180) / 2 * 3 + 180.0 * 1 - 180.0 / 3 * 1 / 2) / 3.6e6,
        1e-15);
      EXPECT_LE(std::fabs(b.relativeError()), 1e-12) << schemeName(scheme);
      // The west, wetter by then, stands higher than the dry east.
      const Fields f = download(sim);
      EXPECT_GT(f.h[s.index(2, 10)], f.h[s.index(27, 10)] + 1e-4) << schemeName(scheme);
    }
}

// A closed cell (no terrain) may hold any zone, a DEM's no-data value among them: no one reads it,
// and the run follows the twin.
TEST(RainZones, ClosedCellsMayHoldAnyZone)
{
  SimulationParameters p = basin(Scheme::MusclHancock);
  p.rainZones = passingStorm();
  p.launch = "16x1x4";
  InitialState s = zonedLake(p);
  s.bed[s.index(9, 9)] = std::nan("");
  s.h[s.index(9, 9)] = 0;
  s.rain[s.index(9, 9)] = 255;
  EXPECT_LE(twinDifferenceAfter<double>(p, s, 60), 1e-10);
  EXPECT_EQ(s.rainedCells(3)[0] + s.rainedCells(3)[1] + s.rainedCells(3)[2],
    static_cast<double>(s.cells() - 1));
}

TEST(RainZones, ItsRefusalsNameTheZoneAndTheFix)
{
  SimulationParameters p = basin(Scheme::MusclHancock);
  p.rainZones = passingStorm();
  p.rainfall = 10;
  expectRefused(p, "give either rain zones or a uniform rainfall or rainfall series, not both");
  p.rainfall = 0;
  p.rainZones.assign(kMaxRainZones + 1, passingStorm()[0]);
  expectRefused(p, "at most 32 rain zones, got 33");
  p.rainZones = passingStorm();
  const auto refused = [&](double zone, const std::string& expected)
  {
    InitialState s = zonedLake(p);
    s.rain[s.index(7, 4)] = zone;
    try
    {
      Simulation sim(p, s);
      ADD_FAILURE() << "zone " << zone << " was accepted";
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  for (double zone : { 3.0, 1.5 })
    refused(zone,
      "cell (7, 4) of the Rainfall Array is in rain zone " + formatValue(zone) +
        "; the zones are 0 to 2");
  refused(-1.0, "got -1 at cell (7, 4)");
  p.rainPerCell = false;
  try
  {
    InitialState s = zonedLake(p);
    s.rain.clear();
    Simulation sim(p, s);
    ADD_FAILURE() << "rain zones without their array were accepted";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("rain zones need the array of each cell's zone"),
      std::string::npos)
      << e.what();
  }
}
} // namespace
} // namespace swe::test
