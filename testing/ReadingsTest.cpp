// What a frame gives for reading at a glance (solver/products/Relief.h, FloodClasses.h): the bed's
// normals for a lit map, tilted as the bed is, and the flood extent and FD2320's hazard classes.
#include "FloodClasses.h"
#include "Relief.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace swe::test
{
namespace
{
// A plane bed z = a x + b y on nx x ny cells dx wide.
std::vector<double> plane(int nx, int ny, double dx, double a, double b)
{
  std::vector<double> bed(static_cast<std::size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      bed[static_cast<std::size_t>(j) * nx + i] = a * i * dx + b * j * dx;
  return bed;
}
} // namespace

TEST(Relief, PlaneNormalsTiltAgainstTheSlopeEverywhere)
{
  const int nx = 7, ny = 5;
  const double dx = 2.0, a = 0.1, b = -0.05, exaggeration = 3.0;
  const std::vector<double> bed = plane(nx, ny, dx, a, b);
  std::vector<float> normals(3 * nx * ny);
  reliefNormals(bed.data(), nx, ny, dx, exaggeration, normals.data());
  const double length =
    std::sqrt(std::pow(exaggeration * a, 2) + std::pow(exaggeration * b, 2) + 1);
  for (int c = 0; c < nx * ny; ++c) // edges (one-sided) and interior (central) alike
  {
    EXPECT_NEAR(normals[3 * c], -exaggeration * a / length, 1e-6) << "cell " << c;
    EXPECT_NEAR(normals[3 * c + 1], -exaggeration * b / length, 1e-6) << "cell " << c;
    EXPECT_NEAR(normals[3 * c + 2], 1.0 / length, 1e-6) << "cell " << c;
  }
}

TEST(Relief, NanCellsPointUpAndAreNotDifferencedAcross)
{
  const int nx = 5, ny = 3;
  std::vector<float> bed(nx * ny, 0.0f);
  for (int j = 0; j < ny; ++j)
  {
    bed[j * nx + 0] = 10.0f; // a cliff beyond the closed column, which must not show
    bed[j * nx + 1] = std::numeric_limits<float>::quiet_NaN();
  }
  std::vector<float> normals(3 * nx * ny);
  reliefNormals(bed.data(), nx, ny, 1.0, 1.0, normals.data());
  for (int j = 0; j < ny; ++j)
    for (int i = 1; i < nx; ++i)
    {
      const int c = j * nx + i;
      EXPECT_EQ(normals[3 * c], 0.0f) << i << ", " << j;
      EXPECT_EQ(normals[3 * c + 2], 1.0f) << i << ", " << j;
    }
}

// Under water the map shows water, lit as a nearly flat surface with a trace of the bed's shape:
// a wet cell keeps a quarter of its slope, a dry (or NaN-depth) one all of it.
TEST(Relief, WaterKeepsAQuarterOfTheSlopeItCovers)
{
  const double slope = 2.0; // rise over run
  const float length = static_cast<float>(std::sqrt(slope * slope + 1));
  const std::vector<float> bed = { -2.0f / length,
    0.0f,
    1.0f / length,
    -2.0f / length,
    0.0f,
    1.0f / length,
    -2.0f / length,
    0.0f,
    1.0f / length };
  const std::vector<double> depth = { 0.005, 0.5, std::numeric_limits<double>::quiet_NaN() };
  std::vector<float> lit(9);
  swe::reliefUnderWater(bed.data(), depth.data(), 3, 0.01, lit.data());
  for (int c : { 0, 2 })
    for (int k = 0; k < 3; ++k)
      EXPECT_FLOAT_EQ(lit[3 * c + k], bed[3 * c + k]) << "dry cell " << c;
  EXPECT_NEAR(-lit[3] / lit[5], swe::kReliefUnderWater * slope, 1e-6);
  EXPECT_NEAR(lit[3] * lit[3] + lit[4] * lit[4] + lit[5] * lit[5], 1.0, 1e-6);
}

TEST(Relief, TypicalSlopeAndExaggeration)
{
  const std::vector<double> bed = plane(40, 30, 5.0, 0.03, 0.04);
  EXPECT_NEAR(typicalSlope(bed.data(), 40, 30, 5.0), 0.05, 1e-12);
  const std::vector<double> flat(1200, 12.5);
  EXPECT_EQ(typicalSlope(flat.data(), 40, 30, 5.0), 0.0);
  const std::vector<double> closed(1200, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(typicalSlope(closed.data(), 40, 30, 5.0), 0.0);
  // A gentle slope is steepened to show as about 30 degrees; a steep one shown as it is; a
  // nearly flat one at most 100 times.
  EXPECT_NEAR(reliefExaggeration(0.05) * 0.05, std::tan(30.0 * M_PI / 180.0), 1e-12);
  EXPECT_EQ(reliefExaggeration(2.0), 1.0);
  EXPECT_EQ(reliefExaggeration(1e-6), 100.0);
  EXPECT_EQ(reliefExaggeration(0.0), 1.0);
}

TEST(FloodClasses, ExtentAndHazardClassesAtTheirBounds)
{
  const double arrival = 0.01;
  const std::vector<float> depth = {
    0.0f, 0.009f, 0.01f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, std::numeric_limits<float>::quiet_NaN()
  };
  const std::vector<float> hazard = {
    0.0f, 0.2f, 0.01f, 0.74f, 0.75f, 1.24f, 1.25f, 1.99f, 2.0f, 5.0f
  };
  std::vector<std::uint8_t> extent(depth.size()), classes(depth.size());
  floodClasses(depth.data(),
    hazard.data(),
    std::int64_t(depth.size()),
    arrival,
    extent.data(),
    classes.data());
  EXPECT_EQ(extent, (std::vector<std::uint8_t>{ 0, 0, 1, 1, 1, 1, 1, 1, 1, 0 }));
  EXPECT_EQ(classes, (std::vector<std::uint8_t>{ 0, 0, 1, 1, 2, 2, 3, 3, 4, 0 }));
  std::vector<std::uint8_t> onlyExtent(depth.size());
  floodClasses(
    depth.data(), depth.data(), std::int64_t(depth.size()), arrival, onlyExtent.data(), nullptr);
  EXPECT_EQ(onlyExtent, extent);
}
} // namespace swe::test
