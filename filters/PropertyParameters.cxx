#include "PropertyParameters.h"

#include "Error.h"
#include "FrameArraySelection.h"
#include "Simulation.h"
#include "StateBounds.h"
#include "Timeline.h"

#include <cstdint>

namespace swe
{
namespace
{
// Output times past this many would make ParaView's time toolbar useless; it is also a guard
// against an OutputInterval typed in the wrong unit.
constexpr double kMaxOutputTimes = 1e6;

// Each side keeps a discharge and a level; only its type's one means something.
Boundary sideBoundary(const PropertyValues& values, int side)
{
  const std::string& sideName = sideNames()[side];
  const auto& kinds = boundaryTypeNames();
  const int kind = values.boundaryTypes[side];
  if (kind < 0 || kind >= static_cast<int>(kinds.size()))
    throw Error("the " + sideName + " boundary type must be between 0 and " +
                std::to_string(kinds.size() - 1) + ", got " + std::to_string(kind));
  Boundary boundary;
  boundary.type = static_cast<BoundaryType>(kind);
  boundary.from = values.boundaryStretches[static_cast<std::size_t>(side)][0];
  boundary.to = values.boundaryStretches[static_cast<std::size_t>(side)][1];
  const Series& series = values.boundarySeries[static_cast<std::size_t>(side)];
  if (!series.empty())
    boundary.series = series; // (checked by the engine, which names the side and the point)
  else if (boundary.type == BoundaryType::Inflow)
  {
    requireFinite(values.boundaryDischarges[side], "the " + sideName + " boundary discharge");
    boundary.value = values.boundaryDischarges[side];
  }
  else if (boundary.type == BoundaryType::FixedLevel)
  {
    requireFinite(values.boundaryLevels[side], "the " + sideName + " boundary level");
    boundary.value = values.boundaryLevels[side];
  }
  return boundary;
}
} // namespace

void checkOutputTimes(const PropertyValues& values)
{
  // (times the clock reaches: StateBounds.h)
  requireSimulatedTime(values.endTime, "EndTime");
  requireTimeSpan(values.outputInterval, "OutputInterval");
  if (values.endTime / values.outputInterval > kMaxOutputTimes)
    throw Error("EndTime / OutputInterval gives more than a million output times: "
                "raise OutputInterval");
}

SimulationParameters propertyParameters(const PropertyValues& values, const PropertyGrid& grid)
{
  SimulationParameters params;
  params.nx = grid.resolution[0];
  params.ny = grid.resolution[1];
  params.dx = grid.cellSize;
  params.origin = { grid.origin[0], grid.origin[1] };
  for (const ScalarParameter& parameter : scalarParameters())
    parameter.set(params, values.scalars[static_cast<std::size_t>(parameter.id)]);
  params.rainSeries = values.rainfallSeries;
  for (const std::array<double, 2>& at : values.gauges)
    params.gauges.push_back({ at[0] - grid.origin[0], at[1] - grid.origin[1] });
  for (std::size_t k = 0; k < values.sourceRows.size(); ++k)
  {
    const std::array<double, 4>& row = values.sourceRows[k];
    const bool samePoint =
      k > 0 && row[0] == values.sourceRows[k - 1][0] && row[1] == values.sourceRows[k - 1][1];
    if (!samePoint)
      params.sources.push_back({ row[0] - grid.origin[0], row[1] - grid.origin[1], {} });
    params.sources.back().discharge.push_back({ row[2], row[3] });
  }
  params.floodMaps = values.floodMaps;
  params.waterBalance = values.waterBalance;
  params.skipDry = values.skipDry;
  params.device = values.device;
  if (values.precision != 0 && values.precision != 1)
    throw Error(
      "Precision must be 0 (single) or 1 (double), got " + std::to_string(values.precision));
  params.precision = values.precision == 1 ? Precision::Double : Precision::Single;
  const auto& schemes = schemeNames();
  if (values.scheme < 0 || values.scheme >= static_cast<int>(schemes.size()))
    throw Error("Scheme must be between 0 and " + std::to_string(schemes.size() - 1) + ", got " +
                std::to_string(values.scheme));
  params.scheme = static_cast<Scheme>(values.scheme);
  for (int side = 0; side < 4; ++side)
    params.boundaries[side] = sideBoundary(values, side);
  return params;
}

DeviceInfo checkFilterRun(const SimulationParameters& params)
{
  const std::uint64_t real = params.precision == Precision::Double ? 8 : 4;
  return Simulation::check(params,
    false,
    { { "frames", frameArrayBytesPerCell(real, stateFields(params).size() - kStateFields) },
      { "checkpoints", Timeline::hostBytesPerCell(params.precision) } });
}
} // namespace swe
