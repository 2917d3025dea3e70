/* Green-Ampt infiltration (SimulationParameters::infiltration), shared by the kernels
 * (kernels/infiltration.cl) and the twin: over a step of dt a ponded cell takes in what the
 * Green-Ampt equation integrates to exactly, F1 - F0 - P ln((F1 + P) / (F0 + P)) = K dt (F the
 * cumulative infiltration, K the saturated hydraulic conductivity, P the suction head times the
 * moisture deficit), so the infiltrated depth is that of the analytic solution however long the
 * steps; a cell holding less than that gives all it holds. Its momentum is scaled with its depth,
 * so its velocity stays (as take_loss). */
#ifndef SWE_INFILTRATION_H
#define SWE_INFILTRATION_H

/* F1 from F0 after dt of ponding: Newton's method on the equation above, from the lesser of two
 * bounds above the root, K dt (1 + P / F0) (since ln(1 + x) <= x) and K dt + sqrt(2 P K dt); the
 * function is convex and increasing past F0, so the iterates fall to the root, close by from
 * there: four iterations reach it to round-off. */
inline real green_ampt_after(real f0, real k_dt, real p)
{
  const real early = k_dt + sqrt((real)2 * p * k_dt);
  real f =
    f0 + (f0 > (real)0 && k_dt * ((real)1 + p / f0) < early ? k_dt * ((real)1 + p / f0) : early);
  for (int it = 0; it < 4; ++it)
  {
    const real g = f - f0 - p * log((f + p) / (f0 + p)) - k_dt;
    f -= g * (f + p) / f;
  }
  return f;
}

/* Infiltrates a cell (depth *h, momenta *hu, *hv, cumulative infiltration *f) over dt. */
inline void infiltrate_cell(real* h, real* hu, real* hv, real* f, real k_dt, real p, real h_dry)
{
  if (!(*h > h_dry) || !(k_dt > (real)0)) /* (a soil map's impervious cells: K = 0) */
    return;
  const real potential = green_ampt_after(*f, k_dt, p) - *f;
  const real taken = potential < *h ? potential : *h;
  const real kept = *h - taken;
  const real scale = kept / *h;
  *hu *= scale;
  *hv *= scale;
  *h = kept;
  *f += taken;
}

#endif
