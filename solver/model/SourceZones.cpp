#include "SourceZones.h"

#include "Error.h"

#include <cmath>
#include <string>
#include <utility>

namespace swe
{
namespace
{
std::string cellName(const InitialState& initial, std::size_t k)
{
  return "(" + std::to_string(k % static_cast<std::size_t>(initial.nx)) + ", " +
         std::to_string(k / static_cast<std::size_t>(initial.nx)) + ")";
}

// The zone of each open cell (-1: none), checked against the number of zones.
std::vector<int> cellZones(const std::vector<double>& zoneOfCell,
  const InitialState& initial,
  std::size_t zones)
{
  if (zoneOfCell.size() != initial.cells())
    throw Error("the source zone array has " + std::to_string(zoneOfCell.size()) +
                " values for a grid of " + std::to_string(initial.cells()) + " cells");
  std::vector<int> zone(zoneOfCell.size(), -1);
  for (std::size_t k = 0; k < zoneOfCell.size(); ++k)
  {
    const double value = zoneOfCell[k];
    if (initial.closed(k) || value < 0)
      continue;
    if (!(value == std::floor(value)))
      throw Error("the source zone array holds " + formatValue(value) + " at cell " +
                  cellName(initial, k) +
                  ": a zone is a whole number, 0 for the first discharge series (a negative "
                  "value: no zone)");
    if (value >= static_cast<double>(zones))
      throw Error("cell " + cellName(initial, k) + " is in source zone " + formatValue(value) +
                  ", but the discharge series give " + std::to_string(zones) + " zone" +
                  (zones == 1 ? "" : "s") + " (0 to " + std::to_string(zones - 1) +
                  "): add a discharge column for zone " + formatValue(value) +
                  ", or give its cells a negative zone");
    zone[k] = static_cast<int>(value);
  }
  return zone;
}
} // namespace

void addZoneSources(const std::vector<double>& zoneOfCell,
  const InitialState& initial,
  SimulationParameters& params)
{
  params.validateSources(); // (the zones' series, named as theirs)
  const std::vector<Series> zones = std::move(params.sourceZones);
  params.sourceZones.clear();
  if (zones.empty())
    throw Error("source zones need at least one discharge series (a column a zone)");
  const std::vector<int> zone = cellZones(zoneOfCell, initial, zones.size());
  std::vector<std::size_t> count(zones.size(), 0);
  for (int z : zone)
    if (z >= 0)
      ++count[static_cast<std::size_t>(z)];
  std::vector<Series> share(zones.size());
  for (std::size_t z = 0; z < zones.size(); ++z)
  {
    if (count[z] == 0)
      throw Error("source zone " + std::to_string(z) +
                  " has a discharge series but no cell in the zone array: its water would be "
                  "lost; give some cells the zone " +
                  std::to_string(z) + " or drop its series");
    share[z] = zones[z];
    for (auto& point : share[z])
      point[1] /= static_cast<double>(count[z]);
  }
  for (std::size_t k = 0; k < zone.size(); ++k)
    if (zone[k] >= 0)
      params.sources.push_back({ (static_cast<double>(k % initial.nx) + 0.5) * params.dx,
        (static_cast<double>(k / initial.nx) + 0.5) * params.dx,
        share[static_cast<std::size_t>(zone[k])] });
}
} // namespace swe
