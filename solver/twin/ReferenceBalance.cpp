// The C++ twin's water balance (ReferenceSolver.h): what each step moves through the grid's sides,
// folded into the boundary cells' cumulative inflow as kernels/state/boundary_inflow.cl folds it,
// with the kernels' own face functions (TwinArithmetic.h) and running totals (compensated.h).
#include "ReferenceSolver.h"

#include "TwinArithmetic.h"

#include <cstddef>

namespace swe
{
namespace
{
namespace fp32
{
using real = float;
#include "compensated.h"
}
#undef SWE_COMPENSATED_H
namespace fp64
{
using real = double;
#define SWE_DOUBLE // (as the kernels are built in double precision)
#include "compensated.h"
#undef SWE_DOUBLE
}

void addToTotal(float* total, float* low, float x)
{
  fp32::add_to_total(total, low, x);
}
void addToTotal(double* total, double* low, double x)
{
  fp64::add_to_total(total, low, x);
}
} // namespace

template<class Real>
void ReferenceSolver<Real>::addInflow(std::size_t k, Real depth)
{
  addToTotal(&inflow_[k], &inflowLow_[k], depth);
}

template<class Real>
void ReferenceSolver<Real>::foldBoundaryInflow(const std::vector<Real>& h,
  const std::vector<Real>& hu,
  const std::vector<Real>& hv,
  Real dt,
  Real weight,
  Real k4)
{
  if (inflow_.empty() || !(dt > 0))
    return;
  using M = Muscl<Real>;
  const Real g = static_cast<Real>(params_.gravity), hDry = static_cast<Real>(kDryDepth);
  const Real kdt = dt * static_cast<Real>(1 / params_.dx);
  const auto along = [&](std::ptrdiff_t c, bool yAxis)
  {
    const std::size_t k = static_cast<std::size_t>(c);
    const Real u = M::velocity(h[k], hu[k], hDry), v = M::velocity(h[k], hv[k], hDry);
    return typename M::State{ h[k], h[k] + b_[k], yAxis ? v : u, yAxis ? u : v };
  };
  const std::ptrdiff_t pitch = static_cast<std::ptrdiff_t>(pitch_);
  const auto faces = [&](std::ptrdiff_t c)
  {
    return M::hancockFaces(along(c - 1, false),
      along(c, false),
      along(c + 1, false),
      along(c - pitch, true),
      along(c, true),
      along(c + pitch, true),
      Real(0.5) * kdt,
      g,
      hDry);
  };
  // The depth the step moves from cell a to cell a + stride, as face_mass (boundary_inflow.cl).
  // (or the mass flux imposed on it: an inflow side's, imposedFace)
  const auto mass = [&](std::ptrdiff_t a, std::ptrdiff_t stride, Real imposed) -> Real
  {
    if (imposed == imposed)
      return kdt * imposed;
    const bool yAxis = stride != 1;
    const std::size_t lo = static_cast<std::size_t>(a), hi = static_cast<std::size_t>(a + stride);
    if (params_.scheme == Scheme::LaxFriedrichs)
    {
      const std::vector<Real>& q = yAxis ? hv : hu;
      return M::laxFriedrichsFaceMass(h[lo], q[lo], h[hi], q[hi], Real(0.5) * kdt);
    }
    if (k4 >= 0)
      return kdt * M::hancockFaceMass(faces(a), faces(a + stride), yAxis, k4, g, hDry);
    typename M::Stencil s{};
    for (int m = 0; m < 4; ++m)
    {
      const typename M::State c = along(a + (m - 1) * stride, yAxis);
      s.h[m] = c.h;
      s.eta[m] = c.eta;
      s.un[m] = c.un;
      s.ut[m] = c.ut;
    }
    return kdt * M::faceMass(&s, g, hDry);
  };
  const int nx = params_.nx, ny = params_.ny;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
    {
      if (i != 0 && i != nx - 1 && j != 0 && j != ny - 1)
        continue;
      const std::ptrdiff_t c = static_cast<std::ptrdiff_t>(index(i, j));
      Real in = 0;
      if (i == 0)
        in += mass(c - 1, 1, imposedFace(false, 0, j));
      if (i == nx - 1)
        in -= mass(c, 1, imposedFace(false, nx, j));
      if (j == 0)
        in += mass(c - pitch, pitch, imposedFace(true, i, 0));
      if (j == ny - 1)
        in -= mass(c, pitch, imposedFace(true, i, ny));
      addInflow(static_cast<std::size_t>(j) * nx + i, weight * in);
    }
}

template void ReferenceSolver<float>::addInflow(std::size_t, float);
template void ReferenceSolver<double>::addInflow(std::size_t, double);
template void ReferenceSolver<float>::foldBoundaryInflow(const std::vector<float>&,
  const std::vector<float>&,
  const std::vector<float>&,
  float,
  float,
  float);
template void ReferenceSolver<double>::foldBoundaryInflow(const std::vector<double>&,
  const std::vector<double>&,
  const std::vector<double>&,
  double,
  double,
  double);
} // namespace swe
