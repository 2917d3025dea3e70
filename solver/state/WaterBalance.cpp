#include "WaterBalance.h"

#include "Error.h"

#include <algorithm>
#include <cmath>

namespace swe
{
namespace
{
namespace fp64
{
using real = double;
#include "forcing.h"
}

// The sums of a field's values: all, and their positive and negative parts apart.
struct FieldSums
{
  double all = 0, positive = 0, negative = 0;
};

template<class T>
FieldSums sumsOf(const T* values, std::size_t count)
{
  FieldSums s;
  for (std::size_t k = 0; k < count; ++k)
  {
    const double v = values[k];
    (v > 0 ? s.positive : s.negative) += v;
  }
  s.all = s.positive + s.negative;
  return s;
}

FieldSums fieldSums(const StateView& state, int f)
{
  const std::size_t count = static_cast<std::size_t>(state.nx) * state.ny;
  if (state.realSize == sizeof(double))
    return sumsOf(reinterpret_cast<const double*>(state.field(f)), count);
  return sumsOf(reinterpret_cast<const float*>(state.field(f)), count);
}
} // namespace

double rainDepthUntil(const SimulationParameters& params, double t, int zone)
{
  if (!(t > 0))
    return 0;
  const Series& series =
    zone >= 0 ? params.rainZones.at(static_cast<std::size_t>(zone)) : params.rainSeries;
  if (series.empty())
    return rainfallRate(params) * t;
  std::vector<double> time, rate;
  for (const std::array<double, 2>& point : series)
  {
    time.push_back(point[0]);
    rate.push_back(point[1] / 3.6e6); // (mm/h to m/s)
  }
  return fp64::series_mean(time.data(), rate.data(), static_cast<int>(time.size()), 0, t) * t;
}

WaterBalance waterBalanceOf(const StateView& state,
  const SimulationParameters& params,
  double initial,
  const RainedCells& rained)
{
  if (!params.waterBalance)
    throw Error("this run keeps no water balance: switch it on (Water Balance, swe run --balance)");
  const std::vector<Field> fields = stateFields(params);
  const auto index = [&](Field field)
  { return static_cast<int>(std::find(fields.begin(), fields.end(), field) - fields.begin()); };
  const double area = params.dx * params.dx;
  WaterBalance b;
  b.time = state.time;
  b.initial = initial;
  b.stored = fieldSums(state, 0).all * area;
  if (!params.rainZones.empty())
    for (std::size_t z = 0; z < params.rainZones.size() && z < rained.size(); ++z)
      b.rain += rainDepthUntil(params, state.time, static_cast<int>(z)) * area * rained[z];
  else
    b.rain = rainDepthUntil(params, state.time) * area *
             (rained.empty() ? static_cast<double>(state.nx) * state.ny : rained[0]);
  const FieldSums inflow = fieldSums(state, index(Field::Inflow));
  b.inflow = inflow.positive * area;
  b.outflow = -inflow.negative * area;
  if (params.infiltration.on())
    b.infiltration = fieldSums(state, index(Field::Infiltration)).all * area;
  return b;
}

double closingInitialVolume(const StateView& state,
  const SimulationParameters& params,
  const RainedCells& rained)
{
  return waterBalanceOf(state, params, 0, rained).error();
}
} // namespace swe
