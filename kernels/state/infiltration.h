/* Green-Ampt infiltration (SimulationParameters::infiltration), shared by the kernels
 * (kernels/state/infiltration.cl) and the twin: over a step of dt a ponded cell takes in what the
 * Green-Ampt equation integrates to exactly, F1 - F0 - P ln((F1 + P) / (F0 + P)) = K dt (F the
 * cumulative infiltration, K the saturated hydraulic conductivity, P the suction head times the
 * moisture deficit), so the infiltrated depth is that of the analytic solution however long the
 * steps; a cell holding less than that gives all it holds. Its momentum is scaled with its depth,
 * so its velocity stays (as take_loss). */
#ifndef SWE_INFILTRATION_H
#define SWE_INFILTRATION_H

/* F1 - F0 after dt of ponding: Newton's method on the equation above written for the increment d,
 * d - P log1p(d / (F0 + P)) = K dt, so that fp32 resolves increments far smaller than F0 (in
 * F1 - F0 and ln((F1 + P) / (F0 + P)) they drown in F0's rounding once steps are short: see
 * NUMERICS.md, 'Rain'). It starts from the lesser of two bounds above the root,
 * K dt (1 + P / F0) (since ln(1 + x) <= x) and K dt + sqrt(2 P K dt); the function is convex and
 * increasing past 0, so the iterates fall to the root. They stop once one no longer falls, or
 * would not stay above 0 (fp32's rounding where K dt is 1e-14 m or less): usually after one to
 * three, at most four. Without suction (P = 0) the rate is K. */
inline real green_ampt_increment(real f0, real k_dt, real p)
{
  if (!(p > (real)0))
    return k_dt;
  const real early = k_dt + sqrt((real)2 * p * k_dt);
  const real late = k_dt * ((real)1 + p / f0);
  real d = f0 > (real)0 && late < early ? late : early;
  const real s = f0 + p;
  for (int it = 0; it < 4; ++it)
  {
    const real next = d - (d - p * log1p(d / s) - k_dt) * (s + d) / (f0 + d);
    if (!(next < d) || !(next > (real)0))
      break;
    d = next;
  }
  return d;
}

/* Infiltrates a cell (depth *h, momenta *hu, *hv, cumulative infiltration *f) over dt. */
inline void infiltrate_cell(real* h, real* hu, real* hv, real* f, real k_dt, real p, real h_dry)
{
  if (!(*h > h_dry) || !(k_dt > (real)0)) /* (a soil map's impervious cells: K = 0) */
    return;
  const real potential = green_ampt_increment(*f, k_dt, p);
  const real taken = potential < *h ? potential : *h;
  const real kept = *h - taken;
  const real scale = kept / *h;
  *hu *= scale;
  *hv *= scale;
  *h = kept;
  *f += taken;
}

#endif
