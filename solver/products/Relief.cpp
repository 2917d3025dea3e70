#include "Relief.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace swe
{
namespace
{
// The bed's slope along one axis at cell c, from its neighbours before and after (step cells
// away in memory), each present if inside the grid and not NaN.
template<class Real>
double slopeAlong(const Real* bed,
  std::int64_t c,
  std::int64_t step,
  bool hasBefore,
  bool hasAfter,
  double dx)
{
  const bool before = hasBefore && !std::isnan(bed[c - step]);
  const bool after = hasAfter && !std::isnan(bed[c + step]);
  if (before && after)
    return (double(bed[c + step]) - double(bed[c - step])) / (2 * dx);
  if (after)
    return (double(bed[c + step]) - double(bed[c])) / dx;
  if (before)
    return (double(bed[c]) - double(bed[c - step])) / dx;
  return 0.0;
}

template<class Real>
void bedGradient(const Real* bed, int nx, int ny, double dx, int i, int j, double& gx, double& gy)
{
  const std::int64_t c = std::int64_t(j) * nx + i;
  gx = slopeAlong(bed, c, 1, i > 0, i + 1 < nx, dx);
  gy = slopeAlong(bed, c, nx, j > 0, j + 1 < ny, dx);
}
} // namespace

template<class Real>
double typicalSlope(const Real* bed, int nx, int ny, double dx)
{
  const std::int64_t cells = std::int64_t(nx) * ny;
  const std::int64_t stride = std::max<std::int64_t>(1, cells >> 20);
  std::vector<double> slopes;
  slopes.reserve(static_cast<std::size_t>(cells / stride + 1));
  for (std::int64_t c = 0; c < cells; c += stride)
  {
    if (std::isnan(bed[c]))
      continue;
    double gx, gy;
    bedGradient(bed, nx, ny, dx, int(c % nx), int(c / nx), gx, gy);
    slopes.push_back(std::hypot(gx, gy));
  }
  if (slopes.empty())
    return 0.0;
  const auto at = slopes.begin() + static_cast<std::ptrdiff_t>(0.95 * (slopes.size() - 1));
  std::nth_element(slopes.begin(), at, slopes.end());
  return *at;
}

double reliefExaggeration(double slope)
{
  const double shown = std::tan(30.0 * 3.14159265358979323846 / 180.0);
  return slope > 0 ? std::clamp(shown / slope, 1.0, 100.0) : 1.0;
}

template<class Real>
void reliefNormals(const Real* bed, int nx, int ny, double dx, double exaggeration, float* normals)
{
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
    {
      const std::size_t c = static_cast<std::size_t>(std::int64_t(j) * nx + i);
      double gx = 0, gy = 0;
      if (!std::isnan(bed[c]))
        bedGradient(bed, nx, ny, dx, i, j, gx, gy);
      gx *= exaggeration;
      gy *= exaggeration;
      const double length = std::sqrt(gx * gx + gy * gy + 1.0);
      normals[3 * c] = static_cast<float>(-gx / length);
      normals[3 * c + 1] = static_cast<float>(-gy / length);
      normals[3 * c + 2] = static_cast<float>(1.0 / length);
    }
}

template<class Real>
void reliefUnderWater(const float* bedNormals,
  const Real* depth,
  std::size_t count,
  double wetDepth,
  float* normals)
{
  for (std::size_t c = 0; c < count; ++c)
  {
    const float* n = bedNormals + 3 * c;
    const double keep = depth[c] > wetDepth ? kReliefUnderWater : 1.0;
    const double x = keep * n[0], y = keep * n[1], z = n[2];
    const double length = std::sqrt(x * x + y * y + z * z);
    normals[3 * c] = static_cast<float>(x / length);
    normals[3 * c + 1] = static_cast<float>(y / length);
    normals[3 * c + 2] = static_cast<float>(z / length);
  }
}

template double typicalSlope(const float*, int, int, double);
template double typicalSlope(const double*, int, int, double);
template void reliefNormals(const float*, int, int, double, double, float*);
template void reliefNormals(const double*, int, int, double, double, float*);
template void reliefUnderWater(const float*, const float*, std::size_t, double, float*);
template void reliefUnderWater(const float*, const double*, std::size_t, double, float*);
} // namespace swe
