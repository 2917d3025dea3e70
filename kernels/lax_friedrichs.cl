/* Lax-Friedrichs step (thesis eq. 2.11 / Algoritmo 2.2) with its physics bugs fixed:
 *  - pressure flux 1/2 g h^2 (the thesis wrote 0.5*9.8*Z);
 *  - the cross fluxes hu*hv/h are differenced along the direction they belong to (the thesis
 *    differenced G of x-momentum along x and F of y-momentum along y);
 *  - Manning friction is applied to both momenta, semi-implicitly, so it can stop the flow but
 *    never reverse it.
 * Fused with the first stage of the wave-speed reduction (per-group maxima of the new state, read
 * by compute_dt for the next step) and with the blow-up check. */

/* Pressure term of the momentum fluxes. */
inline real pressure(real h) { return (real)0.5 * (real)GRAVITY * h * h; }

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
lax_friedrichs_step(__global const real* h, __global const real* hu, __global const real* hv,
                    __global real* h_out, __global real* hu_out, __global real* hv_out,
                    __global const real* ctrl, __global int* status, __global real* partial_max,
                    const real manning, const real inv_dx,
                    __global const real* manning_field)
{
  __local real scratch[WG_SIZE];
  const int i = get_global_id(0), j = get_global_id(1);
  const real dt = ctrl[CTRL_DT];
  real speed = (real)0;
  if (i < NX && j < NY)
  {
    const int c = IDX(i, j);
    const int e = c + 1, w = c - 1, n = c + PITCH, s = c - PITCH;
    real hn, hun, hvn;
    if (dt > (real)0)
    {
      const real r = (real)0.5 * dt * inv_dx;
      const real he = h[e], hw = h[w], hN = h[n], hs = h[s];
      const real hue = hu[e], huw = hu[w], huN = hu[n], hus = hu[s];
      const real hve = hv[e], hvw = hv[w], hvN = hv[n], hvs = hv[s];
      /* One division per neighbour, not one per flux term: divisions bound this kernel. */
      const real ie = (real)1 / he, iw = (real)1 / hw, iN = (real)1 / hN, is = (real)1 / hs;
      hn = (real)0.25 * (he + hw + hN + hs) - r * (hue - huw + hvN - hvs);
      hun = (real)0.25 * (hue + huw + huN + hus) -
            r * (hue * hue * ie + pressure(he) - (huw * huw * iw + pressure(hw)) +
                 huN * hvN * iN - hus * hvs * is);
      hvn = (real)0.25 * (hve + hvw + hvN + hvs) -
            r * (hue * hve * ie - huw * hvw * iw + hvN * hvN * iN + pressure(hN) -
                 (hvs * hvs * is + pressure(hs)));
      const real n_c = MANNING_AT(c);
      if (n_c > (real)0 && hn > (real)0)
      {
        /* h^(4/3) as h * cbrt(h): cbrt is tighter than pow in OpenCL's error bounds. */
        const real velocity = sqrt(hun * hun + hvn * hvn) / hn;
        const real factor = (real)1 /
          ((real)1 + dt * (real)GRAVITY * n_c * n_c * velocity / (hn * cbrt(hn)));
        hun *= factor;
        hvn *= factor;
      }
    }
    else
    {
      /* The clock has reached its target: this launch is a no-op copy (see compute_dt). */
      hn = h[c];
      hun = hu[c];
      hvn = hv[c];
    }
    h_out[c] = hn;
    hu_out[c] = hun;
    hv_out[c] = hvn;
    if (is_physical(hn, hun, hvn))
      speed = wave_speed(hn, hun, hvn);
    else
      atomic_min(&status[STATUS_BAD_CELL], j * NX + i);
  }
  publish_group_max_speed(scratch, speed, partial_max);
}
