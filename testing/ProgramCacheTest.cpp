// The kernel cache (solver/device/ProgramCache.h): a second run loads the first's program and
// steps to the same bits; a damaged file is rebuilt and replaced; "off" keeps nothing; a folder
// that cannot be written is reported once and the run goes on.
#include "CacheWarnings.h"
#include "Devices.h"
#include "Simulation.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace swe;
namespace fs = std::filesystem;

namespace
{
// SWE_PROGRAM_CACHE set for the test's life, as it was after.
class ProgramCacheFolder
{
public:
  explicit ProgramCacheFolder(const std::string& folder)
  {
    if (const char* before = std::getenv("SWE_PROGRAM_CACHE"))
      saved_ = before;
    hadOne_ = std::getenv("SWE_PROGRAM_CACHE") != nullptr;
    ::setenv("SWE_PROGRAM_CACHE", folder.c_str(), 1);
  }
  ~ProgramCacheFolder()
  {
    if (hadOne_)
      ::setenv("SWE_PROGRAM_CACHE", saved_.c_str(), 1);
    else
      ::unsetenv("SWE_PROGRAM_CACHE");
  }

private:
  std::string saved_;
  bool hadOne_ = false;
};

std::vector<fs::path> keptPrograms(const fs::path& folder)
{
  std::vector<fs::path> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error))
    files.push_back(entry.path());
  return files;
}

struct DamBreakRun
{
  bool fromCache;
  test::Fields fields;
};

// The radial dam break on a small grid, 30 steps of MUSCL-Hancock in fp32.
DamBreakRun runDamBreak()
{
  SimulationParameters p = test::smallParameters(Precision::Single);
  p.scheme = Scheme::MusclHancock;
  p.manning = 0.03;
  Simulation simulation(p, makeScenario(Scenario::RadialDamBreak, p));
  simulation.step(30);
  return { simulation.programFromCache(), test::download(simulation) };
}

fs::path freshFolder(const std::string& name)
{
  const fs::path folder = fs::temp_directory_path() / name;
  fs::remove_all(folder);
  return folder;
}
} // namespace

TEST(ProgramCache, ASecondRunLoadsTheFirstsProgramAndGivesItsBits)
{
  const fs::path folder = freshFolder("swe-program-cache-test");
  const ProgramCacheFolder cache(folder.string());
  const DamBreakRun built = runDamBreak();
  EXPECT_FALSE(built.fromCache);
  const std::vector<fs::path> kept = keptPrograms(folder);
  ASSERT_EQ(kept.size(), 1u);
  const auto size = fs::file_size(kept[0]);
  const DamBreakRun loaded = runDamBreak();
  EXPECT_TRUE(loaded.fromCache);
  EXPECT_EQ(loaded.fields.h, built.fields.h);
  EXPECT_EQ(loaded.fields.hu, built.fields.hu);
  EXPECT_EQ(loaded.fields.hv, built.fields.hv);

  // A damaged file (its header kept, the binary cut to a few bytes) is built from source again
  // and replaced.
  std::string header;
  {
    std::ifstream in(kept[0], std::ios::binary);
    std::getline(in, header);
  }
  {
    std::ofstream out(kept[0], std::ios::binary | std::ios::trunc);
    out << header << "\nnot a program";
  }
  const DamBreakRun rebuilt = runDamBreak();
  EXPECT_FALSE(rebuilt.fromCache);
  EXPECT_EQ(rebuilt.fields.h, built.fields.h);
  EXPECT_EQ(fs::file_size(kept[0]), size);
  EXPECT_TRUE(runDamBreak().fromCache);
  fs::remove_all(folder);
}

// Without SWE_PROGRAM_CACHE a GPU's programs are kept in the cache folder, a CPU device's not:
// PoCL compiles a program loaded from its binary again, which cost more than it saved.
TEST(ProgramCache, WithoutTheVariableOnlyAGpuKeepsItsPrograms)
{
  const fs::path home = freshFolder("swe-program-cache-home");
  const ProgramCacheFolder cache("");
  ::unsetenv("SWE_PROGRAM_CACHE");
  const char* before = std::getenv("XDG_CACHE_HOME");
  const std::string saved = before ? before : "";
  ::setenv("XDG_CACHE_HOME", home.c_str(), 1);
  SimulationParameters p = test::smallParameters(Precision::Single);
  const bool cpu = selectDevice(p.device).type == "CPU";
  runDamBreak();
  if (before)
    ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(keptPrograms(home / "swe" / "programs").size(), cpu ? 0u : 1u);
  fs::remove_all(home);
}

TEST(ProgramCache, OffKeepsNothing)
{
  const fs::path folder = freshFolder("swe-program-cache-off");
  const ProgramCacheFolder cache("off");
  EXPECT_FALSE(runDamBreak().fromCache);
  EXPECT_FALSE(runDamBreak().fromCache);
  EXPECT_FALSE(fs::exists(folder));
}

TEST(ProgramCache, AnUnwritableFolderIsReportedOnceAndTheRunGoesOn)
{
  const std::string folder = "/dev/null/swe-programs"; // under a file: never writable
  const ProgramCacheFolder cache(folder);
  std::vector<std::string> warnings;
  setCacheWarningHandler([&](const std::string& message) { warnings.push_back(message); });
  const DamBreakRun first = runDamBreak();
  const DamBreakRun second = runDamBreak();
  setCacheWarningHandler(nullptr);
  EXPECT_FALSE(second.fromCache);
  EXPECT_EQ(second.fields.h, first.fields.h);
  ASSERT_EQ(warnings.size(), 1u);
  for (const std::string& fragment : { folder, std::string("SWE_PROGRAM_CACHE") })
    EXPECT_NE(warnings[0].find(fragment), std::string::npos) << warnings[0];
}
