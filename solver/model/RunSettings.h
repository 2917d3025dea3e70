#pragma once
// What decides how a run's state goes on from a frame (the scheme, the cell size, the physics,
// the forcing, the sides, the gauges, the maps' arrival depth, the terrain), as text a frame
// keeps (its field data RunSettings), so that a run restarted from the frame can say where it
// differs from the run that wrote it.
#include "InitialState.h"
#include "Parameters.h"

#include <string>
#include <vector>

namespace swe
{
// "name=value" lines, one a setting; series and per-cell arrays as a digest of their values.
std::string runSettingsText(const SimulationParameters& params, const InitialState& initial);

struct SettingDifference
{
  std::string name, frameValue, runValue;
  std::string describe() const; // "Manning 0.05 (this run: 0.03)"
};

// The settings of frameText that runText gives another value (a setting one lacks: none).
std::vector<SettingDifference> settingDifferences(const std::string& frameText,
  const std::string& runText);
} // namespace swe
