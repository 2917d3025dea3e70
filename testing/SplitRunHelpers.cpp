#include "SplitRunHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace swe::test
{
// A hill that stands out of a lake (dry cells at its top), a deeper pool in one corner, and a
// gentle slope: flow across every side and around the hill.
InitialState hillAndPool(const SimulationParameters& p, bool flat)
{
  InitialState s(p.nx, p.ny);
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i)
    {
      const double x = (i + 0.5) / p.nx, y = (j + 0.5) / p.ny;
      const double r2 = (x - 0.6) * (x - 0.6) + (y - 0.55) * (y - 0.55);
      const double bed = flat ? 0.0 : 0.4 * std::exp(-r2 / 0.02) + 0.05 * x;
      const double pool = x < 0.35 && y < 0.4 ? 0.3 : 0.0;
      const std::size_t k = s.index(i, j);
      s.bed[k] = bed;
      s.h[k] = std::max(0.0, 0.25 - bed) + pool + (flat ? 0.05 : 0.0);
    }
  return s;
}

SimulationParameters splitParameters(Scheme scheme, Precision precision, bool fixedDt)
{
  SimulationParameters p = smallParameters(precision, 41, 30);
  p.scheme = scheme;
  p.launch = "default";
  p.manning = 0.02;
  if (fixedDt)
    p.fixedDt = 0.01;
  p.boundaries[static_cast<int>(Side::West)] = { BoundaryType::Inflow, 0.2 };
  p.boundaries[static_cast<int>(Side::East)] = { BoundaryType::Open, 0.0 };
  p.boundaries[static_cast<int>(Side::South)] = { BoundaryType::Wall, 0.0 };
  p.boundaries[static_cast<int>(Side::North)] = { BoundaryType::FixedLevel, 0.3 };
  // Rain everywhere, and losses where the scheme has dry cells.
  p.rainfall = 100;
  if (scheme != Scheme::LaxFriedrichs)
    p.losses = 40;
  // The flood maps too, folded on each rank from its block.
  p.floodMaps = true;
  p.arrivalDepth = 0.05;
  return p;
}

Output runTo(Simulation& s, const std::vector<double>& times, const Kept& kept)
{
  Output out;
  for (double t : times)
  {
    s.advanceTo(t);
    out.fields.push_back(download(s));
    Fields maps;
    for (auto [field, values] : { std::pair{ kept[0], &maps.h },
           std::pair{ kept[1], &maps.hu },
           std::pair{ kept[2], &maps.hv } })
    {
      values->resize(static_cast<std::size_t>(s.parameters().nx) * s.parameters().ny);
      s.download(field, values->data());
    }
    out.maps.push_back(maps);
    out.steps.push_back(s.steps());
  }
  return out;
}

// Cells of the block where rank's fields and the whole grid's are not the same bits.
int differingCells(const Fields& whole, int gridNx, const Fields& part, const Block& b)
{
  int differing = 0;
  const std::vector<double>* wholes[] = { &whole.h, &whole.hu, &whole.hv };
  const std::vector<double>* parts[] = { &part.h, &part.hu, &part.hv };
  for (int f = 0; f < 3; ++f)
    for (int j = 0; j < b.ny; ++j)
      for (int i = 0; i < b.nx; ++i)
      {
        const double w = (*wholes[f])[static_cast<std::size_t>(b.y0 + j) * gridNx + b.x0 + i];
        const double q = (*parts[f])[static_cast<std::size_t>(j) * b.nx + i];
        differing += std::memcmp(&w, &q, sizeof(double)) != 0;
      }
  return differing;
}

std::vector<Output> runSplit(const SimulationParameters& p,
  const InitialState& initial,
  int ranks,
  const std::vector<double>& times,
  const Kept& kept)
{
  return onEveryRank<Output>(
    p, initial, ranks, [&](Simulation& s) { return runTo(s, times, kept); });
}

void expectSameBitsAsOneRank(const SimulationParameters& p,
  const InitialState& initial,
  int ranks,
  const Kept& kept)
{
  const std::vector<double> times = { 0.3, 0.7 };
  Simulation whole(p, initial);
  const Output one = runTo(whole, times, kept);
  const std::vector<Output> split = runSplit(p, initial, ranks, times, kept);
  for (int r = 0; r < ranks; ++r)
  {
    const Block b = splitGrid(p.nx, p.ny, ranks, r).block();
    const Output& mine = split[static_cast<std::size_t>(r)];
    for (std::size_t k = 0; k < times.size(); ++k)
    {
      EXPECT_EQ(mine.steps[k], one.steps[k]) << "rank " << r << " at t = " << times[k];
      EXPECT_EQ(differingCells(one.fields[k], p.nx, mine.fields[k], b), 0)
        << "rank " << r << " of " << ranks << " at t = " << times[k];
      EXPECT_EQ(differingCells(one.maps[k], p.nx, mine.maps[k], b), 0)
        << "flood maps, rank " << r << " of " << ranks << " at t = " << times[k];
    }
  }
}

std::string caseName(const ::testing::TestParamInfo<SplitCase>& info)
{
  std::string name = schemeName(info.param.scheme) + "_" + precisionName(info.param.precision) +
                     (info.param.fixedDt ? "_fixed" : "_adaptive") +
                     (info.param.interval > 1 ? "_" + std::to_string(info.param.interval) : "");
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}
} // namespace swe::test
