// The second-order schemes (MUSCL-HLLC, MUSCL-Hancock): their twin, well-balancing over terrain,
// wet/dry fronts, conservation, symmetry, and the SWASHES dam breaks against their exact
// solutions.
#include "AnalyticSolutions.h"
#include "Error.h"
#include "ReferenceSolver.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>

using namespace swe;

namespace swe
{
// How gtest (and so ctest's test list) shows a scheme parameter.
void PrintTo(Scheme scheme, std::ostream* os)
{
  *os << schemeName(scheme);
}
} // namespace swe

namespace
{
SimulationParameters musclParameters(Scheme scheme,
  Precision precision,
  int nx = 50,
  int ny = 37,
  double dx = 0.5)
{
  SimulationParameters p = test::smallParameters(precision, nx, ny);
  p.scheme = scheme;
  p.dx = dx;
  return p;
}

// An island (an emerged hill) in a basin, with a column of deep water released beside it onto
// partly dry land, and some swirl: every branch of the scheme runs (dry cells, fronts, bed).
InitialState islandState(const SimulationParameters& p)
{
  InitialState s(p.nx, p.ny);
  const double lx = p.nx * p.dx, ly = p.ny * p.dx;
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const double x = (i + 0.5) * p.dx, y = (j + 0.5) * p.dx;
      const double hill =
        1.5 * std::exp(-(std::pow(x - 0.6 * lx, 2) + std::pow(y - 0.5 * ly, 2)) / 20.0);
      const double slope = 0.02 * x; // rising towards the east: the east end is dry
      const double bed = hill + slope;
      const double level = std::hypot(x - 0.25 * lx, y - 0.5 * ly) < 4.0 ? 1.5 : 0.5;
      const std::size_t k = s.index(i, j);
      s.bed[k] = bed;
      s.h[k] = std::max(0.0, level - bed);
      if (s.h[k] > 0)
      {
        s.hu[k] = 0.1 * s.h[k] * std::sin(y);
        s.hv[k] = -0.1 * s.h[k] * std::cos(x);
      }
    }
  return s;
}

template<class Real>
double twinDifference(Scheme scheme, Precision precision, const std::string& options)
{
  SimulationParameters p = musclParameters(scheme, precision);
  p.manning = 0.03;
  p.buildOptions = options;
  return test::twinDifferenceAfter<Real>(p, islandState(p), 100);
}

double maxAbs(const std::vector<double>& v)
{
  double m = 0;
  for (double x : v)
    m = std::max(m, std::fabs(x));
  return m;
}

class SecondOrderScheme : public ::testing::TestWithParam<Scheme>
{
};

std::string schemeTestName(const ::testing::TestParamInfo<Scheme>& info)
{
  return info.param == Scheme::MusclHllc ? "MusclHllc" : "MusclHancock";
}
} // namespace

INSTANTIATE_TEST_SUITE_P(Schemes,
  SecondOrderScheme,
  ::testing::Values(Scheme::MusclHllc, Scheme::MusclHancock),
  schemeTestName);

TEST_P(SecondOrderScheme, MatchesCppTwinAfter100Steps)
{
  EXPECT_LE(twinDifference<double>(GetParam(), Precision::Double, ""), 1e-12);
  // The square roots GPUs take in fp64 (kernels/device/precision.h; forced here on any device).
  EXPECT_LE(twinDifference<double>(GetParam(), Precision::Double, "-DNEWTON_FP64=1"), 1e-12);
  EXPECT_LE(
    twinDifference<float>(GetParam(), Precision::Single, "-cl-fp32-correctly-rounded-divide-sqrt"),
    1e-5);
}

TEST_P(SecondOrderScheme, LakeAtRestOverBumpsStaysAtRest)
{
  // SWASHES immersed and emerged bumps (25 m strips) and a 2D island, 1000 steps in fp64.
  struct Case
  {
    Scenario scenario;
    int nx, ny;
    double dx;
  };
  for (const Case& c : { Case{ Scenario::ImmersedBump, 100, 4, 0.25 },
         Case{ Scenario::EmergedBump, 100, 4, 0.25 },
         Case{ Scenario::LakeAtRest, 40, 30, 0.5 } })
  {
    SimulationParameters p = musclParameters(GetParam(), Precision::Double, c.nx, c.ny, c.dx);
    p.manning = 0.02;
    InitialState s = makeScenario(c.scenario, p);
    if (c.scenario == Scenario::LakeAtRest)
    {
      // Islands: any bed, partly above a 1 m water level (SWASHES-like depths: the bound is
      // absolute, and round-off grows with g h^2).
      for (int j = 0; j < p.ny; ++j)
        for (int i = 0; i < p.nx; ++i)
        {
          const std::size_t k = s.index(i, j);
          s.bed[k] = 0.6 + 0.5 * std::sin(0.4 * i) * std::cos(0.3 * j);
          s.h[k] = std::max(0.0, 1.0 - s.bed[k]);
        }
    }
    Simulation sim(p, s);
    sim.step(1000);
    const test::Fields f = test::download(sim);
    EXPECT_LE(maxAbs(f.hu), 1e-13) << scenarioName(c.scenario);
    EXPECT_LE(maxAbs(f.hv), 1e-13) << scenarioName(c.scenario);
    double dry = 0;
    for (std::size_t k = 0; k < f.h.size(); ++k)
    {
      EXPECT_NEAR(f.h[k], s.h[k], 1e-13) << scenarioName(c.scenario) << " cell " << k;
      dry += f.h[k] == 0;
    }
    if (c.scenario != Scenario::ImmersedBump)
    {
      EXPECT_GT(dry, 0) << "the case should have dry cells";
    }
  }
}

TEST_P(SecondOrderScheme, MovingFrontsConserveMassAndStayNonNegative)
{
  SimulationParameters p = musclParameters(GetParam(), Precision::Double);
  p.manning = 0.03;
  const InitialState initial = islandState(p);
  Simulation sim(p, initial);
  const double m0 = sim.diagnostics().mass;
  double minDepth = 0;
  for (int k = 0; k < 10; ++k)
  {
    sim.step(100);
    const test::Fields f = test::download(sim);
    minDepth = std::min(minDepth, *std::min_element(f.h.begin(), f.h.end()));
  }
  const double m1 = sim.diagnostics().mass;
  EXPECT_EQ(sim.steps(), 1000);
  EXPECT_GE(minDepth, 0.0);
  EXPECT_LE(std::fabs(m1 - m0) / m0, 1e-12) << "m0 = " << m0 << ", m1 = " << m1;
  EXPECT_GT(sim.diagnostics().maxSpeed, 0.01) << "the water should be moving";
}

TEST_P(SecondOrderScheme, RadialDryDamBreakIsSymmetric)
{
  SimulationParameters p = musclParameters(GetParam(), Precision::Double, 48, 48);
  InitialState s = makeScenario(Scenario::RadialDamBreak, p);
  for (std::size_t k = 0; k < s.cells(); ++k)
    s.h[k] = s.h[k] > 15 ? s.h[k] : 0.0; // the cylinder of water on dry land
  Simulation sim(p, s);
  sim.advanceTo(0.8);
  const test::Fields f = test::download(sim);
  const int n = p.nx;
  double wetBeyond = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (std::hypot(i - 23.5, j - 23.5) * p.dx > 0.15 * n * p.dx + 1.0)
        wetBeyond += f.h[static_cast<std::size_t>(j) * n + i] > 0;
  const test::Symmetry symmetry = test::symmetryErrors(f, n);
  EXPECT_GT(wetBeyond, 0) << "the water should have flooded dry land";
  EXPECT_LE(symmetry.transpose, 1e-11);
  EXPECT_LE(symmetry.mirror, 1e-11);
}

// A smooth wave (a 10 % hump of water spreading radially in a 10 m square basin, before any
// shock forms or the wave reaches a wall), so that both axes and the cross terms of the
// half step act: the L1 difference between grids n and 2n (the finer averaged onto the coarser)
// falls as n^-order. The minmod limiter clips extrema, so a second-order scheme shows a little
// less than 2; a first-order one about 1.
double smoothHumpOrder(Scheme scheme)
{
  const auto depthAt = [&](int n)
  {
    SimulationParameters p = test::smallParameters(Precision::Double, n, n);
    p.scheme = scheme;
    p.dx = 10.0 / n;
    InitialState s(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
      {
        const double x = (i + 0.5) * p.dx - 5.0, y = (j + 0.5) * p.dx - 5.0;
        s.h[s.index(i, j)] = 1.0 + 0.1 * std::exp(-(x * x + y * y));
      }
    Simulation sim(p, s);
    sim.advanceTo(0.5);
    std::vector<double> h(static_cast<std::size_t>(n) * n);
    sim.download(Field::Depth, h.data());
    return h;
  };
  std::vector<double> differences;
  std::vector<double> coarse = depthAt(32);
  for (int n = 32; n <= 128; n *= 2)
  {
    const std::vector<double> fine = depthAt(2 * n);
    const auto at = [&](int i, int j) { return fine[static_cast<std::size_t>(j) * 2 * n + i]; };
    double l1 = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
      {
        const double average = 0.25 * (at(2 * i, 2 * j) + at(2 * i + 1, 2 * j) +
                                        at(2 * i, 2 * j + 1) + at(2 * i + 1, 2 * j + 1));
        l1 += std::fabs(coarse[static_cast<std::size_t>(j) * n + i] - average) * 100.0 / (n * n);
      }
    differences.push_back(l1);
    coarse = fine;
  }
  return std::log2(differences[1] / differences[2]);
}

TEST_P(SecondOrderScheme, SmoothFlowConvergesAtSecondOrder)
{
  const double order = smoothHumpOrder(GetParam());
  EXPECT_GT(order, 1.7) << "observed order " << order; // 1.86 MUSCL-HLLC, 1.83 MUSCL-Hancock
  std::cout << "observed order " << order << std::endl;
}

TEST(SecondOrder, LaxFriedrichsConvergesAtFirstOrderInSmoothFlow)
{
  const double order = smoothHumpOrder(Scheme::LaxFriedrichs);
  EXPECT_GT(order, 0.6) << "observed order " << order; // 0.90 (not yet asymptotic)
  EXPECT_LT(order, 1.3) << "observed order " << order;
  std::cout << "observed order " << order << std::endl;
}

TEST_P(SecondOrderScheme, WallCornersKeepTheFlowSymmetric)
{
  // A hump of water on the diagonal next to the south-west corner of a closed basin: its waves
  // run into the corner and along both walls. The flow stays symmetric under x <-> y (with
  // hu <-> hv) and keeps its mass; MUSCL-Hancock's half step reads the corner ghosts, which
  // must mirror both ways for that (they mirrored one way before).
  SimulationParameters p = musclParameters(GetParam(), Precision::Double, 40, 40);
  InitialState s(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const double x = (i + 0.5) * p.dx - 3.0, y = (j + 0.5) * p.dx - 3.0;
      s.h[s.index(i, j)] = 1.0 + 0.5 * std::exp(-(x * x + y * y) / 2.0);
    }
  Simulation sim(p, s);
  const double m0 = sim.diagnostics().mass;
  sim.advanceTo(3.0);
  const test::Fields f = test::download(sim);
  EXPECT_LE(test::symmetryErrors(f, p.nx).transpose, 1e-12);
  EXPECT_LE(std::fabs(sim.diagnostics().mass - m0) / m0, 1e-13);
  // The corner cell has been reached and stirred.
  EXPECT_GT(std::fabs(f.hu[0]) + std::fabs(f.h[0] - 1.0), 1e-3);
}

TEST(SecondOrder, DryCellsNeedTheWetDryScheme)
{
  SimulationParameters p = test::smallParameters(Precision::Double, 40, 4);
  p.dx = 0.25;
  try
  {
    Simulation sim(p, makeScenario(Scenario::RitterDryDamBreak, p));
    FAIL() << "Lax-Friedrichs must refuse dry cells";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("use the muscl-hllc scheme"), std::string::npos)
      << e.what();
  }
  try
  {
    Simulation sim(p, makeScenario(Scenario::ImmersedBump, p));
    FAIL() << "Lax-Friedrichs must refuse a bed it would ignore";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("the bed is not flat"), std::string::npos) << e.what();
  }
  p.scheme = Scheme::MusclHllc;
  EXPECT_NO_THROW(Simulation(p, makeScenario(Scenario::RitterDryDamBreak, p)));
  InitialState negative = makeScenario(Scenario::RitterDryDamBreak, p);
  negative.h[3] = -0.001;
  EXPECT_THROW(Simulation(p, negative), Error);
}

TEST(AnalyticSolutions, StokerMiddleStateSatisfiesRankineHugoniot)
{
  const double g = 9.81, hl = 0.005, hr = 0.001;
  const double cm = stokerMiddleCelerity(hl, hr, g), hm = cm * cm / g;
  // Rarefaction and shock give the same middle velocity.
  const double uRarefaction = 2 * (std::sqrt(g * hl) - cm);
  const double uShock = (hm - hr) * std::sqrt(0.5 * g * (hm + hr) / (hm * hr));
  EXPECT_NEAR(uRarefaction, uShock, 1e-12);
  EXPECT_NEAR(hm, 0.0025394, 1e-6);
  // Mass: the exact solutions conserve the water of the initial state.
  for (bool ritter : { true, false })
  {
    double mass = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i)
    {
      const double x = (i + 0.5) * 10.0 / n;
      mass +=
        (ritter ? ritterDepth(x, 6.0, 5.0, hl, g) : stokerDepth(x, 6.0, 5.0, hl, hr, g)) * 10.0 / n;
    }
    EXPECT_NEAR(mass, ritter ? 0.025 : 0.025 + 0.005, 1e-7) << (ritter ? "ritter" : "stoker");
  }
}

// SWASHES (L = 10 m, dam at 5 m, h_l = 5 mm, t = 6 s) at CI-sized resolutions: errors fall with
// resolution and the second-order scheme beats Lax-Friedrichs by at least 2x. The full tables
// (100..800 cells) come from scripts/validate, in docs/VALIDATION.md.
namespace
{
double damBreakL1(Scenario scenario, Scheme scheme, int nx)
{
  SimulationParameters p = test::smallParameters(Precision::Double, nx, 4);
  p.dx = 10.0 / nx;
  p.scheme = scheme;
  Simulation sim(p, makeScenario(scenario, p));
  sim.advanceTo(6.0);
  std::vector<double> h(static_cast<std::size_t>(nx) * 4);
  sim.download(Field::Depth, h.data());
  double l1 = 0;
  for (int i = 0; i < nx; ++i)
  {
    const double x = (i + 0.5) * p.dx;
    const double exact = scenario == Scenario::RitterDryDamBreak
                           ? ritterDepth(x, 6.0, 5.0, 0.005, p.gravity)
                           : stokerDepth(x, 6.0, 5.0, 0.005, 0.001, p.gravity);
    l1 += std::fabs(h[i] - exact) * p.dx;
  }
  return l1;
}
} // namespace

TEST(Validation, StokerErrorsFallAndSecondOrderWins)
{
  const double lf100 = damBreakL1(Scenario::StokerWetDamBreak, Scheme::LaxFriedrichs, 100);
  const double lf200 = damBreakL1(Scenario::StokerWetDamBreak, Scheme::LaxFriedrichs, 200);
  EXPECT_LT(lf200, 0.8 * lf100);
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    const double mu100 = damBreakL1(Scenario::StokerWetDamBreak, scheme, 100);
    const double mu200 = damBreakL1(Scenario::StokerWetDamBreak, scheme, 200);
    EXPECT_LT(mu200, 0.6 * mu100) << schemeName(scheme);
    EXPECT_LE(mu200, 0.5 * lf200) << schemeName(scheme);
    // measured 1.32e-4 (MUSCL-HLLC, fp64, PoCL and H200 alike), 1.22e-4 (MUSCL-Hancock)
    EXPECT_LT(mu200, 2e-4) << schemeName(scheme);
  }
}

TEST(Validation, RitterErrorsFall)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    const double e100 = damBreakL1(Scenario::RitterDryDamBreak, scheme, 100);
    const double e200 = damBreakL1(Scenario::RitterDryDamBreak, scheme, 200);
    EXPECT_LT(e200, 0.6 * e100) << schemeName(scheme);
    EXPECT_LT(e200, 2e-4) << schemeName(
      scheme); // measured 1.31e-4 (MUSCL-HLLC), 1.29e-4 (MUSCL-Hancock)
  }
}

TEST(SecondOrder, PerCellManningMatchesTwinAndActsWhereItIs)
{
  for (Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = test::smallParameters(Precision::Double, 40, 6);
    p.scheme = scheme;
    p.manning = 0.5; // must be ignored: the field rules
    InitialState s = makeScenario(Scenario::LakeAtRest, p);
    s.manning.assign(s.cells(), 0.0);
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i)
      {
        s.h[s.index(i, j)] = 1.0;
        s.hu[s.index(i, j)] = 2.0;                      // 2 m/s eastwards in 1 m of water
        s.manning[s.index(i, j)] = i >= 20 ? 0.3 : 0.0; // rough eastern half
      }
    Simulation device(p, s);
    ReferenceSolver<double> twin(p, s);
    twin.takeStepsInPairs(device.launchShape().steps == 2); // as the launch the device resolved
    device.step(20);
    twin.takeSteps(20);
    const test::Fields f = test::download(device);
    double worst = 0;
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i)
        worst = std::max(worst, std::fabs(f.hu[j * p.nx + i] - twin.hu(i, j)) / 2.0);
    EXPECT_LE(worst, 1e-12) << schemeName(scheme);
    // Mid-channel, away from the walls: smooth west keeps its flow, rough east loses it.
    EXPECT_GT(f.hu[3 * p.nx + 10], 1.5) << schemeName(scheme);
    EXPECT_LT(f.hu[3 * p.nx + 30], 0.7 * f.hu[3 * p.nx + 10]) << schemeName(scheme);
  }
  InitialState bad(4, 4);
  for (double& h : bad.h)
    h = 1.0;
  bad.manning.assign(16, 0.01);
  bad.manning[5] = -0.1;
  EXPECT_THROW(bad.validate(), Error);
}

TEST(SecondOrder, MusclHancockDepthsStayNonNegativeAtAnyCourantNumber)
{
  // Two rough states that MUSCL-Hancock without its outflow cap (kernels/schemes/muscl_hllc.h) took
  // below zero within two steps: by 9.2e-4 m at C = 0.5 (seed 28183) and by 0.18 m at C = 1 (seed
  // 192), measured with the twin before the cap. Those steps are taken again with the cap
  // (kernels/schemes/muscl_steps.h, finish_hancock_pass), so no depth goes negative, mass is kept,
  // and the device agrees with the twin, steps redone included; in the sweep and in the CPU-shaped
  // kernel.
  struct Case
  {
    std::uint64_t seed;
    double cfl;
  };
  for (const Case& c : { Case{ 28183, 0.5 }, Case{ 192, 1.0 } })
    for (const char* launch : { "16x1x4", "rows3" })
    {
      SimulationParameters p =
        musclParameters(Scheme::MusclHancock, Precision::Double, 12, 12, 0.1);
      p.cfl = c.cfl;
      p.launch = launch;
      const InitialState initial = test::roughState(c.seed);
      Simulation sim(p, initial);
      ReferenceSolver<double> twin(p, initial);
      const double m0 = sim.diagnostics().mass;
      double minDepth = 0, difference = 0;
      for (int k = 0; k < 30; ++k)
      {
        sim.step(1);
        twin.step();
        const test::Fields f = test::download(sim);
        for (int j = 0; j < p.ny; ++j)
          for (int i = 0; i < p.nx; ++i)
          {
            const std::size_t n = static_cast<std::size_t>(j) * p.nx + i;
            minDepth = std::min(minDepth, f.h[n]);
            difference = std::max(difference, std::fabs(f.h[n] - twin.h(i, j)));
          }
      }
      const std::string where =
        "seed " + std::to_string(c.seed) + ", C = " + std::to_string(c.cfl) + ", launch " + launch;
      EXPECT_GE(minDepth, 0.0) << where;
      EXPECT_LE(std::fabs(sim.diagnostics().mass - m0) / m0, 1e-12) << where;
      EXPECT_LE(difference, 1e-10) << where;
      EXPECT_GT(twin.redoneSteps(), 0) << where;
      EXPECT_EQ(sim.redoneSteps(), twin.redoneSteps()) << where;
    }
}
