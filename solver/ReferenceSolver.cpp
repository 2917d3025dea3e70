#include "ReferenceSolver.h"

#include <algorithm>
#include <cmath>

namespace swe
{
template<class Real>
ReferenceSolver<Real>::ReferenceSolver(const SimulationParameters& params,
  const InitialState& initial)
  : params_(params)
  , pitch_(static_cast<std::size_t>(params.nx) + 2 * kGhost)
{
  params.validate();
  initial.validate();
  const std::size_t padded = pitch_ * (static_cast<std::size_t>(params.ny) + 2 * kGhost);
  for (auto* v : { &h_, &hu_, &hv_, &hNew_, &huNew_, &hvNew_ })
    v->assign(padded, Real(0));
  for (int j = 0; j < params.ny; ++j)
    for (int i = 0; i < params.nx; ++i)
    {
      const std::size_t k = initial.index(i, j);
      h_[index(i, j)] = static_cast<Real>(initial.h[k]);
      hu_[index(i, j)] = static_cast<Real>(initial.hu[k]);
      hv_[index(i, j)] = static_cast<Real>(initial.hv[k]);
    }
}

template<class Real>
void ReferenceSolver<Real>::fillGhosts()
{
  const int nx = params_.nx, ny = params_.ny;
  for (int j = -kGhost; j < ny + kGhost; ++j)
    for (int i = -kGhost; i < nx + kGhost; ++i)
    {
      const bool flipX = i < 0 || i >= nx, flipY = j < 0 || j >= ny;
      if (!flipX && !flipY)
        continue;
      const int si = i < 0 ? -1 - i : (i >= nx ? 2 * nx - 1 - i : i);
      const int sj = j < 0 ? -1 - j : (j >= ny ? 2 * ny - 1 - j : j);
      const std::size_t d = index(i, j), s = index(si, sj);
      h_[d] = h_[s];
      hu_[d] = flipX ? -hu_[s] : hu_[s];
      hv_[d] = flipY ? -hv_[s] : hv_[s];
    }
}

template<class Real>
Real ReferenceSolver<Real>::maxWaveSpeed() const
{
  const Real g = static_cast<Real>(params_.gravity);
  Real m = 0;
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i)
    {
      const std::size_t c = index(i, j);
      const Real c0 = std::sqrt(g * h_[c]);
      const Real inv = Real(1) / h_[c];
      const Real u = hu_[c] * inv, v = hv_[c] * inv;
      m = std::max(m, std::max(std::fabs(u) + c0, std::fabs(v) + c0));
    }
  return m;
}

template<class Real>
Real ReferenceSolver<Real>::step(double target)
{
  const double remaining = target - time_;
  if (!(remaining > 0))
    return 0;
  Real dt;
  if (params_.fixedDt > 0)
    dt = static_cast<Real>(params_.fixedDt);
  else
  {
    const Real m = maxWaveSpeed();
    dt = static_cast<Real>(params_.cfl * params_.dx) / m;
    if (remaining < 2.0 * dt && remaining > dt)
      dt = static_cast<Real>(0.5 * remaining);
  }
  if (dt >= remaining)
  {
    dt = static_cast<Real>(remaining);
    time_ = target;
  }
  else
    time_ += dt;
  ++steps_;

  fillGhosts();
  const Real g = static_cast<Real>(params_.gravity);
  const Real r = Real(0.5) * dt * (Real(1) / static_cast<Real>(params_.dx));
  const Real n = static_cast<Real>(params_.manning);
  const auto pressure = [g](Real h) { return Real(0.5) * g * h * h; };
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i)
    {
      const std::size_t c = index(i, j), e = c + 1, w = c - 1, no = c + pitch_, s = c - pitch_;
      const Real ie = Real(1) / h_[e], iw = Real(1) / h_[w], in = Real(1) / h_[no],
                 is = Real(1) / h_[s];
      const Real hn =
        Real(0.25) * (h_[e] + h_[w] + h_[no] + h_[s]) - r * (hu_[e] - hu_[w] + hv_[no] - hv_[s]);
      Real hun =
        Real(0.25) * (hu_[e] + hu_[w] + hu_[no] + hu_[s]) -
        r * (hu_[e] * hu_[e] * ie + pressure(h_[e]) - (hu_[w] * hu_[w] * iw + pressure(h_[w])) +
              hu_[no] * hv_[no] * in - hu_[s] * hv_[s] * is);
      Real hvn = Real(0.25) * (hv_[e] + hv_[w] + hv_[no] + hv_[s]) -
                 r * (hu_[e] * hv_[e] * ie - hu_[w] * hv_[w] * iw + hv_[no] * hv_[no] * in +
                       pressure(h_[no]) - (hv_[s] * hv_[s] * is + pressure(h_[s])));
      if (n > 0 && hn > 0)
      {
        const Real velocity = std::sqrt(hun * hun + hvn * hvn) / hn;
        const Real factor = Real(1) / (Real(1) + dt * g * n * n * velocity / (hn * std::cbrt(hn)));
        hun *= factor;
        hvn *= factor;
      }
      hNew_[c] = hn;
      huNew_[c] = hun;
      hvNew_[c] = hvn;
    }
  std::swap(h_, hNew_);
  std::swap(hu_, huNew_);
  std::swap(hv_, hvNew_);
  return dt;
}

template<class Real>
void ReferenceSolver<Real>::advanceTo(double target)
{
  while (step(target) > 0)
  {
  }
}

template<class Real>
double ReferenceSolver<Real>::mass() const
{
  double sum = 0;
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i)
      sum += h_[index(i, j)];
  return sum * params_.dx * params_.dx;
}

template class ReferenceSolver<float>;
template class ReferenceSolver<double>;
} // namespace swe
