// A frame's run settings (RunSettings.h): a run restarted from it learns which of its settings
// differ from those of the run that wrote it, by name and with both values, the terrain and the
// series by their values' digest; the same settings differ in nothing.
#include "InitialState.h"
#include "RunSettings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace swe::test
{
namespace
{
std::vector<std::string> described(const std::vector<SettingDifference>& differences)
{
  std::vector<std::string> text;
  for (const SettingDifference& d : differences)
    text.push_back(d.describe());
  return text;
}

TEST(RunSettings, NameWhatDiffersWithBothValues)
{
  SimulationParameters written;
  written.scheme = Scheme::MusclHancock;
  written.manning = 0.03;
  written.rainSeries = { { 0, 10 }, { 600, 20 } };
  written.boundaries[0] = Boundary(BoundaryType::Inflow, 2.5);
  InitialState terrain(4, 3);
  terrain.bed = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
  const std::string frame = runSettingsText(written, terrain);
  EXPECT_TRUE(settingDifferences(frame, runSettingsText(written, terrain)).empty());

  SimulationParameters hotStart = written;
  hotStart.manning = 0.05;
  hotStart.rainSeries = { { 0, 10 }, { 600, 30 } };
  hotStart.boundaries[0] = Boundary(BoundaryType::Open, 0);
  InitialState breached = terrain;
  breached.bed[5] = 0.5;
  EXPECT_EQ(described(settingDifferences(frame, runSettingsText(hotStart, breached))),
    (std::vector<std::string>{ "Manning 0.03 (this run: 0.05)",
      "rain series 2 points (other values)",
      "west side inflow 2.5 (this run: open)",
      "terrain (another)" }));
}

// A frame written before runs kept their settings differs in nothing.
TEST(RunSettings, AFrameWithoutThemDiffersInNothing)
{
  SimulationParameters p;
  EXPECT_TRUE(settingDifferences("", runSettingsText(p, InitialState(2, 2))).empty());
}
} // namespace
} // namespace swe::test
