// The plugin's per-row arrays (solver/products/FrameRow): the vector path gives the formulas' bits
// for every length and alignment, dry and odd cells included, and the row's mass does not depend on
// where the row lies in memory; the ranges gathered on the way are those of the arrays made.
#include "FrameRow.h"
#include "TestHelpers.h"
#include "Timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace swe;

namespace
{
// Values with the awkward cases: dry (0), negative and NaN depths, subnormal and huge ones.
template<class Real>
std::vector<Real> someValues(std::size_t n, std::mt19937& random, bool depth)
{
  std::uniform_real_distribution<double> uniform(-0.5, 2.0);
  std::vector<Real> v(n);
  for (std::size_t k = 0; k < n; ++k)
    v[k] = static_cast<Real>(uniform(random));
  if (depth)
    for (std::size_t k = 0; k < n; k += 5)
      v[k] = k % 3 == 0   ? Real(0)
             : k % 7 == 0 ? std::numeric_limits<Real>::quiet_NaN()
             : k % 4 == 0 ? std::numeric_limits<Real>::denorm_min()
                          : Real(1e30);
  return v;
}

template<class Real>
bool sameBits(Real a, Real b)
{
  return std::memcmp(&a, &b, sizeof(Real)) == 0;
}

// The row's mass by its definition: eight partial sums over the index modulo 8, added pairwise.
template<class Real>
double massByDefinition(const std::vector<Real>& h)
{
  double sums[8] = {};
  for (std::size_t k = 0; k < h.size(); ++k)
    sums[k % 8] += static_cast<double>(h[k]);
  return ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

// The ranges of the arrays as made, by VTK's definition, cell by cell in index order: NaN skipped
// (FrameRanges::take), and whether each quantity had a NaN or an infinite value.
struct ExpectedRanges
{
  FrameRanges bounds;
  bool nan[FrameRanges::Count] = {}, infinite[FrameRanges::Count] = {};

  void take(FrameRanges::Quantity q, double value)
  {
    bounds.take(q, value);
    nan[q] = nan[q] || std::isnan(value);
    infinite[q] = infinite[q] || std::isinf(value);
  }
};

template<class Real>
ExpectedRanges rangesOf(const Real* depth,
  const Real* surface,
  const Real* momentum,
  const Real* velocity,
  std::size_t n)
{
  ExpectedRanges ranges;
  for (std::size_t k = 0; k < n; ++k)
  {
    const double x = momentum[3 * k], y = momentum[3 * k + 1], u = velocity[3 * k],
                 v = velocity[3 * k + 1];
    ranges.take(FrameRanges::Depth, depth[k]);
    ranges.take(FrameRanges::Surface, surface[k]);
    ranges.take(FrameRanges::MomentumX, x);
    ranges.take(FrameRanges::MomentumY, y);
    ranges.take(FrameRanges::VelocityX, u);
    ranges.take(FrameRanges::VelocityY, v);
    ranges.take(FrameRanges::MomentumNorm, x * x + y * y);
    ranges.take(FrameRanges::VelocityNorm, u * u + v * v);
  }
  return ranges;
}

// Known bounds are VTK's (== : the sign of a zero bound may differ); a quantity of some values
// without NaN is known (with NaN it may be either: a vectorised bound may carry the NaN); finite
// bounds only without infinities, and then always where known.
void expectSameRanges(const FrameRanges& got, const ExpectedRanges& expected, const std::string& at)
{
  for (int i = 0; i < FrameRanges::Count; ++i)
  {
    const auto q = static_cast<FrameRanges::Quantity>(i);
    const std::string where = at + ", quantity " + std::to_string(i);
    if (!expected.nan[q] && expected.bounds.min[q] <= expected.bounds.max[q]) // (n > 0)
    {
      EXPECT_TRUE(got.known(q)) << where;
    }
    if (got.known(q))
    {
      EXPECT_EQ(got.min[q], expected.bounds.min[q]) << where;
      EXPECT_EQ(got.max[q], expected.bounds.max[q]) << where;
      EXPECT_EQ(got.finite(q), !expected.infinite[q]) << where;
    }
    else
      EXPECT_FALSE(got.finite(q)) << where;
  }
}

template<class Real>
void expectFormulas(std::size_t n, std::size_t shift, std::size_t momentumShift)
{
  std::mt19937 random(static_cast<unsigned>(n * 31 + shift));
  const std::vector<Real> h = someValues<Real>(n, random, true),
                          hu = someValues<Real>(n, random, false),
                          hv = someValues<Real>(n, random, false),
                          bed = someValues<Real>(n, random, false);
  // Outputs at shift values past a 16-byte boundary (std::vector of these types is aligned to at
  // least 16 bytes by glibc's allocator), momentum possibly shifted once more.
  std::vector<Real> depth(n + 8), surface(n + 8), momentum(3 * n + 8), velocity(3 * n + 8);
  FrameRanges ranges;
  const double mass = fillFrameRow(h.data(),
    hu.data(),
    hv.data(),
    bed.data(),
    n,
    depth.data() + shift,
    surface.data() + shift,
    momentum.data() + shift + momentumShift,
    velocity.data() + shift,
    &ranges);
  streamingFence();
  const std::string at = std::string(sizeof(Real) == 4 ? "fp32" : "fp64") +
                         ", n = " + std::to_string(n) + ", shift " + std::to_string(shift) + "+" +
                         std::to_string(momentumShift);
  for (std::size_t k = 0; k < n; ++k)
  {
    const Real inverse = h[k] > 0 ? Real(1) / h[k] : Real(0);
    const Real* m = momentum.data() + shift + momentumShift + 3 * k;
    const Real* v = velocity.data() + shift + 3 * k;
    ASSERT_TRUE(sameBits(depth[shift + k], h[k])) << at << ", cell " << k;
    ASSERT_TRUE(sameBits(surface[shift + k], Real(h[k] + bed[k]))) << at << ", cell " << k;
    ASSERT_TRUE(sameBits(m[0], hu[k]) && sameBits(m[1], hv[k]) && sameBits(m[2], Real(0)))
      << at << ", cell " << k;
    ASSERT_TRUE(sameBits(v[0], Real(hu[k] * inverse)) && sameBits(v[1], Real(hv[k] * inverse)) &&
                sameBits(v[2], Real(0)))
      << at << ", cell " << k << ": h = " << h[k];
  }
  const double expected = massByDefinition(h);
  EXPECT_TRUE(sameBits(mass, expected) || (std::isnan(mass) && std::isnan(expected))) << at;
  expectSameRanges(ranges,
    rangesOf(depth.data() + shift,
      surface.data() + shift,
      momentum.data() + shift + momentumShift,
      velocity.data() + shift,
      n),
    at);
}
} // namespace

TEST(FrameRow, ArraysHoldTheFormulasBitForBitAtAnyAlignment)
{
  for (std::size_t n : { 0, 1, 3, 4, 5, 7, 8, 9, 17, 100, 1001 })
    for (std::size_t shift : { 0, 1, 2, 3 })
      for (std::size_t momentumShift : { 0, 1 }) // 1: no cell aligns every output (ordinary stores)
      {
        expectFormulas<float>(n, shift, momentumShift);
        expectFormulas<double>(n, shift, momentumShift);
      }
}

TEST(FrameRow, MassIsTheSameWhereverTheRowLies)
{
  // A wet row without odd values: the mass is finite, close to the exact sum, and its bits do
  // not depend on the outputs' alignment.
  const std::size_t n = 4099;
  std::vector<float> h(n), zero(n, 0.0f);
  for (std::size_t k = 0; k < n; ++k)
    h[k] = 0.1f + 0.001f * static_cast<float>(k % 97);
  long double exact = 0;
  for (float value : h)
    exact += value;
  std::vector<float> out(3 * n + 8);
  double first = 0;
  for (std::size_t shift : { 0, 1, 2, 3 })
  {
    FrameRanges ranges;
    const double mass = fillFrameRow(h.data(),
      zero.data(),
      zero.data(),
      zero.data(),
      n,
      out.data() + shift,
      out.data() + shift,
      out.data() + shift,
      out.data() + shift,
      &ranges);
    streamingFence();
    if (shift == 0)
      first = mass;
    EXPECT_TRUE(sameBits(mass, first)) << "shift " << shift;
    EXPECT_NEAR(mass, static_cast<double>(exact), 1e-12 * static_cast<double>(exact));
  }
}

namespace
{
// Every subset of the outputs left out (null): the others hold the full call's bits, the mass
// and the ranges are the full call's.
template<class Real>
void expectOutputsLeftOut(std::size_t n)
{
  std::mt19937 random(static_cast<unsigned>(n));
  const std::vector<Real> h = someValues<Real>(n, random, true),
                          hu = someValues<Real>(n, random, false),
                          hv = someValues<Real>(n, random, false),
                          bed = someValues<Real>(n, random, false);
  using Outputs = std::array<std::vector<Real>, 4>; // depth, surface, momentum, velocity
  const auto fill = [&](int kept, Outputs& out, FrameRanges& ranges)
  {
    const std::size_t sizes[4] = { n, n, 3 * n, 3 * n };
    Real* p[4];
    for (int a = 0; a < 4; ++a)
    {
      out[a].assign(sizes[a], Real(-7)); // what a left-out array keeps
      p[a] = kept & (1 << a) ? out[a].data() : nullptr;
    }
    const double mass =
      fillFrameRow(h.data(), hu.data(), hv.data(), bed.data(), n, p[0], p[1], p[2], p[3], &ranges);
    streamingFence();
    return mass;
  };
  Outputs all;
  FrameRanges allRanges;
  const double allMass = fill(15, all, allRanges);
  for (int kept = 0; kept < 15; ++kept)
  {
    const std::string at = std::string(sizeof(Real) == 4 ? "fp32" : "fp64") +
                           ", n = " + std::to_string(n) + ", outputs kept " + std::to_string(kept);
    Outputs some;
    FrameRanges ranges;
    const double mass = fill(kept, some, ranges);
    EXPECT_TRUE(sameBits(mass, allMass) || (std::isnan(mass) && std::isnan(allMass))) << at;
    EXPECT_EQ(std::memcmp(ranges.min, allRanges.min, sizeof ranges.min), 0) << at;
    EXPECT_EQ(std::memcmp(ranges.max, allRanges.max, sizeof ranges.max), 0) << at;
    EXPECT_EQ(std::memcmp(ranges.unknown, allRanges.unknown, sizeof ranges.unknown), 0) << at;
    for (int a = 0; a < 4; ++a)
      for (std::size_t k = 0; k < some[a].size(); ++k)
        ASSERT_TRUE(kept & (1 << a) ? sameBits(some[a][k], all[a][k]) : some[a][k] == Real(-7))
          << at << ", array " << a << ", value " << k;
  }
}
} // namespace

TEST(FrameRow, OutputsLeftOutAreNotWrittenAndTheOthersAreTheSame)
{
  for (std::size_t n : { 1, 9, 300, 1001 })
  {
    expectOutputsLeftOut<float>(n);
    expectOutputsLeftOut<double>(n);
  }
}

TEST(FrameRow, RangesAreVTKsOverRowsWithNaNAndInfinities)
{
  // Rows of a wet, moving flood: the ranges gathered over several rows are the arrays' exact
  // ones and finite. One NaN or infinite value, in any row and lane, keeps every bound known
  // VTK's (NaN skipped) and a bound with an infinity out of the finite ranges.
  const std::size_t n = 37, rows = 3;
  std::vector<float> h(n * rows), hu(n * rows), hv(n * rows), bed(n * rows);
  for (std::size_t k = 0; k < n * rows; ++k)
  {
    h[k] = k % 11 == 0 ? 0.0f : 0.5f + 0.01f * static_cast<float>(k % 13);
    hu[k] = -0.3f + 0.02f * static_cast<float>(k % 17);
    hv[k] = 0.1f * static_cast<float>(k % 5) - 0.2f;
    bed[k] = 0.001f * static_cast<float>(k);
  }
  auto gather = [&](FrameRanges& ranges, std::vector<float>& out)
  {
    out.assign(8 * n * rows, 0.0f);
    float *depth = out.data(), *surface = depth + n * rows, *momentum = surface + n * rows,
          *velocity = momentum + 3 * n * rows;
    for (std::size_t r = 0; r < rows; ++r)
    {
      FrameRanges row;
      const std::size_t k = r * n;
      fillFrameRow(h.data() + k,
        hu.data() + k,
        hv.data() + k,
        bed.data() + k,
        n,
        depth + k,
        surface + k,
        momentum + 3 * k,
        velocity + 3 * k,
        &row);
      ranges.merge(row);
    }
    streamingFence();
    return rangesOf(depth, surface, momentum, velocity, n * rows);
  };
  FrameRanges wet;
  std::vector<float> out;
  const ExpectedRanges expected = gather(wet, out);
  expectSameRanges(wet, expected, "wet rows");
  for (int q = 0; q < FrameRanges::Count; ++q)
    EXPECT_TRUE(wet.finite(static_cast<FrameRanges::Quantity>(q))) << "wet rows, quantity " << q;
  EXPECT_LT(wet.min[FrameRanges::MomentumX], 0.0);
  EXPECT_EQ(wet.min[FrameRanges::Depth], 0.0);

  for (std::size_t at : { std::size_t(0), std::size_t(5), n + 2, 2 * n + 36 })
    for (float odd : { std::numeric_limits<float>::quiet_NaN(),
           std::numeric_limits<float>::infinity(),
           -std::numeric_limits<float>::infinity() })
      for (std::vector<float>* field : { &h, &hu, &hv, &bed })
      {
        const float kept = (*field)[at];
        (*field)[at] = odd;
        FrameRanges ranges;
        const ExpectedRanges odds = gather(ranges, out);
        expectSameRanges(
          ranges, odds, "cell " + std::to_string(at) + ", value " + std::to_string(odd));
        (*field)[at] = kept;
      }
}

namespace
{
// The ranges of the live state's frame as the host's pass over its rows gathers them.
template<class Real>
FrameRanges hostRanges(const Simulation& simulation)
{
  const auto& p = simulation.parameters();
  const std::size_t n = static_cast<std::size_t>(p.nx) * p.ny, nx = static_cast<std::size_t>(p.nx);
  std::vector<Real> bed(n), depth(n), surface(n), momentum(3 * n), velocity(3 * n);
  simulation.download(Field::Bed, bed.data());
  const StateView state = simulation.downloadState();
  const Real* h = reinterpret_cast<const Real*>(state.data);
  FrameRanges host;
  for (std::size_t k = 0; k < n; k += nx)
    fillFrameRow(h + k,
      h + n + k,
      h + 2 * n + k,
      bed.data() + k,
      nx,
      depth.data() + k,
      surface.data() + k,
      momentum.data() + 3 * k,
      velocity.data() + 3 * k,
      &host);
  streamingFence();
  return host;
}

// The device's ranges (Simulation::frameRanges) against the host's: all known, equal.
template<class Real>
FrameRanges expectDeviceRangesAreTheHosts(const Simulation& simulation, const std::string& at)
{
  const std::optional<FrameRanges> device = simulation.frameRanges();
  EXPECT_TRUE(device.has_value()) << at << ": the test device computes frame ranges (fp64)";
  const FrameRanges host = hostRanges<Real>(simulation);
  for (int q = 0; device && q < FrameRanges::Count; ++q)
  {
    const auto quantity = static_cast<FrameRanges::Quantity>(q);
    EXPECT_TRUE(device->known(quantity) && host.known(quantity)) << at << ", quantity " << q;
    EXPECT_EQ(device->min[q], host.min[q]) << at << ", quantity " << q;
    EXPECT_EQ(device->max[q], host.max[q]) << at << ", quantity " << q;
  }
  return host;
}

template<class Real>
void expectDeviceRangesAreTheHosts(Scenario scenario,
  Scheme scheme,
  Precision precision,
  bool moving = true)
{
  SimulationParameters p = test::smallParameters(precision, 61, 43);
  p.scheme = scheme;
  p.dx = 0.5;
  Simulation simulation(p, makeScenario(scenario, p));
  for (int frame = 0; frame < 3; ++frame)
  {
    const std::string at = "frame " + std::to_string(frame) + ", " + precisionName(precision) +
                           ", " + schemeName(scheme);
    const FrameRanges host = expectDeviceRangesAreTheHosts<Real>(simulation, at);
    if (moving && frame > 0)
    {
      EXPECT_GT(host.max[FrameRanges::VelocityNorm], 0) << at << ": the flow moves";
    }
    simulation.step(7);
  }
}

// Momenta just above fp32's smallest normal over deep water: velocities the host makes as
// denormals (it does not flush them), which the device, flushing its own fp32 arithmetic, must
// give the same, in a lake whose other cells are still; no step taken.
template<class Real>
void expectDenormalVelocitiesKept(Precision precision)
{
  SimulationParameters p = test::smallParameters(precision, 40, 9);
  InitialState initial(p.nx, p.ny);
  for (std::size_t k = 0; k < initial.cells(); ++k)
    initial.h[k] = 10.0 + 0.25 * static_cast<double>(k % 3);
  initial.hu[5] = 1.5e-38;
  initial.hv[5] = -2.5e-38;
  initial.hu[77] = -3.0e-38;
  Simulation simulation(p, initial);
  const FrameRanges host =
    expectDeviceRangesAreTheHosts<Real>(simulation, "tiny momenta, " + precisionName(precision));
  EXPECT_LT(host.min[FrameRanges::VelocityX], 0);
  EXPECT_GT(host.min[FrameRanges::VelocityX], -1e-38) << "a denormal velocity in fp32";
}
} // namespace

TEST(FrameRow, DeviceRangesAreTheHostsBitForBit)
{
  // Moving flows, with dry cells (velocity 0 there), and a lake over terrain.
  expectDeviceRangesAreTheHosts<float>(
    Scenario::RadialDamBreak, Scheme::LaxFriedrichs, Precision::Single);
  expectDeviceRangesAreTheHosts<double>(
    Scenario::RadialDamBreak, Scheme::LaxFriedrichs, Precision::Double);
  expectDeviceRangesAreTheHosts<float>(
    Scenario::RitterDryDamBreak, Scheme::MusclHancock, Precision::Single);
  expectDeviceRangesAreTheHosts<double>(
    Scenario::RitterDryDamBreak, Scheme::MusclHllc, Precision::Double);
  expectDeviceRangesAreTheHosts<float>(
    Scenario::EmergedBump, Scheme::MusclHancock, Precision::Single, false);
}

TEST(FrameRow, DeviceRangesKeepDenormalVelocities)
{
  expectDenormalVelocitiesKept<float>(Precision::Single);
  expectDenormalVelocitiesKept<double>(Precision::Double);
}

namespace
{
// Frames made while the next steps run (Timeline::output stepping ahead, the plugin's path on a
// GPU), with the state packed and its bounds taken on the device (forced here on any device):
// the same bytes as a frame downloaded plainly, and bounds equal to the host's.
template<class Real>
void expectPackedFramesCarryTheirRanges(Precision precision)
{
  SimulationParameters p = test::smallParameters(precision, 130, 70);
  const InitialState initial = makeScenario(Scenario::RadialDamBreak, p);
  Timeline::Limits limits;
  limits.maxCheckpointShare = 0; // no checkpoint after t = 0: every output is downloaded
  Timeline plain(p, initial, 0.05, limits);
  p.buildOptions = "-DSWE_DEVICE_RANGES";
  Timeline ahead(p, initial, 0.05, limits);
  for (int k = 1; k <= 3; ++k)
  {
    const double t = plain.outputTime(k);
    ASSERT_TRUE(plain.seek(t));
    ASSERT_TRUE(ahead.seek(t));
    const StateView expected = plain.output();
    const std::vector<unsigned char> bytes(
      expected.data, expected.data + 3 * expected.fieldBytes());
    std::optional<FrameRanges> device;
    ahead.output(1.0,
      [&](const StateView& state, const RowsWait& waitForRows)
      {
        waitForRows(state.ny);
        EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), state.data)) << "output " << k;
        ASSERT_TRUE(state.ranges) << "output " << k << " comes with the device's bounds";
        device = state.ranges();
      });
    ASSERT_TRUE(device.has_value());
    const FrameRanges host = hostRanges<Real>(plain.simulation());
    for (int q = 0; q < FrameRanges::Count; ++q)
    {
      EXPECT_TRUE(device->known(static_cast<FrameRanges::Quantity>(q))) << "quantity " << q;
      EXPECT_EQ(device->min[q], host.min[q]) << "output " << k << ", quantity " << q;
      EXPECT_EQ(device->max[q], host.max[q]) << "output " << k << ", quantity " << q;
    }
  }
}
} // namespace

TEST(FrameRow, PackedFramesCarryTheirRanges)
{
  expectPackedFramesCarryTheirRanges<float>(Precision::Single);
  expectPackedFramesCarryTheirRanges<double>(Precision::Double);
}
