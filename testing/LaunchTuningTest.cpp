// Launch-shape candidates and their tuning: each device kind's candidates fit and start with its
// usual pick, bad shapes are clear errors, tuning keeps to its time limit, and "auto" tunes once
// and then reads the per-user cache.
#include "Error.h"
#include "LaunchTuner.h"
#include "Partition.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace swe;

namespace
{
// A GPU's limits as the launch-shape checks see them (no device is run).
DeviceInfo fakeGpu()
{
  DeviceInfo gpu;
  gpu.name = "gpu";
  gpu.type = "GPU";
  gpu.maxWorkGroupSize = 1024;
  gpu.localMemory = 48 * 1024;
  return gpu;
}

std::string readFile(const std::string& path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string errorOf(const SimulationParameters& p)
{
  try
  {
    Simulation simulation(p, makeScenario(Scenario::DamBreak, p));
  }
  catch (const Error& e)
  {
    return e.what();
  }
  return "no error";
}

// Points the cache at a fresh file for one test, and back afterwards.
class ScopedCache
{
public:
  explicit ScopedCache(const std::string& name)
    : path_(std::string(::testing::TempDir()) + name)
  {
    const char* old = std::getenv("SWE_LAUNCH_CACHE");
    had_ = old != nullptr;
    if (had_)
      old_ = old;
    std::remove(path_.c_str());
    ::setenv("SWE_LAUNCH_CACHE", path_.c_str(), 1);
  }
  ~ScopedCache()
  {
    std::remove(path_.c_str());
    if (had_)
      ::setenv("SWE_LAUNCH_CACHE", old_.c_str(), 1);
    else
      ::unsetenv("SWE_LAUNCH_CACHE");
  }
  const std::string& path() const { return path_; }

private:
  std::string path_, old_;
  bool had_ = false;
};
} // namespace

TEST(LaunchShape, SecondOrderTakesOneRowOfItemsThatFitsTheDevice)
{
  DeviceInfo device;
  device.name = "small";
  device.maxWorkGroupSize = 256;
  device.localMemory = 16 * 1024;
  SimulationParameters p = test::smallParameters(Precision::Double, 20, 20);
  p.scheme = Scheme::MusclHllc;
  EXPECT_NO_THROW(checkLaunchShape(parseLaunchShape("64x1x16"), p, device));
  EXPECT_NO_THROW(checkLaunchShape(parseLaunchShape("rows4"), p, device)); // the CPU path
  for (const std::string text : { "32x8x1", "4x1x16", "64x1x1" })
    try
    {
      checkLaunchShape(parseLaunchShape(text), p, device);
      ADD_FAILURE() << text << " is not a second-order shape";
    }
    catch (const Error& e)
    {
      EXPECT_NE(std::string(e.what()).find("one row of at least 8"), std::string::npos) << e.what();
    }
  // The default and every candidate fit, in both precisions.
  for (Precision precision : { Precision::Double, Precision::Single })
  {
    p.precision = precision;
    for (const LaunchShape& shape : launchCandidates(p, device))
    {
      EXPECT_NO_THROW(checkLaunchShape(shape, p, device)) << shape.text();
      EXPECT_EQ(shape.groupY, 1) << shape.text();
    }
    EXPECT_NO_THROW(checkLaunchShape(defaultLaunchShape(p, device), p, device));
  }
  // On a CPU device the tuner tries the default sweep and the CPU-shaped path.
  device.type = "CPU";
  int wholeRows = 0;
  for (const LaunchShape& shape : launchCandidates(p, device))
  {
    EXPECT_NO_THROW(checkLaunchShape(shape, p, device)) << shape.text();
    wholeRows += shape.wholeRows ? 1 : 0;
  }
  EXPECT_GE(wholeRows, 2);
  EXPECT_TRUE(launchCandidates(p, device).front().wholeRows);
  const std::vector<LaunchShape> candidates = launchCandidates(p, device);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), defaultLaunchShape(p, device)),
    candidates.end());
}

TEST(LaunchShape, EachDeviceKindTriesItsUsualPickFirst)
{
  const DeviceInfo gpu = fakeGpu();
  DeviceInfo cpu = gpu;
  cpu.type = "CPU";
  cpu.maxWorkGroupSize = 4096;
  cpu.localMemory = 4 << 20;
  SimulationParameters p = test::smallParameters(Precision::Single, 1000, 1000);
  EXPECT_EQ(likelyLaunchShape(p, gpu).text(), "32x8x4s2");
  EXPECT_EQ(likelyLaunchShape(p, cpu).text(), "rows16");
  p.precision = Precision::Double;
  EXPECT_EQ(likelyLaunchShape(p, gpu).text(), "32x8x2s2");
  p.fixedDt = 0.01;
  EXPECT_EQ(likelyLaunchShape(p, gpu).text(), "32x4x2s2");
  p.fixedDt = 0;
  for (const Scheme scheme : { Scheme::MusclHllc, Scheme::MusclHancock })
  {
    p.scheme = scheme;
    EXPECT_EQ(likelyLaunchShape(p, cpu).text(), "rows4");
    const std::pair<int, const char*> bySize[] = {
      { 1000, "128x1x16" }, { 2048, "128x1x16" }, { 4096, "128x1x32" }, { 8192, "128x1x64" }
    };
    for (const auto& [side, shape] : bySize)
    {
      p.nx = p.ny = side;
      EXPECT_EQ(likelyLaunchShape(p, gpu).text(), shape) << side;
    }
  }
  // Every candidate fits, once, and the default is one of them.
  for (const DeviceInfo& device : { gpu, cpu })
    for (const Scheme scheme : { Scheme::LaxFriedrichs, Scheme::MusclHllc })
    {
      p.scheme = scheme;
      const std::vector<LaunchShape> shapes = launchCandidates(p, device);
      for (std::size_t k = 0; k < shapes.size(); ++k)
      {
        EXPECT_NO_THROW(checkLaunchShape(shapes[k], p, device)) << shapes[k].text();
        EXPECT_EQ(std::count(shapes.begin(), shapes.end(), shapes[k]), 1) << shapes[k].text();
      }
      EXPECT_EQ(std::count(shapes.begin(), shapes.end(), defaultLaunchShape(p, device)), 1);
    }
}

TEST(LaunchShape, GpuTuningTriesTwoStepsALaunchForLaxFriedrichs)
{
  const DeviceInfo gpu = fakeGpu();
  const auto twoStepShapes = [&](const SimulationParameters& p)
  {
    int count = 0;
    for (const LaunchShape& shape : launchCandidates(p, gpu))
    {
      EXPECT_NO_THROW(checkLaunchShape(shape, p, gpu)) << shape.text();
      count += shape.steps == 2 ? 1 : 0;
    }
    return count;
  };
  SimulationParameters p = test::smallParameters(Precision::Double, 20, 20);
  for (const double dt : { 0.0, 0.01 }) // adaptive and fixed
  {
    p.fixedDt = dt;
    p.precision = Precision::Double;
    EXPECT_GE(twoStepShapes(p), 2); // the fp64 tiles that fit 48 KiB
    p.precision = Precision::Single;
    EXPECT_GE(twoStepShapes(p), 4);
  }
  p.scheme = Scheme::MusclHllc;
  EXPECT_EQ(twoStepShapes(p), 0);
}

TEST(LaunchShape, GpuTuningRunsOnTheRunsSizeClass)
{
  DeviceInfo gpu;
  gpu.name = "gpu";
  gpu.type = "GPU";
  gpu.globalMemory = std::uint64_t(80) << 30;
  SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  struct Case
  {
    int nx, ny, side;
  };
  // The side rounded to a power of two (in log scale), 1024 to 8192.
  for (const Case c : { Case{ 64, 64, 1024 },
         Case{ 1000, 1000, 1024 },
         Case{ 1448, 1448, 1024 },
         Case{ 1449, 1449, 2048 },
         Case{ 2048, 2048, 2048 },
         Case{ 3000, 3000, 4096 },
         Case{ 8192, 2048, 4096 },
         Case{ 5792, 5792, 4096 },
         Case{ 5793, 5793, 8192 },
         Case{ 8192, 8192, 8192 },
         Case{ 30000, 30000, 8192 } })
  {
    p.nx = c.nx;
    p.ny = c.ny;
    EXPECT_EQ(tuningSide(p, gpu), c.side) << c.nx << " x " << c.ny;
  }
  // A device too small for the class tunes on half the largest grid it holds.
  gpu.globalMemory = std::uint64_t(1) << 30; // 1 GiB: half its largest fp32 grid is < 8192
  p.nx = p.ny = 8192;
  EXPECT_EQ(tuningSide(p, gpu),
    static_cast<int>(Simulation::largestSquareGrid(Precision::Single, gpu) / 2));
  // CPU devices: one class.
  DeviceInfo cpu = gpu;
  cpu.type = "CPU";
  cpu.globalMemory = std::uint64_t(16) << 30;
  for (const int n : { 64, 2048, 8192 })
  {
    p.nx = p.ny = n;
    EXPECT_EQ(tuningSide(p, cpu), 512) << n;
  }
}

TEST(LaunchShape, TuningForALargerGridTimesTheFourFastestAgainOnIt)
{
  // On a CPU device every candidate runs on 512^2; a larger side re-times the four fastest.
  const SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  if (device.type != "CPU")
    GTEST_SKIP() << "the full trial grid of a GPU (4096^2) is too slow for a test";
  const std::size_t candidates = launchCandidates(p, device).size();
  ASSERT_GE(candidates, 5u);
  const std::vector<LaunchTiming> timings = timeLaunchShapes(p, device, 768);
  ASSERT_EQ(timings.size(), candidates);
  for (std::size_t k = 0; k < timings.size(); ++k)
  {
    EXPECT_EQ(timings[k].side, k < 4 ? 768 : 512) << k;
    if (k > 0 && k != 4)
    {
      EXPECT_GE(timings[k - 1].cellsPerSecond, timings[k].cellsPerSecond) << k;
    }
  }
  for (const LaunchTiming& timing : timeLaunchShapes(p, device, 512))
    EXPECT_EQ(timing.side, 512);
}

TEST(LaunchShape, BadShapesAreClearErrors)
{
  SimulationParameters p = test::smallParameters(Precision::Single, 20, 20);
  for (const std::string text : { "64x4",
         "64x4x1x2",
         "sixty",
         "48x4x1",
         "64x4x0",
         "64x4x65",
         "64x4x1s3",
         "64x4x1s2x",
         "64x4x1s" })
  {
    p.launch = text;
    EXPECT_THROW(p.validate(), Error) << text;
    EXPECT_NE(errorOf(p).find("'" + text + "'"), std::string::npos) << errorOf(p);
  }
  p.launch = "4096x4096x1";
  EXPECT_NE(errorOf(p).find("larger than"), std::string::npos) << errorOf(p);
  p.launch = "rows4s2";
  EXPECT_THROW(p.validate(), Error);
  p.launch = "64x1x16s2";
  p.scheme = Scheme::MusclHancock;
  EXPECT_NE(errorOf(p).find("Lax-Friedrichs"), std::string::npos) << errorOf(p);
  p.launch = "64x4x2";
  p.scheme = Scheme::MusclHllc;
  EXPECT_NE(errorOf(p).find("one row of at least 8"), std::string::npos) << errorOf(p);
}

TEST(LaunchShape, AutoTunesOnceThenReadsTheCache)
{
  const ScopedCache cache("swe-launch-cache-test.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  const LaunchShape tuned = resolveLaunchShape(p, device);
  const std::string written = readFile(cache.path());
  ASSERT_NE(written.find('\t' + tuned.text() + '\t'), std::string::npos) << written;
  // The line names the trial grid.
  const std::string grid = "|grid " + std::to_string(tuningSide(p, device)) + '\t';
  EXPECT_NE(written.find(grid), std::string::npos) << written;

  // A shape planted in the cache is used as is: no second tuning.
  const std::size_t line = written.find(device.name);
  ASSERT_NE(line, std::string::npos);
  const std::size_t shapeStart = written.find('\t', line) + 1;
  const std::size_t shapeEnd = written.find('\t', shapeStart);
  std::string planted = written;
  planted.replace(shapeStart, shapeEnd - shapeStart, "8x2x3");
  std::ofstream(cache.path()) << planted;
  EXPECT_EQ(resolveLaunchShape(p, device).text(), "8x2x3");
  Simulation simulation(p, makeScenario(Scenario::DamBreak, p));
  EXPECT_EQ(simulation.launchShape().text(), "8x2x3");

  // A damaged entry is tuned again and overwritten.
  planted.replace(shapeStart, 5, "junk!");
  std::ofstream(cache.path()) << planted;
  const LaunchShape retuned = resolveLaunchShape(p, device);
  const std::string rewritten = readFile(cache.path());
  EXPECT_EQ(rewritten.find("junk!"), std::string::npos);
  EXPECT_NE(rewritten.find('\t' + retuned.text() + '\t'), std::string::npos) << rewritten;

  // An explicit shape or "default" never reads or tunes.
  p.launch = "default";
  EXPECT_EQ(resolveLaunchShape(p, device), defaultLaunchShape(p, device));
}

// A run whose arrays the trial's dam break lacks (rain zones and their array, a soil map) and
// whose points lie off the trial's grid is tuned all the same.
TEST(LaunchShape, AutoTunesARunWithArraysAndPointsOfItsOwn)
{
  const ScopedCache cache("swe-launch-cache-arrays.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 300, 40);
  p.scheme = Scheme::MusclHancock;
  p.rainPerCell = true;
  p.rainZones = { { { 0, 10 }, { 100, 10 } } };
  p.infiltration = { 0, 110, 0.3, true };
  p.gauges = { { 140.0, 10.0 } };
  p.sources = { { 145.0, 12.0, { { 0, 0.1 }, { 100, 0.1 } } } };
  const DeviceInfo device = Simulation::check(p, true);
  EXPECT_NO_THROW(resolveLaunchShape(p, device));
}

// A rank's block of a run split among ranks, each rank tuning its own size (so under mpirun
// when the cache has no line): the trial is a whole grid, whose sides hold the trial's walls, not
// the empty ghosts of sides a neighbour would fill. Lax-Friedrichs blew up against those, in
// every shape.
TEST(LaunchShape, AutoTunesARankOfASplitRun)
{
  const ScopedCache cache("swe-launch-cache-block.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 300, 200);
  p.scheme = Scheme::LaxFriedrichs;
  for (int interval : { 1, 4 })
  {
    p.exchangeInterval = interval;
    for (int rank = 0; rank < 2; ++rank)
    {
      const SimulationParameters block = blockParameters(p, splitGrid(p.nx, p.ny, 2, rank));
      const DeviceInfo device = Simulation::check(block, true);
      EXPECT_NO_THROW(timeLaunchShapes(block, device, 64)) << "interval " << interval;
    }
  }
}

TEST(LaunchShape, TuningThatNothingSurvivesIsAClearError)
{
  const ScopedCache cache("swe-launch-cache-broken.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 32, 32);
  p.buildOptions = "-DGHOST=not_a_number"; // every candidate's kernels fail to build
  const std::string message = errorOf(p);
  EXPECT_NE(message.find("no launch shape runs on"), std::string::npos) << message;
  EXPECT_NE(message.find("Build log"), std::string::npos) << message;
}

namespace
{
// A clock that says each candidate took the next of the given durations (the last one again
// after them): read once at the start and once after each candidate.
std::function<double()> fakeClock(std::vector<double> durations)
{
  auto state = std::make_shared<std::pair<std::size_t, double>>(0, 0.0);
  return [state, durations]
  {
    const std::size_t reads = state->first++;
    if (reads > 0)
      state->second += durations[std::min(reads - 1, durations.size() - 1)];
    return state->second;
  };
}
} // namespace

TEST(LaunchShape, TuningStopsAfterTheCandidateWhereTheTimeRanOut)
{
  // Lax-Friedrichs on the CPU device (PoCL) has six candidates, on a GPU more; a 32^2 trial keeps
  // them quick.
  const SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  const std::vector<LaunchShape> candidates = launchCandidates(p, device);
  ASSERT_GE(candidates.size(), 4u);
  const int all = static_cast<int>(candidates.size());
  struct Case
  {
    double seconds;
    std::vector<double> durations;
    int tried;
  };
  for (const Case& c : {
         Case{ 0.0, { 1.0 }, 1 },               // no time: the first candidate only
         Case{ 2.5, { 1.0 }, 2 },               // a third would end at 3 s
         Case{ 3.0, { 1.0 }, 3 },               // a fourth would end at 4 s
         Case{ 3.0, { 0.1, 5.0 }, 2 },          // the time ran out during the second
         Case{ 3.0, { 0.1, 0.1, 0.1, 0.5 }, 8 } // (or as many as there are: 6 on PoCL)
       })
  {
    TuningLimits limits;
    limits.seconds = c.seconds;
    limits.clock = fakeClock(c.durations);
    const LaunchTuning tuning = tuneLaunchShapes(p, device, limits, 32);
    const int tried = std::min(c.tried, all);
    EXPECT_EQ(tuning.tried, tried) << c.seconds;
    EXPECT_EQ(tuning.planned, all);
    EXPECT_EQ(tuning.complete(), tried == all);
    ASSERT_EQ(tuning.timings.size(), static_cast<std::size_t>(tried));
    // The first ones in order, fastest first.
    for (int k = 0; k < tried; ++k)
      EXPECT_NE(std::find_if(tuning.timings.begin(),
                  tuning.timings.end(),
                  [&](const LaunchTiming& t) { return t.shape == candidates[k]; }),
        tuning.timings.end())
        << candidates[k].text();
    for (std::size_t k = 1; k < tuning.timings.size(); ++k)
      EXPECT_GE(tuning.timings[k - 1].cellsPerSecond, tuning.timings[k].cellsPerSecond);
  }
  EXPECT_EQ(candidates.front(), likelyLaunchShape(p, device));
}

TEST(LaunchShape, TuningTellsItsProgressInIncreasingFractions)
{
  const SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  const std::vector<LaunchShape> candidates = launchCandidates(p, device);
  for (const double seconds : { std::numeric_limits<double>::infinity(), 2.5 })
  {
    std::vector<std::pair<double, std::string>> calls;
    TuningLimits limits;
    limits.seconds = seconds;
    limits.clock = fakeClock({ 1.0 });
    limits.progress = [&](double fraction, const std::string& text)
    { calls.emplace_back(fraction, text); };
    const LaunchTuning tuning = tuneLaunchShapes(p, device, limits, 32);
    // One call before each candidate, and one at the end.
    ASSERT_EQ(calls.size(), static_cast<std::size_t>(tuning.tried) + 1) << seconds;
    EXPECT_EQ(calls.front().first, 0.0);
    for (std::size_t k = 1; k < calls.size(); ++k)
      EXPECT_GT(calls[k].first, calls[k - 1].first) << k << " " << calls[k].second;
    EXPECT_EQ(calls.back().first, 1.0);
    for (int k = 0; k < tuning.tried; ++k)
      EXPECT_EQ(calls[k].second.rfind("Tuning the kernel launch: " + candidates[k].text() + ", " +
                                        std::to_string(k + 1) + " of " +
                                        std::to_string(candidates.size()) + " shapes",
                  0),
        0u)
        << calls[k].second;
    EXPECT_EQ(calls.back().second.rfind(
                "Tuned the kernel launch: " + tuning.timings.front().shape.text(), 0),
      0u)
      << calls.back().second;
  }
}

TEST(LaunchShape, AutoTuningTellsItsProgressAndAPartialSearchIsCached)
{
  const ScopedCache cache("swe-launch-cache-progress.txt");
  SimulationParameters p = test::smallParameters(Precision::Single, 64, 64);
  const DeviceInfo device = Simulation::check(p);
  // The automatic path, as the plugin's filter calls it: within its time limit, told.
  ASSERT_TRUE(launchTuningNeeded(p, device));
  std::vector<double> fractions;
  const LaunchShape tuned = resolveLaunchShape(
    p, device, [&](double fraction, const std::string&) { fractions.push_back(fraction); });
  ASSERT_GE(fractions.size(), 2u);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_EQ(fractions.back(), 1.0);
  EXPECT_FALSE(launchTuningNeeded(p, device));
  EXPECT_EQ(resolveLaunchShape(p, device), tuned);

  // A search cut short is cached with its mark; runs use it at once, and a whole search (what
  // swe tune stores) replaces it.
  LaunchTuning partial;
  partial.timings = { { parseLaunchShape("8x2x3"), 1e9, 512 } };
  partial.tried = 2;
  partial.planned = 6;
  storeLaunchShape(p, device, partial);
  EXPECT_NE(readFile(cache.path()).find("\t8x2x3\t1.000\tpartial 2/6\n"), std::string::npos)
    << readFile(cache.path());
  EXPECT_TRUE(cachedLaunchShapeIsPartial(p, device));
  EXPECT_FALSE(launchTuningNeeded(p, device));
  EXPECT_EQ(resolveLaunchShape(p, device).text(), "8x2x3");
  partial.tried = 6;
  storeLaunchShape(p, device, partial);
  EXPECT_EQ(readFile(cache.path()).find("partial"), readFile(cache.path()).find("partial TRIED"))
    << readFile(cache.path()); // (only the header names it)
  EXPECT_FALSE(cachedLaunchShapeIsPartial(p, device));
}
