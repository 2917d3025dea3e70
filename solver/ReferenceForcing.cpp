// The C++ twin's forcing and what follows its steps (ReferenceSolver.h): the sides' and the rain's
// series, the point sources, Green-Ampt infiltration and the flood maps, in the arithmetic of
// the kernels' own headers (kernels/forcing.h, kernels/infiltration.h), once per precision.
#include "ReferenceSolver.h"

#include <cmath>
#include <type_traits>

namespace swe
{
namespace
{
namespace fp32
{
using real = float;
using std::log, std::sqrt;
#include "forcing.h"
#include "infiltration.h"
}
#undef SWE_FORCING_H
#undef SWE_INFILTRATION_H
namespace fp64
{
using real = double;
using std::log, std::sqrt;
#include "forcing.h"
#include "infiltration.h"
}
} // namespace

template<class Real>
Real ReferenceSolver<Real>::sideValue(const Boundary& side) const
{
  if (side.series.empty())
    return static_cast<Real>(side.value);
  std::vector<Real> t, v;
  for (const std::array<double, 2>& point : side.series)
  {
    t.push_back(static_cast<Real>(point[0]));
    v.push_back(static_cast<Real>(point[1]));
  }
  const int n = static_cast<int>(t.size());
  const Real at = static_cast<Real>(ghostTime_);
  if constexpr (std::is_same_v<Real, double>)
    return fp64::series_at(t.data(), v.data(), n, at);
  else
    return fp32::series_at(t.data(), v.data(), n, at);
}

template<class Real>
void ReferenceSolver<Real>::infiltrate(Real dt)
{
  const GreenAmpt& g = params_.infiltration;
  if (!g.on() || !(dt > 0))
    return;
  const Real kDt = dt * static_cast<Real>(g.conductivity / 3.6e6),
             p = static_cast<Real>(g.suction / 1000 * g.deficit),
             hDry = static_cast<Real>(kDryDepth);
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i)
    {
      const std::size_t c = index(i, j);
      Real& f = infiltrated_[static_cast<std::size_t>(j) * params_.nx + i];
      if constexpr (std::is_same_v<Real, double>)
        fp64::infiltrate_cell(&h_[c], &hu_[c], &hv_[c], &f, kDt, p, hDry);
      else
        fp32::infiltrate_cell(&h_[c], &hu_[c], &hv_[c], &f, kDt, p, hDry);
    }
}

template<class Real>
void ReferenceSolver<Real>::addSources(Real dt)
{
  if (!(dt > 0))
    return;
  const Real t = static_cast<Real>(time_),
             inverseArea = static_cast<Real>(1 / (params_.dx * params_.dx));
  for (const PointSource& source : params_.sources)
  {
    std::vector<Real> times, values;
    for (const std::array<double, 2>& point : source.discharge)
    {
      times.push_back(static_cast<Real>(point[0]));
      values.push_back(static_cast<Real>(point[1]));
    }
    const int n = static_cast<int>(times.size());
    const std::size_t c = index(gaugeCell(source.x, params_.dx), gaugeCell(source.y, params_.dx));
    if constexpr (std::is_same_v<Real, double>)
      fp64::take_source(&h_[c],
        &hu_[c],
        &hv_[c],
        dt * fp64::series_mean(times.data(), values.data(), n, t - dt, t) * inverseArea);
    else
      fp32::take_source(&h_[c],
        &hu_[c],
        &hv_[c],
        dt * fp32::series_mean(times.data(), values.data(), n, t - dt, t) * inverseArea);
  }
}

template<class Real>
Real ReferenceSolver<Real>::rainOver(Real dt) const
{
  if (rainTimes_.empty())
    return static_cast<Real>(rainfallRate(params_));
  if (!(dt > 0))
    return 0;
  const Real t = static_cast<Real>(time_);
  const int n = static_cast<int>(rainTimes_.size());
  if constexpr (std::is_same_v<Real, double>)
    return fp64::series_mean(rainTimes_.data(), rainRates_.data(), n, t, t + dt);
  else
    return fp32::series_mean(rainTimes_.data(), rainRates_.data(), n, t, t + dt);
}

template<class Real>
void ReferenceSolver<Real>::foldFloodMaps(HostFloodMaps<Real>& maps, Real dt) const
{
  std::size_t k = 0;
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i, ++k)
    {
      const std::size_t c = index(i, j);
      maps.fold(k, h_[c], hu_[c], hv_[c], static_cast<Real>(time_), dt);
    }
}

template<class Real>
std::vector<Real> ReferenceSolver<Real>::floodMap(Field field) const
{
  return maps_ ? maps_->map(field) : std::vector<Real>{};
}

#define SWE_REFERENCE_FORCING(Real)                                                                \
  template Real ReferenceSolver<Real>::sideValue(const Boundary&) const;                           \
  template void ReferenceSolver<Real>::infiltrate(Real);                                           \
  template void ReferenceSolver<Real>::addSources(Real);                                           \
  template Real ReferenceSolver<Real>::rainOver(Real) const;                                       \
  template void ReferenceSolver<Real>::foldFloodMaps(HostFloodMaps<Real>&, Real) const;            \
  template std::vector<Real> ReferenceSolver<Real>::floodMap(Field) const;
SWE_REFERENCE_FORCING(float)
SWE_REFERENCE_FORCING(double)
#undef SWE_REFERENCE_FORCING
} // namespace swe
