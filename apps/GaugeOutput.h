#pragma once
// swe run's gauges: their hydrographs as a CSV file, and a line for each with its peak.
#include "SimulationTypes.h"

#include <array>
#include <string>
#include <vector>

namespace swe::cli
{
// Gauge points "X,Y" (--gauge, in the coordinates of the grid as ParaView shows it: origin
// included) as the engine takes them, metres from the grid's corner. Throws swe::Error naming a
// bad one.
std::vector<std::array<double, 2>> gaugePoints(const std::vector<std::string>& texts,
  const std::array<double, 3>& origin,
  const std::string& option = "--gauge");

// Writes record as CSV: time, step, then depth, surface, u, v of each gauge (gN_depth ...).
void writeGaugeCsv(const GaugeRecord& record, const std::string& path);

// One line a gauge on stderr: its peak depth and when, its highest surface.
void printGaugePeaks(const GaugeRecord& record);
} // namespace swe::cli
