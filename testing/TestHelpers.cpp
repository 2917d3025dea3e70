#include "TestHelpers.h"

#include "Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace swe::test
{
SimulationParameters smallParameters(Precision precision, int nx, int ny)
{
  SimulationParameters p;
  p.nx = nx;
  p.ny = ny;
  p.dx = 0.5;
  p.precision = precision;
  p.device = "auto";
  return p;
}

SimulationParameters rainBasin(Scheme scheme)
{
  SimulationParameters p = smallParameters(Precision::Double, 30, 22);
  p.scheme = scheme;
  p.dx = 1.0;
  return p;
}

void expectRefused(const SimulationParameters& params, const std::string& expected)
{
  try
  {
    params.validate();
    ADD_FAILURE() << "accepted; expected an error '" << expected << "'";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
  }
}

InitialState stillWater(const SimulationParameters& p, double depth)
{
  InitialState s(p.nx, p.ny);
  std::fill(s.h.begin(), s.h.end(), depth);
  return s;
}

InitialState hillInALake(const SimulationParameters& p)
{
  InitialState s(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const double x = (i + 0.5) / p.nx - 0.5, y = (j + 0.5) / p.ny - 0.5;
      const std::size_t k = s.index(i, j);
      s.bed[k] = 0.5 * std::exp(-(x * x + y * y) / 0.04);
      s.h[k] = std::max(0.0, 0.3 - s.bed[k]);
    }
  return s;
}

InitialState roughState(std::uint64_t seed)
{
  std::uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  const auto draw = [&x]
  {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(x >> 11) * (1.0 / 9007199254740992.0); // [0, 1)
  };
  const double wet = draw(), speed = 30 * draw(), relief = 3 * draw();
  InitialState s(12, 12);
  for (int j = 0; j < 12; ++j)
    for (int i = 0; i < 12; ++i)
    {
      const std::size_t k = s.index(i, j);
      s.bed[k] = relief * draw();
      s.h[k] = draw() < wet ? std::pow(draw(), 3) : 0.0;
      s.hu[k] = s.h[k] * speed * (2 * draw() - 1);
      s.hv[k] = s.h[k] * speed * (2 * draw() - 1);
    }
  return s;
}

InitialState roughPatch(const SimulationParameters& p, std::uint64_t seed, int i0, int j0)
{
  const InitialState patch = roughState(seed);
  InitialState initial(p.nx, p.ny);
  for (int j = 0; j < patch.ny; ++j)
    for (int i = 0; i < patch.nx; ++i)
    {
      const std::size_t from = patch.index(i, j), to = initial.index(i0 + i, j0 + j);
      initial.h[to] = patch.h[from];
      initial.hu[to] = patch.hu[from];
      initial.hv[to] = patch.hv[from];
      initial.bed[to] = patch.bed[from];
    }
  return initial;
}

Fields download(const Simulation& simulation)
{
  const auto& p = simulation.parameters();
  const std::size_t n = static_cast<std::size_t>(p.nx) * p.ny;
  Fields f{ std::vector<double>(n), std::vector<double>(n), std::vector<double>(n) };
  simulation.download(Field::Depth, f.h.data());
  simulation.download(Field::MomentumX, f.hu.data());
  simulation.download(Field::MomentumY, f.hv.data());
  return f;
}

double maxRelativeDifference(const Fields& a, const Fields& b, double floor)
{
  double worst = 0;
  const std::vector<double>* as[] = { &a.h, &a.hu, &a.hv };
  const std::vector<double>* bs[] = { &b.h, &b.hu, &b.hv };
  for (int f = 0; f < 3; ++f)
    for (std::size_t k = 0; k < as[f]->size(); ++k)
    {
      const double x = (*as[f])[k], y = (*bs[f])[k];
      if (!std::isfinite(x) || !std::isfinite(y))
        return INFINITY; // a NaN must fail the comparison, not vanish in std::max
      worst = std::max(worst, std::fabs(x - y) / std::max(std::fabs(y), floor));
    }
  return worst;
}
Symmetry symmetryErrors(const Fields& f, int n)
{
  auto k = [n](int i, int j) { return static_cast<std::size_t>(j) * n + i; };
  Symmetry s;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      s.transpose = std::max({ s.transpose,
        std::fabs(f.h[k(i, j)] - f.h[k(j, i)]),
        std::fabs(f.hu[k(i, j)] - f.hv[k(j, i)]) });
      s.mirror = std::max({ s.mirror,
        std::fabs(f.h[k(i, j)] - f.h[k(n - 1 - i, j)]),
        std::fabs(f.hu[k(i, j)] + f.hu[k(n - 1 - i, j)]) });
    }
  return s;
}
} // namespace swe::test
