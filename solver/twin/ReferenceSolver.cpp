#include "ReferenceSolver.h"

#include "LocalDatum.h"
#include "TwinArithmetic.h"

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
  if (holdsDt(params))
    throw Error("the C++ twin takes dt at every step: compare a run with an exchange interval "
                "with the same run on one rank instead");
  initial.validate(isSecondOrder(params.scheme));
  requireFitsParameters(initial, params);
  if (params.scheme == Scheme::LaxFriedrichs)
    initial.requireFlatBed();
  // Elevations relative to the local datum, as the device holds them (LocalDatum.h).
  const LocalDatum local = localDatum(params, initial);
  datum_ = local.datum;
  hFilm_ = static_cast<Real>(local.filmDepth);
  speedFloor_ = waveSpeedFloor(params, local);
  for (Boundary& side : params_.boundaries)
    if (side.type == BoundaryType::FixedLevel)
    {
      side.value -= datum_;
      for (std::array<double, 2>& point : side.series)
        point[1] -= datum_;
    }
  const std::size_t padded = pitch_ * (static_cast<std::size_t>(params.ny) + 2 * kGhost);
  for (auto* v : { &h_, &hu_, &hv_, &hNew_, &huNew_, &hvNew_, &b_, &u_, &v_ })
    v->assign(padded, Real(0));
  // (as the device holds them: a closed cell's bed the wall of kClosedBed, its Manning -1)
  const std::vector<double> manning = initial.closedCells() > 0 || !initial.rain.empty()
                                        ? initial.manningField(params.manning)
                                        : initial.manning;
  for (int j = 0; j < params.ny; ++j)
    for (int i = 0; i < params.nx; ++i)
    {
      const std::size_t k = initial.index(i, j);
      h_[index(i, j)] = static_cast<Real>(initial.h[k]);
      hu_[index(i, j)] = static_cast<Real>(initial.hu[k]);
      hv_[index(i, j)] = static_cast<Real>(initial.hv[k]);
      b_[index(i, j)] = static_cast<Real>(initial.closed(k) ? kClosedBed : initial.bed[k] - datum_);
      if (!manning.empty())
      {
        manning_.resize(padded);
        manning_[index(i, j)] = static_cast<Real>(manning[k]);
      }
      if (!initial.rain.empty())
      {
        rain_.resize(padded);
        const bool closedZone = !params.rainZones.empty() && initial.closed(k);
        rain_[index(i, j)] = closedZone ? Real(0) : static_cast<Real>(initial.rain[k]);
      }
    }
  rainSeries_ = RealSeries(params.rainSeries, 1 / 3.6e6);
  for (const Series& zone : params.rainZones)
    zoneSeries_.emplace_back(zone, 1 / 3.6e6);
  zoneRain_.assign(zoneSeries_.size(), 0);
  for (int side = 0; side < 4; ++side)
    sideSeries_[static_cast<std::size_t>(side)] = RealSeries(params_.boundaries[side].series, 1);
  for (const PointSource& source : params.sources)
    sourceSeries_.emplace_back(source.discharge, 1);
  if (params.infiltration.on())
    infiltrated_.assign(static_cast<std::size_t>(params.nx) * params.ny, Real(0));
  if (params.infiltration.perCell)
  {
    const SoilMap soil = soilMap(initial, params.infiltration);
    soilK_.assign(soil.conductivity.begin(), soil.conductivity.end());
    soilP_.assign(soil.suctionDeficit.begin(), soil.suctionDeficit.end());
  }
  if (params.waterBalance)
  {
    inflow_.assign(static_cast<std::size_t>(params.nx) * params.ny, Real(0));
    inflowLow_.assign(inflow_.size(), Real(0));
  }
  if (params.floodMaps)
  {
    maps_.emplace(static_cast<std::size_t>(params.nx) * params.ny, kDryDepth, params.arrivalDepth);
    foldFloodMaps(*maps_, Real(0));
  }
}

template<class Real>
void ReferenceSolver<Real>::fillGhosts()
{
  ghostTime_ = time_;
  fillGhosts(h_, hu_, hv_);
}

template<class Real>
void ReferenceSolver<Real>::fillGhosts(std::vector<Real>& h,
  std::vector<Real>& hu,
  std::vector<Real>& hv)
{
  const int nx = params_.nx, ny = params_.ny;
  // As kernels/state/boundary.cl: mirror and nearest interior cells, the side's rule; the corners
  // last, from the south and north sides' ghosts.
  for (int pass = 0; pass < 2; ++pass)
    for (int j = -kGhost; j < ny + kGhost; ++j)
      for (int i = -kGhost; i < nx + kGhost; ++i)
      {
        const bool outX = i < 0 || i >= nx, outY = j < 0 || j >= ny;
        if ((!outX && !outY) || (outX && outY) != (pass == 1))
          continue;
        const int mi = i < 0 ? -1 - i : (i >= nx ? 2 * nx - 1 - i : i);
        const int mj = outX && outY ? j : j < 0 ? -1 - j : (j >= ny ? 2 * ny - 1 - j : j);
        const int ni = std::clamp(i, 0, nx - 1), nj = outX && outY ? j : std::clamp(j, 0, ny - 1);
        const std::size_t d = index(i, j), m = index(mi, mj), n = index(ni, nj);
        using M = Muscl<Real>;
        const typename M::Ghost mirror{ h[m], hu[m], hv[m], b_[m] };
        const typename M::Ghost nearest{ h[n], hu[n], hv[n], b_[n] };
        const Side side = i < 0     ? Side::West
                          : i >= nx ? Side::East
                          : j < 0   ? Side::South
                                    : Side::North;
        const Boundary& bc = params_.boundaries[static_cast<int>(side)];
        const bool normalX = side == Side::West || side == Side::East;
        const Real inward = side == Side::West || side == Side::South ? Real(1) : Real(-1);
        // (beyond a stretch, corners included, a wall; as the kernels' KIND_WEST ...)
        const std::array<int, 2> stretch = stretchCells(bc, params_.dx, normalX ? ny : nx);
        const int along = normalX ? j : i;
        const bool onIt = !bc.onStretch() || (along >= stretch[0] && along < stretch[1]);
        const auto g = M::ghost(static_cast<int>(onIt ? bc.type : BoundaryType::Wall),
          sideValue(static_cast<int>(side)),
          normalX,
          inward,
          mirror,
          nearest,
          static_cast<Real>(kDryDepth),
          static_cast<Real>(params_.gravity));
        h[d] = g.h;
        hu[d] = g.hu;
        hv[d] = g.hv;
        b_[d] = g.b;
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
      if (!(h_[c] > static_cast<Real>(kDryDepth)))
        continue; // dry: still, as the kernels' wave_speed counts it
      const Real c0 = std::sqrt(g * h_[c]);
      const Real inv = Real(1) / h_[c];
      const Real u = hu_[c] * inv, v = hv_[c] * inv;
      m = std::max(m, std::max(std::fabs(u) + c0, std::fabs(v) + c0));
    }
  return m;
}

template<class Real>
Real ReferenceSolver<Real>::chooseDt(double remaining, Real speed) const
{
  if (params_.fixedDt > 0)
    return static_cast<Real>(params_.fixedDt);
  const Real m = std::max(speed, static_cast<Real>(speedFloor_));
  const double factor = isSecondOrder(params_.scheme) ? 0.5 : 1.0;
  Real dt = static_cast<Real>(params_.cfl * params_.dx * factor) / m;
  if (remaining < 2.0 * dt && remaining > dt)
    dt = static_cast<Real>(0.5 * remaining);
  return dt;
}

template<class Real>
bool ReferenceSolver<Real>::speedsAtMost(Real speed) const
{
  // The operations of speed_at_most (kernels/schemes/device_clock.h): no division, no root.
  const Real g = static_cast<Real>(params_.gravity);
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i)
    {
      const std::size_t c = index(i, j);
      const Real h = h_[c];
      const Real r = speed * h - std::max(std::fabs(hu_[c]), std::fabs(hv_[c]));
      if (!(h <= static_cast<Real>(kDryDepth) || g * h * h * h <= r * std::fabs(r)))
        return false;
    }
  return true;
}

template<class Real>
Real ReferenceSolver<Real>::step(double target)
{
  const double remaining = target - time_;
  if (!(remaining > 0))
    return 0;
  // (the device takes the wave speeds of a step's state as its kernel wrote it, before what
  // follows the step: point sources, infiltration)
  const Real speed = speedBeforeAfterStep_ ? *speedBeforeAfterStep_ : maxWaveSpeed();
  speedBeforeAfterStep_.reset();
  return stepWith(chooseDt(remaining, speed), target);
}

template<class Real>
int ReferenceSolver<Real>::stepPair(double target)
{
  if (!(target - time_ > 0))
    return 0;
  const Real first = maxWaveSpeed(); // (what step() would compute: taken once, kept)
  stepWith(chooseDt(target - time_, first), target);
  const double remaining = target - time_;
  if (!(remaining > 0))
    return 1;
  const Real predicted =
    std::max(first * static_cast<Real>(kPairSpeedMargin), static_cast<Real>(speedFloor_));
  if (params_.fixedDt <= 0 && !speedsAtMost(predicted))
    return 1;
  stepWith(chooseDt(remaining, predicted), target);
  return 2;
}

template<class Real>
Real ReferenceSolver<Real>::stepWith(Real dt, double target)
{
  const double remaining = target - time_;
  const bool landing = dt >= remaining;
  if (landing)
    dt = static_cast<Real>(remaining);
  stepRain_ = rainOver(dt);
  zoneRainOver(dt);
  sideDischargeOver(dt);
  // (the ghosts of the state a step starts from are taken at its time, as fill_ghosts does
  // before compute_dt; MUSCL-HLLC's second stage's after it, at the step's end)
  ghostTime_ = time_;
  if (landing)
    time_ = target;
  else
    time_ += dt;
  ++steps_;
  if (params_.scheme == Scheme::MusclHllc)
    stepMusclHllc(dt);
  else if (params_.scheme == Scheme::MusclHancock)
    stepMusclHancock(dt);
  else
    stepLaxFriedrichs(dt);
  if (!params_.sources.empty() || params_.infiltration.on())
    speedBeforeAfterStep_ = maxWaveSpeed();
  addSources(dt);
  infiltrate(dt);
  if (maps_)
    foldFloodMaps(*maps_, dt);
  return dt;
}

template<class Real>
void ReferenceSolver<Real>::stepLaxFriedrichs(Real dt)
{
  fillGhosts();
  foldBoundaryInflow(h_, hu_, hv_, dt, 1);
  const StepConstants constants = stepConstants(dt);
  const Real g = constants.g, n = constants.manning, rain = constants.rain;
  const Real r = Real(0.5) * dt * constants.invDx;
  const auto pressure = [g](Real h) { return Real(0.5) * g * h * h; };
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i)
    {
      const std::size_t c = index(i, j), e = c + 1, w = c - 1, no = c + pitch_, s = c - pitch_;
      const Real ie = Real(1) / h_[e], iw = Real(1) / h_[w], in = Real(1) / h_[no],
                 is = Real(1) / h_[s];
      Real hn =
        Real(0.25) * (h_[e] + h_[w] + h_[no] + h_[s]) - r * (hu_[e] - hu_[w] + hv_[no] - hv_[s]);
      if (rain != 0)
        hn += dt * rain;
      Real hun =
        Real(0.25) * (hu_[e] + hu_[w] + hu_[no] + hu_[s]) -
        r * (hu_[e] * hu_[e] * ie + pressure(h_[e]) - (hu_[w] * hu_[w] * iw + pressure(h_[w])) +
              hu_[no] * hv_[no] * in - hu_[s] * hv_[s] * is);
      Real hvn = Real(0.25) * (hv_[e] + hv_[w] + hv_[no] + hv_[s]) -
                 r * (hu_[e] * hv_[e] * ie - hu_[w] * hv_[w] * iw + hv_[no] * hv_[no] * in +
                       pressure(h_[no]) - (hv_[s] * hv_[s] * is + pressure(h_[s])));
      const Real nc = manningAt(c, n);
      const Real h73 = hn * hn * std::cbrt(hn);
      if (nc > 0 && h73 > 0)
      {
        const Real factor = h73 / (h73 + dt * g * nc * nc * std::sqrt(hun * hun + hvn * hvn));
        hun *= factor;
        hvn *= factor;
      }
      hNew_[c] = hn;
      huNew_[c] = hun;
      hvNew_[c] = hvn;
    }
  takeNewState();
}

template<class Real>
void ReferenceSolver<Real>::stepMusclHllc(Real dt)
{
  // Heun: the predictor goes to the *New vectors, the corrector averages back into the state.
  fillGhosts(h_, hu_, hv_);
  foldBoundaryInflow(h_, hu_, hv_, dt, Real(0.5));
  musclStage(h_, hu_, hv_, hNew_, huNew_, hvNew_, dt, false);
  ghostTime_ = time_;
  fillGhosts(hNew_, huNew_, hvNew_);
  foldBoundaryInflow(hNew_, huNew_, hvNew_, dt, Real(0.5));
  musclStage(hNew_, huNew_, hvNew_, h_, hu_, hv_, dt, true);
}

template<class Real>
void ReferenceSolver<Real>::stepMusclHancock(Real dt)
{
  fillGhosts(h_, hu_, hv_);
  computeVelocities(h_, hu_, hv_);
  const bool capped = musclHancockPass(dt, false);
  if (capped)
  {
    ++redone_;
    musclHancockPass(dt, true);
  }
  foldBoundaryInflow(
    h_, hu_, hv_, dt, 1, capped ? Real(4) * (dt * static_cast<Real>(1 / params_.dx)) : Real(0));
  takeNewState();
}

template<class Real>
typename ReferenceSolver<Real>::StepConstants ReferenceSolver<Real>::stepConstants(Real dt) const
{
  StepConstants constants;
  constants.dt = dt;
  constants.g = static_cast<Real>(params_.gravity);
  constants.hDry = static_cast<Real>(kDryDepth);
  constants.manning = static_cast<Real>(params_.manning);
  constants.rain = stepRain_;
  constants.loss = static_cast<Real>(lossRate(params_));
  constants.invDx = Real(1) / static_cast<Real>(params_.dx);
  constants.k = dt * constants.invDx;
  return constants;
}

template<class Real>
bool ReferenceSolver<Real>::musclHancockPass(Real dt, bool capped)
{
  const StepConstants constants = stepConstants(dt);
  const Real halfK = Real(0.5) * constants.k, k4 = capped ? Real(4) * constants.k : Real(0);
  // The half-step faces of three rows at a time (j - 1, j, j + 1), cells -1 .. nx of each.
  const std::size_t width = static_cast<std::size_t>(params_.nx) + 2;
  using Faces = typename Muscl<Real>::Faces;
  std::vector<Faces> rows(3 * width);
  const auto row = [&](int j)
  { return rows.data() + static_cast<std::size_t>(j + 3) % 3 * width + 1; };
  hancockFacesOfRow(-1, halfK, constants, row(-1));
  hancockFacesOfRow(0, halfK, constants, row(0));
  bool negative = false;
  for (int j = 0; j < params_.ny; ++j)
  {
    hancockFacesOfRow(j + 1, halfK, constants, row(j + 1));
    for (int i = 0; i < params_.nx; ++i)
    {
      const FaceRows<Faces> around{ row(j - 1), row(j), row(j + 1) };
      negative = hancockCell(i, j, around, k4, constants) || negative;
    }
  }
  return negative;
}

template<class Real>
template<class Faces>
void ReferenceSolver<Real>::hancockFacesOfRow(int j,
  Real halfK,
  const StepConstants& constants,
  Faces* faces) const
{
  using M = Muscl<Real>;
  // A cell's values along x (un = u) or y (un = v).
  const auto along = [&](int i, int row, bool yAxis)
  {
    const std::size_t c = index(i, row);
    return typename M::State{ h_[c], h_[c] + b_[c], yAxis ? v_[c] : u_[c], yAxis ? u_[c] : v_[c] };
  };
  for (int i = -1; i <= params_.nx; ++i)
    faces[i] = M::hancockFaces(along(i - 1, j, false),
      along(i, j, false),
      along(i + 1, j, false),
      along(i, j - 1, true),
      along(i, j, true),
      along(i, j + 1, true),
      halfK,
      constants.g,
      constants.hDry);
}

template<class Real>
template<class Faces>
bool ReferenceSolver<Real>::hancockCell(int i,
  int j,
  FaceRows<Faces> rows,
  Real k4,
  const StepConstants& constants)
{
  using M = Muscl<Real>;
  const Real dt = constants.dt, g = constants.g, hDry = constants.hDry, k = constants.k;
  const Faces *south = rows.south, *here = rows.here, *north = rows.north;
  const std::size_t c = index(i, j);
  const Faces& f = here[i];
  const auto rx = M::facesRate(here[i - 1].e,
    f.w,
    f.e,
    here[i + 1].w,
    here[i - 1].he,
    f.hw,
    f.he,
    here[i + 1].hw,
    k4,
    g,
    hDry,
    imposedFace(false, i, j),
    imposedFace(false, i + 1, j));
  const auto ry = M::facesRate(south[i].n,
    f.s,
    f.n,
    north[i].s,
    south[i].hn,
    f.hs,
    f.hn,
    north[i].hs,
    k4,
    g,
    hDry,
    imposedFace(true, i, j),
    imposedFace(true, i, j + 1));
  Real hn = h_[c], hun = hu_[c], hvn = hv_[c];
  const bool negative = M::depthAfter(hn, rx, ry, k) < 0;
  M::update(&hn,
    &hun,
    &hvn,
    rx,
    ry,
    k,
    dt,
    manningAt(c, constants.manning),
    rainAt(c, constants.rain),
    g,
    hDry,
    hFilm_,
    roundingDraw<Real>(params_.blockX0 + i, params_.blockY0 + j, steps_, 0));
  if (constants.loss != 0)
    M::takeLoss(&hn, &hun, &hvn, dt * constants.loss, hDry);
  hNew_[c] = hn;
  huNew_[c] = hun;
  hvNew_[c] = hvn;
  return negative;
}

template<class Real>
void ReferenceSolver<Real>::musclStage(const std::vector<Real>& h,
  const std::vector<Real>& hu,
  const std::vector<Real>& hv,
  std::vector<Real>& hOut,
  std::vector<Real>& huOut,
  std::vector<Real>& hvOut,
  Real dt,
  bool final)
{
  using M = Muscl<Real>;
  const StepConstants constants = stepConstants(dt);
  const Real g = constants.g, hDry = constants.hDry, n = constants.manning, rain = constants.rain;
  const Real loss = constants.loss, k = constants.k;
  computeVelocities(h, hu, hv);
  const auto load = [&](typename M::Stencil& s,
                      const std::vector<Real>& un,
                      const std::vector<Real>& ut,
                      std::size_t c,
                      std::ptrdiff_t stride)
  {
    for (int m = 0; m < 5; ++m)
    {
      const std::size_t idx = c + (m - 2) * stride;
      s.h[m] = h[idx];
      s.eta[m] = h[idx] + b_[idx];
      s.un[m] = un[idx];
      s.ut[m] = ut[idx];
    }
  };
  for (int j = 0; j < params_.ny; ++j)
    for (int i = 0; i < params_.nx; ++i)
    {
      const std::size_t c = index(i, j);
      typename M::Stencil sx, sy;
      load(sx, u_, v_, c, 1);
      load(sy, v_, u_, c, static_cast<std::ptrdiff_t>(pitch_));
      const auto rx = M::rate(&sx, g, hDry, imposedFace(false, i, j), imposedFace(false, i + 1, j));
      const auto ry = M::rate(&sy, g, hDry, imposedFace(true, i, j), imposedFace(true, i, j + 1));
      Real hn = h[c], hun = hu[c], hvn = hv[c];
      // (Losses once a step, after the average, as the kernels: TAKE_LOSS.)
      const Real draw = roundingDraw<Real>(params_.blockX0 + i, params_.blockY0 + j, steps_, final);
      M::update(
        &hn, &hun, &hvn, rx, ry, k, dt, manningAt(c, n), rainAt(c, rain), g, hDry, hFilm_, draw);
      if (final)
      {
        // hOut is the state itself: its old value at c is U^n.
        hn = M::heunDepth(
          hOut[c], hn, roundingDraw<Real>(params_.blockX0 + i, params_.blockY0 + j, steps_, 2));
        hun = Real(0.5) * (huOut[c] + hun);
        hvn = Real(0.5) * (hvOut[c] + hvn);
        if (loss != 0)
          M::takeLoss(&hn, &hun, &hvn, dt * loss, hDry);
      }
      hOut[c] = hn;
      huOut[c] = hun;
      hvOut[c] = hvn;
    }
}

template<class Real>
void ReferenceSolver<Real>::computeVelocities(const std::vector<Real>& h,
  const std::vector<Real>& hu,
  const std::vector<Real>& hv)
{
  const Real hDry = static_cast<Real>(kDryDepth);
  for (std::size_t c = 0; c < h.size(); ++c)
  {
    u_[c] = Muscl<Real>::velocity(h[c], hu[c], hDry);
    v_[c] = Muscl<Real>::velocity(h[c], hv[c], hDry);
  }
}

template<class Real>
void ReferenceSolver<Real>::takeNewState()
{
  std::swap(h_, hNew_);
  std::swap(hu_, huNew_);
  std::swap(hv_, hvNew_);
}

template<class Real>
void ReferenceSolver<Real>::advanceTo(double target)
{
  if (pairs_)
    while (stepPair(target) > 0)
    {
    }
  else
    while (step(target) > 0)
    {
    }
}

template<class Real>
void ReferenceSolver<Real>::takeSteps(int n)
{
  // (A pair may be cut to one step, as a refused launch is followed by one.)
  for (int s = 0; s < n;)
    if (pairs_ && s + 1 < n)
      s += stepPair();
    else
    {
      step();
      ++s;
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
