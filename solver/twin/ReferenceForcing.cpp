// The C++ twin's forcing and what follows its steps (ReferenceSolver.h): the sides' and the rain's
// series, the point sources, Green-Ampt infiltration and the flood maps, in the arithmetic of
// the kernels' own headers (kernels/device/forcing.h, kernels/state/infiltration.h), once per
// precision.
#include "ReferenceSolver.h"

#include <cmath>
#include <limits>

namespace swe
{
namespace
{
namespace fp32
{
using real = float;
using std::log1p, std::sqrt;
#include "forcing.h"
#include "infiltration.h"
}
#undef SWE_FORCING_H
#undef SWE_INFILTRATION_H
namespace fp64
{
using real = double;
using std::log1p, std::sqrt;
#include "forcing.h"
#include "infiltration.h"
}

// The kernels' functions of each precision, by overloading.
float seriesAt(const std::vector<float>& t, const std::vector<float>& v, float x)
{
  return fp32::series_at(t.data(), v.data(), static_cast<int>(t.size()), x);
}
double seriesAt(const std::vector<double>& t, const std::vector<double>& v, double x)
{
  return fp64::series_at(t.data(), v.data(), static_cast<int>(t.size()), x);
}
float seriesHeld(const std::vector<float>& t, const std::vector<float>& v, float x)
{
  return fp32::series_held(t.data(), v.data(), static_cast<int>(t.size()), x);
}
double seriesHeld(const std::vector<double>& t, const std::vector<double>& v, double x)
{
  return fp64::series_held(t.data(), v.data(), static_cast<int>(t.size()), x);
}
float seriesMean(const std::vector<float>& t, const std::vector<float>& v, float a, float b)
{
  return fp32::series_mean(t.data(), v.data(), static_cast<int>(t.size()), a, b);
}
double seriesMean(const std::vector<double>& t, const std::vector<double>& v, double a, double b)
{
  return fp64::series_mean(t.data(), v.data(), static_cast<int>(t.size()), a, b);
}
void takeSource(float* h, float* hu, float* hv, float added)
{
  fp32::take_source(h, hu, hv, added);
}
void takeSource(double* h, double* hu, double* hv, double added)
{
  fp64::take_source(h, hu, hv, added);
}
void infiltrateCell(float* h, float* hu, float* hv, float* f, float kDt, float p, float hDry)
{
  fp32::infiltrate_cell(h, hu, hv, f, kDt, p, hDry);
}
void infiltrateCell(double* h, double* hu, double* hv, double* f, double kDt, double p, double hDry)
{
  fp64::infiltrate_cell(h, hu, hv, f, kDt, p, hDry);
}
} // namespace

template<class Real>
ReferenceSolver<Real>::RealSeries::RealSeries(const Series& series, double scale)
{
  for (const std::array<double, 2>& point : series)
  {
    time.push_back(static_cast<Real>(point[0]));
    value.push_back(static_cast<Real>(point[1] * scale));
  }
}

template<class Real>
Real ReferenceSolver<Real>::sideValue(int side) const
{
  const RealSeries& series = sideSeries_[static_cast<std::size_t>(side)];
  if (series.time.empty())
    return static_cast<Real>(params_.boundaries[side].value);
  // (a level's series held at its ends, as the kernels' VALUE_WEST ...)
  const Real t = static_cast<Real>(ghostTime_);
  return params_.boundaries[side].type == BoundaryType::FixedLevel
           ? seriesHeld(series.time, series.value, t)
           : seriesAt(series.time, series.value, t);
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
      const std::size_t c = index(i, j), k = static_cast<std::size_t>(j) * params_.nx + i;
      // (a soil map's values as the kernel takes them: dt K, P)
      infiltrateCell(&h_[c],
        &hu_[c],
        &hv_[c],
        &infiltrated_[k],
        soilK_.empty() ? kDt : dt * soilK_[k],
        soilP_.empty() ? p : soilP_[k],
        hDry);
    }
}

template<class Real>
void ReferenceSolver<Real>::addSources(Real dt)
{
  if (!(dt > 0))
    return;
  const Real t = static_cast<Real>(time_),
             inverseArea = static_cast<Real>(1 / (params_.dx * params_.dx));
  for (std::size_t k = 0; k < params_.sources.size(); ++k)
  {
    const PointSource& source = params_.sources[k];
    const RealSeries& q = sourceSeries_[k];
    const std::size_t c = index(gaugeCell(source.x, params_.dx), gaugeCell(source.y, params_.dx));
    const Real before = h_[c];
    takeSource(&h_[c], &hu_[c], &hv_[c], dt * seriesMean(q.time, q.value, t - dt, t) * inverseArea);
    if (!inflow_.empty())
      addInflow(static_cast<std::size_t>(gaugeCell(source.y, params_.dx)) * params_.nx +
                  static_cast<std::size_t>(gaugeCell(source.x, params_.dx)),
        h_[c] - before);
  }
}

template<class Real>
Real ReferenceSolver<Real>::rainOver(Real dt) const
{
  if (rainSeries_.time.empty())
    return static_cast<Real>(rainfallRate(params_));
  if (!(dt > 0))
    return 0;
  const Real t = static_cast<Real>(time_);
  return seriesMean(rainSeries_.time, rainSeries_.value, t, t + dt);
}

template<class Real>
void ReferenceSolver<Real>::zoneRainOver(Real dt)
{
  if (!(dt > 0))
    return;
  const Real t = static_cast<Real>(time_);
  for (std::size_t z = 0; z < zoneSeries_.size(); ++z)
    zoneRain_[z] = seriesMean(zoneSeries_[z].time, zoneSeries_[z].value, t, t + dt);
}

template<class Real>
void ReferenceSolver<Real>::sideDischargeOver(Real dt)
{
  const Real t = static_cast<Real>(time_);
  for (std::size_t side = 0; side < 4; ++side)
  {
    const RealSeries& series = sideSeries_[side];
    if (params_.boundaries[side].type != BoundaryType::Inflow)
      continue;
    if (series.time.empty())
      stepDischarge_[side] = static_cast<Real>(params_.boundaries[side].value);
    else if (dt > 0)
      stepDischarge_[side] = seriesMean(series.time, series.value, t, t + dt);
  }
}

template<class Real>
Real ReferenceSolver<Real>::imposedFace(bool yAxis, int i, int j) const
{
  const int nx = params_.nx, ny = params_.ny;
  const int across = yAxis ? j : i, size = yAxis ? ny : nx;
  if (!isSecondOrder(params_.scheme) || (across != 0 && across != size))
    return std::numeric_limits<Real>::quiet_NaN();
  const Side side =
    yAxis ? (j == 0 ? Side::South : Side::North) : (i == 0 ? Side::West : Side::East);
  const Boundary& bc = params_.boundaries[static_cast<int>(side)];
  if (bc.type != BoundaryType::Inflow)
    return std::numeric_limits<Real>::quiet_NaN();
  // (beyond a stretch, the side's wall carries nothing; as KIND_WEST ...)
  const std::array<int, 2> stretch = stretchCells(bc, params_.dx, yAxis ? nx : ny);
  const int along = yAxis ? i : j;
  if (bc.onStretch() && (along < stretch[0] || along >= stretch[1]))
    return 0;
  const Real discharge = stepDischarge_[static_cast<std::size_t>(side)];
  return across == 0 ? discharge : -discharge;
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
  template ReferenceSolver<Real>::RealSeries::RealSeries(const Series&, double);                   \
  template Real ReferenceSolver<Real>::sideValue(int) const;                                       \
  template void ReferenceSolver<Real>::infiltrate(Real);                                           \
  template void ReferenceSolver<Real>::addSources(Real);                                           \
  template Real ReferenceSolver<Real>::rainOver(Real) const;                                       \
  template void ReferenceSolver<Real>::zoneRainOver(Real);                                         \
  template void ReferenceSolver<Real>::sideDischargeOver(Real);                                    \
  template Real ReferenceSolver<Real>::imposedFace(bool, int, int) const;                          \
  template void ReferenceSolver<Real>::foldFloodMaps(HostFloodMaps<Real>&, Real) const;            \
  template std::vector<Real> ReferenceSolver<Real>::floodMap(Field) const;
SWE_REFERENCE_FORCING(float)
SWE_REFERENCE_FORCING(double)
#undef SWE_REFERENCE_FORCING
} // namespace swe
