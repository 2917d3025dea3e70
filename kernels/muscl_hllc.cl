/* One Heun stage of the second-order scheme (arithmetic in muscl_hllc.h). Stage 1 writes
 * U1 = U + dt L(U) into the scratch state; stage 2 writes U = (U + U1 + dt L(U1)) / 2 back into
 * the state, fused with the blow-up check and the first stage of the next step's wave-speed
 * maximum. Both stages read their input with a 5-point stencil per axis (2 ghost layers). */

inline void load_axis(AxisStencil* s, __global const real* h, __global const real* q_normal,
  __global const real* q_transverse, __global const real* bed, int c, int stride)
{
  for (int k = 0; k < 5; ++k)
  {
    const int idx = c + (k - 2) * stride;
    const real depth = h[idx];
    s->h[k] = depth;
    s->eta[k] = depth + bed[idx];
    s->un[k] = cell_velocity(depth, q_normal[idx], (real)H_DRY);
    s->ut[k] = cell_velocity(depth, q_transverse[idx], (real)H_DRY);
  }
}

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
muscl_hllc_stage(__global const real* h, __global const real* hu, __global const real* hv,
                 __global const real* bed, __global const real* h_base,
                 __global const real* hu_base, __global const real* hv_base,
                 __global real* h_out, __global real* hu_out, __global real* hv_out,
                 __global const real* ctrl, __global int* status, __global real* partial_max,
                 const real manning, const real inv_dx, const int final_stage,
                 __global const real* manning_field)
{
  __local real scratch[WG_SIZE];
  const int i = get_global_id(0), j = get_global_id(1);
  real speed = (real)0;
  if (i < NX && j < NY)
  {
    const int c = IDX(i, j);
    const real dt = ctrl[CTRL_DT];
    real hn = h[c], hun = hu[c], hvn = hv[c];
    bool ok = true;
    if (dt > (real)0)
    {
      AxisStencil sx, sy;
      load_axis(&sx, h, hu, hv, bed, c, 1);
      load_axis(&sy, h, hv, hu, bed, c, PITCH);
      const FaceFlux rx = axis_rate(&sx, (real)GRAVITY, (real)H_DRY);
      const FaceFlux ry = axis_rate(&sy, (real)GRAVITY, (real)H_DRY);
      const real k = dt * inv_dx;
      hn += k * (rx.h + ry.h);
      hun += k * (rx.qn + ry.qt);
      hvn += k * (rx.qt + ry.qn);
      ok = finish_stage(&hn, &hun, &hvn, dt, MANNING_AT(c), (real)GRAVITY, (real)H_DRY);
      if (final_stage)
      {
        hn = (real)0.5 * (h_base[c] + hn);
        hun = (real)0.5 * (hu_base[c] + hun);
        hvn = (real)0.5 * (hv_base[c] + hvn);
      }
    }
    else if (final_stage)
    {
      /* The clock has reached its target: leave the state as it is. */
      hn = h_base[c];
      hun = hu_base[c];
      hvn = hv_base[c];
    }
    h_out[c] = hn;
    hu_out[c] = hun;
    hv_out[c] = hvn;
    if (ok && hn >= (real)0 && isfinite(hn) && isfinite(hun) && isfinite(hvn))
      speed = hn > (real)H_DRY ? wave_speed(hn, hun, hvn) : (real)0;
    else
      atomic_min(&status[STATUS_BAD_CELL], j * NX + i);
  }
  if (final_stage)
    publish_group_max_speed(scratch, speed, partial_max);
}
