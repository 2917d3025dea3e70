/* Lax-Friedrichs step (thesis eq. 2.11 / Algoritmo 2.2) with its physics bugs fixed:
 *  - pressure flux 1/2 g h^2 (the thesis wrote 0.5*9.8*Z);
 *  - the cross fluxes hu*hv/h are differenced along the direction they belong to (the thesis
 *    differenced G of x-momentum along x and F of y-momentum along y);
 *  - Manning friction is applied to both momenta, semi-implicitly, so it can stop the flow but
 *    never reverse it.
 * Fused with the boundary ghosts of the new state, with the first stage of the wave-speed reduction (per-group maxima of the new state, read
 * by compute_dt for the next step) and with the blow-up check. */

/* Pressure term of the momentum fluxes. */
inline real pressure(real h) { return (real)0.5 * (real)GRAVITY * h * h; }

/* The new state of cell c from its four neighbours' states (e, w, n, s), each (h, hu, hv). */
inline void lax_friedrichs_cell(real dt, real inv_dx, real n_c, real he, real hue, real hve,
  real hw, real huw, real hvw, real hN, real huN, real hvN, real hs, real hus, real hvs,
  real* h_new, real* hu_new, real* hv_new)
{
  const real r = (real)0.5 * dt * inv_dx;
  /* One division per neighbour, not one per flux term: divisions bound this kernel. */
  const real ie = (real)1 / he, iw = (real)1 / hw, iN = (real)1 / hN, is = (real)1 / hs;
  const real hn = (real)0.25 * (he + hw + hN + hs) - r * (hue - huw + hvN - hvs);
  real hun = (real)0.25 * (hue + huw + huN + hus) -
    r * (hue * hue * ie + pressure(he) - (huw * huw * iw + pressure(hw)) + huN * hvN * iN -
          hus * hvs * is);
  real hvn = (real)0.25 * (hve + hvw + hvN + hvs) -
    r * (hue * hve * ie - huw * hvw * iw + hvN * hvN * iN + pressure(hN) -
          (hvs * hvs * is + pressure(hs)));
  if (n_c > (real)0 && hn > (real)0)
  {
    /* h^(4/3) as h * cbrt(h): cbrt is tighter than pow in OpenCL's error bounds. */
    const real velocity = sqrt(hun * hun + hvn * hvn) / hn;
    const real factor =
      (real)1 / ((real)1 + dt * (real)GRAVITY * n_c * n_c * velocity / (hn * cbrt(hn)));
    hun *= factor;
    hvn *= factor;
  }
  *h_new = hn;
  *hu_new = hun;
  *hv_new = hvn;
}

/* Ghost layer 1 (the only one this scheme reads) of the new state across one side, written by
 * the cell next to it: this spares a ghost-filling launch between steps, which cost more than
 * the writes on a GPU. The same ghost_state() as fill_ghosts, so the values are identical. */
inline void write_side_ghost(__global real* h, __global real* hu, __global real* hv, int ghost,
  int kind, real value, bool normal_x, real inward, GhostCell cell)
{
  const GhostCell g = ghost_state(kind, value, normal_x, inward, cell, cell, (real)H_DRY);
  h[ghost] = g.h;
  hu[ghost] = g.hu;
  hv[ghost] = g.hv;
}

/* One work-item updates ROWS cells of a column, bottom to top, keeping the column's states of
 * the rows below, at and above the cell in registers (a sliding window): each row then loads 9
 * values instead of 12, and the group's wave-speed reduction is paid once per ROWS cells. */
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
lax_friedrichs_step(__global const real* h, __global const real* hu, __global const real* hv,
                    __global real* h_out, __global real* hu_out, __global real* hv_out,
                    __global const real* ctrl, __global int* status, __global real* partial_max,
                    const real manning, const real inv_dx,
                    __global const real* manning_field, __global const real* bed)
{
  __local real scratch[WG_SIZE];
  const int i = get_global_id(0), j0 = get_global_id(1) * ROWS;
  const real dt = ctrl[CTRL_DT];
  real speed = (real)0;
  if (i < NX && j0 < NY)
  {
    int c = IDX(i, j0);
    real hs = h[c - PITCH], hus = hu[c - PITCH], hvs = hv[c - PITCH];
    real hc = h[c], huc = hu[c], hvc = hv[c];
    /* A constant trip count, so the compiler can unroll and issue the rows' loads together. */
#pragma unroll
    for (int r = 0; r < ROWS; ++r, c += PITCH)
    {
      if (j0 + r >= NY)
        break;
      const int n = c + PITCH;
      const real hN = h[n], huN = hu[n], hvN = hv[n];
      real hn = hc, hun = huc, hvn = hvc; /* dt = 0: the clock has reached its target, no-op */
      if (dt > (real)0)
        lax_friedrichs_cell(dt, inv_dx, MANNING_AT(c), h[c + 1], hu[c + 1], hv[c + 1], h[c - 1],
          hu[c - 1], hv[c - 1], hN, huN, hvN, hs, hus, hvs, &hn, &hun, &hvn);
      h_out[c] = hn;
      hu_out[c] = hun;
      hv_out[c] = hvn;
      const int j = j0 + r;
      if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1)
      {
        GhostCell cell;
        cell.h = hn;
        cell.hu = hun;
        cell.hv = hvn;
        cell.b = bed[c];
        if (i == 0)
          write_side_ghost(h_out, hu_out, hv_out, c - 1, BC_WEST, (real)BCV_WEST, true, (real)1, cell);
        if (i == NX - 1)
          write_side_ghost(
            h_out, hu_out, hv_out, c + 1, BC_EAST, (real)BCV_EAST, true, (real)-1, cell);
        if (j == 0)
          write_side_ghost(
            h_out, hu_out, hv_out, c - PITCH, BC_SOUTH, (real)BCV_SOUTH, false, (real)1, cell);
        if (j == NY - 1)
          write_side_ghost(
            h_out, hu_out, hv_out, c + PITCH, BC_NORTH, (real)BCV_NORTH, false, (real)-1, cell);
      }
      if (is_physical(hn, hun, hvn))
        speed = fmax(speed, wave_speed(hn, hun, hvn));
      else
        atomic_min(&status[STATUS_BAD_CELL], j * NX + i);
      hs = hc, hus = huc, hvs = hvc;
      hc = hN, huc = huN, hvc = hvN;
    }
  }
  publish_group_max_speed(scratch, speed, partial_max);
}
