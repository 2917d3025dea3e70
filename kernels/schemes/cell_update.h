/* A cell's update in a second-order step, after its fluxes (muscl_hllc.h, which this file
 * follows and whose types, and lanes' definitions, it uses; it closes them): the Euler stage with
 * its depth rounded at random in fp32, rain, losses, friction and films, and Heun's average.
 * Shared, as muscl_hllc.h, by the kernels and the C++ twin (solver/twin/TwinArithmetic.h). */
#ifndef SWE_CELL_UPDATE_H
#define SWE_CELL_UPDATE_H

/* Ends one Euler stage of a cell: a depth below zero by round-off becomes zero, a dry cell keeps
 * no momentum, a film thinner than h_film has its velocity damped, and Manning friction is
 * applied semi-implicitly (it can stop the flow, never reverse it). Returns false (lanes: 0)
 * where the depth went negative beyond round-off; such a cell is left as it is, and the run
 * stops on it.
 * The film: where the precision resolves the surface only to a few h_film / 16 (fp32 on a DEM
 * high above its datum: solver/LocalDatum.h), a thin film's depth is mostly round-off, and q / h
 * would turn it into speeds of 100 m/s that shrink every time step. Kurganov and Petrova's
 * desingularised velocity u = sqrt(2) h q / sqrt(h^4 + max(h^4, h_film^4)) is q / h above
 * h_film and goes to zero with h below it; the momentum becomes h u, as theirs does. h_film = 0
 * (fp64, flat beds) leaves every cell as it was. */
inline mask
finish_stage(real* h, real* hu, real* hv, real dt, real manning, real g, real h_dry, real h_film)
{
  const mask ok = !(*h < -h_dry);
  *h = (ok && *h < (real)0) ? (real)0 : *h;
  const mask dry = ok && *h <= h_dry;
  *hu = dry ? (real)0 : *hu;
  *hv = dry ? (real)0 : *hv;
  const mask film = ok && !dry && *h < h_film;
  if (MUSCL_ANY(film))
  {
    const real h2 = *h * *h, f2 = h_film * h_film;
    const real damping = (real)1.4142135623730951 * h2 / SQRT(MULADD(h2, h2, f2 * f2));
    *hu = film ? *hu * damping : *hu;
    *hv = film ? *hv * damping : *hv;
  }
#if defined(__cplusplus) || defined(MANNING_FIELD)
  /* A closed cell (no data in the DEM; the host marks it with a Manning coefficient of -1) holds
   * no water: none flows in over its wall of a bed (kClosedBed), and rain on it is taken away. */
  const mask closed = manning < (real)0;
  *h = closed ? (real)0 : *h;
  *hu = closed ? (real)0 : *hu;
  *hv = closed ? (real)0 : *hv;
#endif
  if (MUSCL_ANY(manning > (real)0))
  {
    /* 1 / (1 + dt g n^2 |u| / h^(4/3)) as h^(7/3) / (h^(7/3) + dt g n^2 |q|): one division
     * instead of three (fp64 division is a long software sequence on GPUs; PERFORMANCE.md).
     * Elsewhere the factor is 1, which leaves the momenta as they are (exactly, but for a
     * denormal momentum where the device flushes them). */
    const real h73 = *h * *h * cbrt(*h);
    const real factor =
      h73 / MULADD(dt * g * manning * manning, sqrt(MULADD(*hu, *hu, *hv * *hv)), h73);
    const real applied = (ok && !dry && manning > (real)0) ? factor : (real)1;
    *hu *= applied;
    *hv *= applied;
  }
  return ok;
}

/* A cell's depth h advanced by dt with the rates rx and ry (euler_update), before finish_stage:
 * below zero where its faces took more than it held. */
inline real depth_after(real h, FaceFlux rx, FaceFlux ry, real kdt)
{
  return MULADD(kdt, rx.h + ry.h, h);
}

/* fp32 rounding at random (random_rounding.h; NUMERICS.md, 'The water balance'): r, the float
 * nearest a value r + left, moved to that value's other neighbouring float with the chance
 * |left| / (the gap between them), so that its expectation is the value. Round to nearest keeps
 * the same share of an ulp step after step where a pond drains at a steady rate, a bias that adds
 * up to 1e-4 of a long run's volume; at random those errors cancel. u: the cell's draw. Values
 * below ROUNDING_FLOOR round to nearest. */
#ifndef SWE_DOUBLE
inline real round_at_random(real r, real left, real u)
{
#if defined(MUSCL_LANES) || defined(__cplusplus)
  const real away = nextafter(r, left > (real)0 ? (real)INFINITY : (real)0);
#else
  /* (the same float where it counts, r > 0: r's bits plus or minus one; NVIDIA's nextafter, a
   * sequence of tests, cost 7 % of MUSCL-Hancock's fp32 rate on an H100) */
  const real away = as_float(as_int(r) + (left > (real)0 ? 1 : -1));
#endif
  return (r >= (real)ROUNDING_FLOOR && u * fabs(away - r) < fabs(left)) ? away : r;
}
#endif

/* depth_after's value rounded at random in fp32 (to nearest in fp64). */
inline real depth_rounded_at_random(real h, FaceFlux rx, FaceFlux ry, real kdt, real u)
{
  const real r = depth_after(h, rx, ry, kdt);
#ifdef SWE_DOUBLE
  (void)u;
  return r;
#else
  const real s = rx.h + ry.h;
  const real p = kdt * s, p_low = MULADD(kdt, s, -p); /* kdt s == p + p_low exactly */
  const real sum = p + h, b = sum - p;
  const real sum_low = (p - (sum - b)) + (h - b); /* p + h == sum + sum_low exactly */
  return round_at_random(r, (sum - r) + (sum_low + p_low), u);
#endif
}

/* a + b rounded at random in fp32 (to nearest in fp64). */
inline real sum_rounded_at_random(real a, real b, real u)
{
  const real sum = a + b;
#ifdef SWE_DOUBLE
  (void)u;
  return sum;
#else
  const real c = sum - a;
  return round_at_random(sum, (a - (sum - c)) + (b - c), u); /* (TwoSum's low part) */
#endif
}

/* Heun's average of a depth (MUSCL-HLLC's final stage): of the step's base and its second
 * stage's, their sum rounded at random with the draw u (halving it is exact). */
inline real heun_depth(real base, real h, real u)
{
  return (real)0.5 * sum_rounded_at_random(base, h, u);
}

/* Rain: dt times the rate `rain` [m/s] added to a cell's depth before finish_stage (so a dry cell
 * under rain becomes wet as any other), the sum rounded at random with the draw u: on water
 * deeper than the amount's ulps, round to nearest would lose it every step (NUMERICS.md,
 * Precision). The kernels add it only where the run has rain (RAIN_RATE), so that other runs
 * keep their instructions and their bits (adding 0 would turn a depth of -0 into +0); the twin
 * adds it where the rate is not 0. */
#if defined(__cplusplus)
#define ADD_RAIN(h, rain, dt, u)                                                                   \
  if ((rain) != 0)                                                                                 \
  (h) = sum_rounded_at_random(h, (dt) * (rain), u)
#elif defined(RAIN_RATE) || defined(RAIN_SERIES) || defined(RAIN_ZONES)
#define ADD_RAIN(h, rain, dt, u) (h) = sum_rounded_at_random(h, (dt) * (rain), u)
#else
#define ADD_RAIN(h, rain, dt, u)
#endif

/* A second draw from the cell's u for its rain, uniform as u is (u has 24 bits: exact). */
inline real half_turn(real u)
{
  return u + (u < (real)0.5 ? (real)0.5 : (real)-0.5);
}

/* Losses (infiltration at a constant rate, `loss` [m/s]): dt times it taken from a wet cell's
 * finished depth, once a step, after the step's update (for MUSCL-HLLC after Heun's average: in
 * each stage, the clamp at zero would leave half of a drying cell's depth every step, and it
 * would never dry). Never below zero; the momentum is scaled with the depth so that the velocity
 * stays (a thin layer losing depth under the same momentum would speed up without bound), and
 * dropped where the cell ends dry. A depth the fluxes took below zero is left as finish_stage
 * reported it. Built as ADD_RAIN is: LOSS_RATE. */
inline void take_loss(real* h, real* hu, real* hv, real depth, real h_dry)
{
  const mask wet = *h > (real)0;
  const real kept = wet ? fmax(*h - depth, (real)0) : *h;
  const real scale = wet ? (kept > h_dry ? kept / *h : (real)0) : (real)1;
  *hu *= scale;
  *hv *= scale;
  *h = kept;
}

#if defined(__cplusplus)
#define TAKE_LOSS(h, hu, hv, loss, dt, h_dry)                                                      \
  if ((loss) != 0)                                                                                 \
  take_loss(h, hu, hv, (dt) * (loss), h_dry)
#elif defined(LOSS_RATE)
#define TAKE_LOSS(h, hu, hv, loss, dt, h_dry) take_loss(h, hu, hv, (dt) * (loss), h_dry)
#else
#define TAKE_LOSS(h, hu, hv, loss, dt, h_dry)
#endif

/* A cell's state (h, hu, hv) advanced by dt with the rates rx (along x) and ry (along y) times dx,
 * kdt = dt / dx, its depth rounded at random with the draw u, and rain (ADD_RAIN), then finished
 * (finish_stage: friction, dry cells, films; false if the depth went negative beyond round-off). */
inline mask euler_update(real* h,
  real* hu,
  real* hv,
  FaceFlux rx,
  FaceFlux ry,
  real kdt,
  real dt,
  real manning,
  real rain,
  real g,
  real h_dry,
  real h_film,
  real u)
{
  *h = depth_rounded_at_random(*h, rx, ry, kdt, u);
  ADD_RAIN(*h, rain, dt, half_turn(u));
  *hu = MULADD(kdt, rx.qn + ry.qt, *hu);
  *hv = MULADD(kdt, rx.qt + ry.qn, *hv);
  return finish_stage(h, hu, hv, dt, manning, g, h_dry, h_film);
}

#undef real
#undef mask
#undef SQRT
#undef MULADD
#undef MUSCL_ANY
#undef MUSCL_ALL
#undef ADD_RAIN
#endif
