// The water balance (SimulationParameters::waterBalance): the device folds what each step moves
// through the grid's sides and the point sources into the Inflow field as the twin does, and
// the balance of rain, inflow, outflow, infiltration and the water on the grid closes to
// round-off in every scheme; what it cannot count is refused.
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"
#include "WaterBalance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace swe::test
{
namespace
{
// A run with water coming in and going out every way the scheme allows: a discharge through the
// west side (part of it, for the second-order schemes), an open east side, a fixed level on the
// south side; rain; for the second-order schemes terrain with dry land, a point source and a
// sink, and Green-Ampt infiltration.
struct Storm
{
  SimulationParameters params;
  InitialState initial;
};

Storm storm(Scheme scheme)
{
  SimulationParameters p = smallParameters(Precision::Double, 30, 22);
  p.scheme = scheme;
  p.dx = 0.1;
  p.waterBalance = true;
  p.rainfall = 200;
  p.manning = 0.03;
  p.boundaries[static_cast<int>(Side::West)] = { BoundaryType::Inflow, 0.05 };
  p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  p.boundaries[static_cast<int>(Side::South)] = { BoundaryType::FixedLevel, 0.42 };
  InitialState s(p.nx, p.ny);
  const bool terrain = isSecondOrder(scheme);
  if (terrain)
  {
    p.boundaries[static_cast<int>(Side::West)].from = 0.4;
    p.boundaries[static_cast<int>(Side::West)].to = 1.6;
    p.sources = { { 1.05, 1.05, { { 0, 2e-5 }, { 5, 4e-5 } } },
      { 2.25, 0.75, { { 0, -1e-5 }, { 10, -1e-5 } } } };
    p.infiltration = { 40.0, 60.0, 0.3 };
  }
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const std::size_t c = s.index(i, j);
      s.bed[c] = terrain ? 0.25 * std::cos(0.2 * i) * std::sin(0.25 * j) + 0.01 * i : 0.0;
      s.h[c] = std::max(0.0, (terrain ? 0.3 : 0.5 + 0.1 * std::cos(0.3 * i)) - s.bed[c]);
      s.hu[c] = terrain ? 0.0 : 0.02;
    }
  return { p, s };
}

std::vector<double> deviceInflow(const Simulation& sim, const SimulationParameters& p)
{
  std::vector<double> f(static_cast<std::size_t>(p.nx) * p.ny);
  sim.download(Field::Inflow, f.data());
  return f;
}

constexpr Scheme kSchemes[] = { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock };

TEST(WaterBalance, TheDeviceFoldsTheTwinsInflow)
{
  for (Scheme scheme : kSchemes)
  {
    const Storm s = storm(scheme);
    Simulation device(s.params, s.initial);
    ReferenceSolver<double> twin(s.params, s.initial);
    device.step(120);
    twin.takeSteps(120);
    EXPECT_LE(
      maxRelativeDifference(download(device), twinFields(twin, s.params.nx, s.params.ny)), 1e-10)
      << schemeName(scheme);
    const std::vector<double> in = deviceInflow(device, s.params);
    double largest = 0, difference = 0;
    for (std::size_t c = 0; c < in.size(); ++c)
    {
      largest = std::max(largest, std::fabs(in[c]));
      difference = std::max(difference, std::fabs(in[c] - twin.inflow()[c]));
    }
    EXPECT_GT(largest, 1e-4) << schemeName(scheme) << ": water came in and went out";
    EXPECT_LE(difference, 1e-12 * largest) << schemeName(scheme);
  }
}

TEST(WaterBalance, ClosesToRoundOffInEveryScheme)
{
  for (Scheme scheme : kSchemes)
  {
    const Storm s = storm(scheme);
    Simulation sim(s.params, s.initial);
    const double initial = closingInitialVolume(sim.downloadState(), s.params);
    EXPECT_NEAR(initial, sim.diagnostics().mass, 1e-12 * initial) << schemeName(scheme);
    for (double t : { 2.0, 6.0, 12.0 })
    {
      sim.advanceTo(t);
      const WaterBalance b = waterBalanceOf(sim.downloadState(), s.params, initial);
      EXPECT_GT(b.rain, 0);
      EXPECT_GT(b.inflow, 0) << schemeName(scheme);
      EXPECT_GT(b.outflow, 0) << schemeName(scheme);
      EXPECT_EQ(b.infiltration > 0, isSecondOrder(scheme)) << schemeName(scheme);
      EXPECT_LE(std::fabs(b.relativeError()), 1e-12)
        << schemeName(scheme) << " t = " << t << ": stored " << b.stored << ", error " << b.error();
    }
  }
}

// The balance closes because the sides are counted: without them it would miss by far more.
TEST(WaterBalance, TheSidesCarryWhatTheStoredWaterMisses)
{
  const Storm s = storm(Scheme::MusclHancock);
  Simulation sim(s.params, s.initial);
  const double initial = closingInitialVolume(sim.downloadState(), s.params);
  sim.advanceTo(12.0);
  const WaterBalance b = waterBalanceOf(sim.downloadState(), s.params, initial);
  EXPECT_GT(std::fabs(b.inflow - b.outflow), 1e6 * std::fabs(b.error()));
}

// A flood hydrograph (0 -> 0.2 -> 0 m^2/s over `hours`) down a 3 % slope that leaves through an
// open side, and a point source of 0.05 m^3/s, in fp32.
constexpr double kFloodPeak = 0.2, kFloodSource = 0.05;
Storm singlePrecisionFlood(double hours)
{
  SimulationParameters p = smallParameters(Precision::Single, 12, 6);
  p.scheme = Scheme::MusclHancock;
  p.dx = 2;
  p.manning = 0.03;
  p.waterBalance = true;
  p.boundaries[static_cast<int>(Side::West)] = {
    BoundaryType::Inflow, 0.0, { { 0, 0.0 }, { 0.5 * hours, kFloodPeak }, { hours, 0.0 } }
  };
  p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  p.sources = { { 21, 7, { { 0, kFloodSource }, { hours, kFloodSource } } } };
  InitialState s(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      s.bed[s.index(i, j)] = 0.03 * (p.nx - i) * p.dx;
      s.h[s.index(i, j)] = 0.1;
    }
  return { p, s };
}

// A long fp32 run: that flood for 3 hours (about 60 000 steps). Each step adds a small depth to
// totals that grow far larger: rounded to fp32 at every step they drifted (the source's by 3e-5,
// the side's by 7e-7), compensated (kernels/device/compensated.h) they keep what crossed to the
// totals' last rounding.
TEST(WaterBalance, ALongSinglePrecisionRunClosesToOnePartInAMillion)
{
  const double hours = 3 * 3600;
  const Storm s = singlePrecisionFlood(hours);
  const SimulationParameters& p = s.params;
  Simulation sim(p, s.initial);
  const double initial = closingInitialVolume(sim.downloadState(), p);
  sim.advanceTo(hours);
  EXPECT_GT(sim.steps(), 50000);
  const WaterBalance b = waterBalanceOf(sim.downloadState(), p, initial);
  const double hydrograph = 0.5 * kFloodPeak * hours * p.ny * p.dx, source = kFloodSource * hours;
  EXPECT_NEAR(b.inflow, hydrograph + source, 1e-6 * (hydrograph + source));
  EXPECT_GT(b.outflow, 0.9 * b.inflow);
  const std::vector<double> in = deviceInflow(sim, p);
  double side = 0;
  for (int j = 0; j < p.ny; ++j)
    side += in[static_cast<std::size_t>(j) * p.nx] * p.dx * p.dx;
  EXPECT_NEAR(side, hydrograph, 2e-7 * hydrograph);
  EXPECT_LE(std::fabs(b.relativeError()), 1e-6)
    << "stored " << b.stored << ", error " << b.error() << " after " << sim.steps() << " steps";
}

// The totals' low parts go with a snapshot, in host or device memory: going back to one gives the
// Inflow field's bits of the run that never went back.
TEST(WaterBalance, ASinglePrecisionCheckpointKeepsTheInflowsBits)
{
  const Storm s = singlePrecisionFlood(600);
  for (SnapshotPlace place : { SnapshotPlace::Host, SnapshotPlace::Device })
  {
    Simulation sim(s.params, s.initial);
    sim.advanceTo(100);
    const Snapshot checkpoint = sim.snapshot(place);
    sim.advanceTo(300);
    const std::vector<double> first = deviceInflow(sim, s.params);
    sim.restore(checkpoint);
    sim.advanceTo(300);
    EXPECT_TRUE(deviceInflow(sim, s.params) == first)
      << (place == SnapshotPlace::Device ? "on the device" : "on the host");
  }
}

TEST(WaterBalance, ItsRefusalsNameWhatItCannotCount)
{
  SimulationParameters p = smallParameters(Precision::Single);
  p.scheme = Scheme::MusclHancock;
  p.waterBalance = true;
  p.losses = 5;
  expectRefused(p, "the water balance does not count a constant loss rate (5 mm/h)");
  p.losses = 0;
  Simulation sim(p, InitialState(p.nx, p.ny));
  SimulationParameters without = p;
  without.waterBalance = false;
  Simulation plain(without, InitialState(p.nx, p.ny));
  std::vector<double> f(static_cast<std::size_t>(p.nx) * p.ny);
  try
  {
    plain.download(Field::Inflow, f.data());
    ADD_FAILURE() << "no Inflow field without the water balance";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("keeps no water balance"), std::string::npos);
  }
  EXPECT_THROW(waterBalanceOf(plain.downloadState(), without, 0), Error);
}
} // namespace
} // namespace swe::test
