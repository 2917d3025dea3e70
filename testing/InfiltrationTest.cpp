// Green-Ampt infiltration (SimulationParameters::infiltration): ponded, the cumulative
// infiltration follows the equation's implicit analytic solution; on terrain under rain the
// device follows the twin; bad parameters are refused naming them.
#include "Error.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace swe::test
{
namespace
{
// F at time t of ponded Green-Ampt infiltration from F = 0: the root of
// K t = F - P ln(1 + F / P), by bisection (the function increases with F).
double greenAmptAnalytic(double k, double p, double t)
{
  double low = 0, high = k * t + std::sqrt(2 * p * k * t) + 1;
  for (int it = 0; it < 200; ++it)
  {
    const double mid = 0.5 * (low + high);
    (mid - p * std::log(1 + mid / p) < k * t ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

TEST(Infiltration, PondedFollowsTheAnalyticSolution)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 12, 9);
    p.scheme = scheme;
    p.dx = 20.0; // (long steps: the update is exact however long they are)
    p.infiltration = { 10.0, 110.0, 0.3 }; // a loam: K 10 mm/h, psi 110 mm, deficit 0.3
    InitialState lake(p.nx, p.ny);
    for (double& h : lake.h)
      h = 1.0;
    Simulation sim(p, lake);
    const double k = 10.0 / 3.6e6, pd = 0.110 * 0.3;
    for (double t : { 600.0, 3600.0 })
    {
      sim.advanceTo(t);
      std::vector<double> f(lake.cells()), h(lake.cells());
      sim.download(Field::Infiltration, f.data());
      sim.download(Field::Depth, h.data());
      const double exact = greenAmptAnalytic(k, pd, t);
      for (std::size_t c = 0; c < f.size(); ++c)
      {
        ASSERT_NEAR(f[c], exact, 1e-12 + 1e-9 * exact) << schemeName(scheme) << " t = " << t;
        ASSERT_NEAR(h[c], 1.0 - f[c], 1e-12);
      }
    }
  }
}

TEST(Infiltration, MatchesTheTwinUnderRainOnTerrain)
{
  for (Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    SimulationParameters p = smallParameters(Precision::Double, 40, 30);
    p.scheme = scheme;
    p.rainfall = 150;
    p.manning = 0.03;
    p.infiltration = { 30.0, 50.0, 0.35 };
    p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
    InitialState s(p.nx, p.ny);
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i)
      {
        const std::size_t c = s.index(i, j);
        s.bed[c] = 0.2 * std::cos(0.15 * i) + 0.02 * j;
        s.h[c] = std::max(0.0, 0.15 - s.bed[c]);
      }
    EXPECT_LE(twinDifferenceAfter<double>(p, s, 150), 1e-10) << schemeName(scheme);
  }
}

TEST(Infiltration, BadParametersAreRefusedNamingThem)
{
  struct Bad
  {
    GreenAmpt g;
    double losses;
    Scheme scheme;
    const char* expected;
  };
  const Bad cases[] = {
    { { 0, 100, 0.3 }, 0, Scheme::MusclHancock, "hydraulic conductivity must be in (0" },
    { { 10, -1, 0.3 }, 0, Scheme::MusclHancock, "suction head must be in [0, 10000] mm" },
    { { 10, 100, 1.5 }, 0, Scheme::MusclHancock, "moisture deficit must be in [0, 1]" },
    { { 10, 100, 0.3 }, 5, Scheme::MusclHancock, "not both" },
    { { 10, 100, 0.3 },
      0,
      Scheme::LaxFriedrichs,
      "Green-Ampt infiltration needs MUSCL-Hancock or MUSCL-HLLC" },
  };
  for (const Bad& c : cases)
  {
    SimulationParameters p = smallParameters(Precision::Single);
    p.scheme = c.scheme;
    p.infiltration = c.g;
    p.losses = c.losses;
    expectRefused(p, c.expected);
  }
}
} // namespace
} // namespace swe::test
