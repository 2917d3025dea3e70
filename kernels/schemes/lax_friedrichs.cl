/* Lax-Friedrichs step (thesis eq. 2.11 / Algoritmo 2.2) with its physics bugs fixed:
 *  - pressure flux 1/2 g h^2 (the thesis wrote 0.5*9.8*Z);
 *  - the cross fluxes hu*hv/h are differenced along the direction they belong to (the thesis
 *    differenced G of x-momentum along x and F of y-momentum along y);
 *  - Manning friction is applied to both momenta, semi-implicitly, so it can stop the flow but
 *    never reverse it.
 * Fused with the boundary ghosts of the new state, with the wave-speed maximum of the new state,
 * with the blow-up check, and with the clock (FUSED_CLOCK: the last group to finish commits the
 * step and chooses the next dt, so a step is one launch). */

/* Rain over the step, before friction (the twin's order); nothing without rain. */
#ifdef RAIN_RATE
#define LAX_FRIEDRICHS_RAIN(h, dt) (h) += (dt) * RAIN
#else
#define LAX_FRIEDRICHS_RAIN(h, dt)
#endif

/* The new state of a cell from its four neighbours' states (e, w, n, s), each (h, hu, hv):
 * defined once, as a macro, for one cell (T = real) and for VEC cells at a time (T = realv, the
 * CPU-shaped kernel's explicit SIMD). Friction applies where n > 0 and h > 0 (a selection, so
 * that vectors need no branch; factor 1 elsewhere leaves the momenta exactly as they are). */
#define DEFINE_LAX_FRIEDRICHS_CELL(NAME, T)                                                       \
  inline void NAME(bool friction, real dt, real inv_dx, T n_c, T he, T hue, T hve, T hw, T huw,  \
    T hvw, T hN, T huN, T hvN, T hs, T hus, T hvs, T* h_new, T* hu_new, T* hv_new)               \
  {                                                                                               \
    const real r = (real)0.5 * dt * inv_dx;                                                       \
    const real half_g = (real)0.5 * (real)GRAVITY; /* pressure 1/2 g h^2 */                      \
    /* One reciprocal per neighbour, not one division per flux term: they bound this kernel     \
     * (real_recip, realv_recip: kernels/device/precision.h). */                                  \
    const T ie = T##_recip(he), iw = T##_recip(hw), iN = T##_recip(hN), is = T##_recip(hs);      \
    T hn = (real)0.25 * (he + hw + hN + hs) - r * (hue - huw + hvN - hvs);                       \
    LAX_FRIEDRICHS_RAIN(hn, dt);                                                                  \
    T hun = (real)0.25 * (hue + huw + huN + hus) -                                               \
      r * (hue * hue * ie + half_g * he * he - (huw * huw * iw + half_g * hw * hw) +              \
            huN * hvN * iN - hus * hvs * is);                                                     \
    T hvn = (real)0.25 * (hve + hvw + hvN + hvs) -                                               \
      r * (hue * hve * ie - huw * hvw * iw + hvN * hvN * iN + half_g * hN * hN -                  \
            (hvs * hvs * is + half_g * hs * hs));                                                 \
    if (friction)                                                                                 \
    {                                                                                             \
      /* 1 / (1 + dt g n^2 |u| / h^(4/3)) as h^(7/3) / (h^(7/3) + dt g n^2 |q|): one division,    \
       * not three (fp64 division is slow on GPUs); cbrt is tighter than pow in OpenCL. */        \
      const T h73 = hn * hn * cbrt(hn);                                                           \
      const T factor =                                                                            \
        h73 / (h73 + dt * (real)GRAVITY * n_c * n_c * sqrt(hun * hun + hvn * hvn));               \
      /* (h^(7/3) flushes to 0 below h of about 6e-17 m in fp32: no friction, not 0 / 0) */     \
      const T applied = (n_c > (real)0 && h73 > (real)0) ? factor : (T)((real)1);                 \
      hun *= applied;                                                                             \
      hvn *= applied;                                                                             \
    }                                                                                             \
    *h_new = hn;                                                                                  \
    *hu_new = hun;                                                                                \
    *hv_new = hvn;                                                                                \
  }

DEFINE_LAX_FRIEDRICHS_CELL(lax_friedrichs_cell, real)

/* Whether any cell has friction: the same for every work-item, so branching on it costs nothing. */
#ifdef MANNING_FIELD
#define FRICTION true
#else
#define FRICTION (manning > (real)0)
#endif

/* Ghost layer 1 (the only one this scheme reads) of the new state across one side, written by
 * the cell next to it: this spares a ghost-filling launch between steps, which cost more than
 * the writes on a GPU. The same ghost_state() as fill_ghosts, so the values are identical. */
inline void write_side_ghost(__global real* h, __global real* hu, __global real* hv, int ghost,
  int kind, real value, bool normal_x, real inward, GhostCell cell)
{
  const GhostCell g =
    ghost_state(kind, value, normal_x, inward, cell, cell, (real)H_DRY, (real)GRAVITY);
  h[ghost] = g.h;
  hu[ghost] = g.hu;
  hv[ghost] = g.hv;
}

/* The ghosts that the new state of boundary cell (i, j), at index c, gives its sides. */
inline void write_ghosts_of(__global real* h, __global real* hu, __global real* hv, int i, int j,
  int c, GhostCell cell)
{
  if (i == 0)
    write_side_ghost(h, hu, hv, c - 1, BC_WEST, (real)BCV_WEST, true, (real)1, cell);
  if (i == NX - 1)
    write_side_ghost(h, hu, hv, c + 1, BC_EAST, (real)BCV_EAST, true, (real)-1, cell);
  if (j == 0)
    write_side_ghost(h, hu, hv, c - PITCH, BC_SOUTH, (real)BCV_SOUTH, false, (real)1, cell);
  if (j == NY - 1)
    write_side_ghost(h, hu, hv, c + PITCH, BC_NORTH, (real)BCV_NORTH, false, (real)-1, cell);
}

/* The new state of cell (i + k, j) at index c + k, k = 0 or 1: its ghosts on the boundary, its
 * wave speed into speed, or a bad-cell report. */
inline void finish_cell(__global real* h_out, __global real* hu_out, __global real* hv_out,
  __global const real* bed, int i, int j, int c, real hn, real hun, real hvn, real* speed,
  __global int* status)
{
  if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1)
  {
    GhostCell cell;
    cell.h = hn;
    cell.hu = hun;
    cell.hv = hvn;
    cell.b = bed[c];
    write_ghosts_of(h_out, hu_out, hv_out, i, j, c, cell);
  }
  if (!OWNED(i, j))
    return;
  if (is_physical(hn, hun, hvn))
    *speed = fmax(*speed, wave_speed(hn, hun, hvn));
  else
    atomic_min(&status[STATUS_BAD_CELL], j * NX + i);
}

/* The state of interior cell c after one step of dt from its neighbours in global memory, or
 * as it is when step is false (a no-op step). */
inline void stepped_cell(bool step, bool friction, real dt, real inv_dx, real manning,
  __global const real* manning_field, __global const real* h, __global const real* hu,
  __global const real* hv, int c, real* hn, real* hun, real* hvn)
{
  if (step)
    lax_friedrichs_cell(friction, dt, inv_dx, MANNING_AT(c), h[c + 1], hu[c + 1], hv[c + 1],
      h[c - 1], hu[c - 1], hv[c - 1], h[c + PITCH], hu[c + PITCH], hv[c + PITCH], h[c - PITCH],
      hu[c - PITCH], hv[c - PITCH], hn, hun, hvn);
  else
    *hn = h[c], *hun = hu[c], *hvn = hv[c];
}

/* The arguments of the GPU-shaped update kernels, in the order their stepper binds them
 * (solver/LaxFriedrichsStepper.cpp). */
#define GPU_STEP_ARGUMENTS                                                                        \
  __global const real *h, __global const real *hu, __global const real *hv, __global real *h_out, \
    __global real *hu_out, __global real *hv_out, __global real *ctrl, __global int *status,      \
    __global real *partial_max, const real manning, const real inv_dx,                           \
    __global const real *manning_field, __global const real *bed, const real cfl_dx,             \
    const real fixed_dt, const int num_groups

/* One work-item updates a column two cells wide (COLUMNS) and ROWS cells high, bottom to top.
 * The pair's states are loaded as one vector (rows are aligned and i is even), so a warp's loads
 * are whole cache lines and each row costs 3 vector and 6 scalar loads for two cells instead of
 * 18 scalar ones; the column's states of the rows below, at and above the cell stay in registers
 * (a sliding window); and the group's wave-speed reduction is paid once per 2 ROWS cells. */
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
lax_friedrichs_step(GPU_STEP_ARGUMENTS)
{
  __local real scratch[WG_SIZE];
  const int i = get_global_id(0) * COLUMNS, j0 = get_global_id(1) * ROWS;
  const real dt = ctrl[CTRL_DT];
  real speed = (real)0;
  if (i < NX && j0 < NY)
  {
    /* With NX odd, the last pair's second cell is a ghost: read, computed, never stored. */
    const bool pair = i + 1 < NX;
    int c = IDX(i, j0);
    real2 hs = vload2(0, h + c - PITCH), hus = vload2(0, hu + c - PITCH),
          hvs = vload2(0, hv + c - PITCH);
    real2 hc = vload2(0, h + c), huc = vload2(0, hu + c), hvc = vload2(0, hv + c);
    /* A constant trip count, so the compiler can unroll and issue the rows' loads together. */
#pragma unroll
    for (int r = 0; r < ROWS; ++r, c += PITCH)
    {
      const int j = j0 + r;
      if (j >= NY)
        break;
      const int n = c + PITCH;
      const real2 hN = vload2(0, h + n), huN = vload2(0, hu + n), hvN = vload2(0, hv + n);
      real2 hn = hc, hun = huc, hvn = hvc; /* dt = 0: the clock has reached its target, no-op */
      if (dt > (real)0)
      {
        real a, b, d;
        lax_friedrichs_cell(FRICTION, dt, inv_dx, MANNING_AT(c), hc.y, huc.y, hvc.y, h[c - 1],
          hu[c - 1], hv[c - 1], hN.x, huN.x, hvN.x, hs.x, hus.x, hvs.x, &a, &b, &d);
        hn.x = a, hun.x = b, hvn.x = d;
        lax_friedrichs_cell(FRICTION, dt, inv_dx, MANNING_AT(c + 1), h[c + 2], hu[c + 2],
          hv[c + 2], hc.x, huc.x, hvc.x, hN.y, huN.y, hvN.y, hs.y, hus.y, hvs.y, &a, &b, &d);
        hn.y = a, hun.y = b, hvn.y = d;
      }
      if (pair)
      {
        vstore2(hn, 0, h_out + c);
        vstore2(hun, 0, hu_out + c);
        vstore2(hvn, 0, hv_out + c);
      }
      else
      {
        h_out[c] = hn.x;
        hu_out[c] = hun.x;
        hv_out[c] = hvn.x;
      }
      finish_cell(h_out, hu_out, hv_out, bed, i, j, c, hn.x, hun.x, hvn.x, &speed, status);
      if (pair)
        finish_cell(h_out, hu_out, hv_out, bed, i + 1, j, c + 1, hn.y, hun.y, hvn.y, &speed,
          status);
      hs = hc, hus = huc, hvs = hvc;
      hc = hN, huc = huN, hvc = hvN;
    }
  }
  publish_group_max_speed(scratch, speed, partial_max);
#if FUSED_CLOCK
  barrier(CLK_GLOBAL_MEM_FENCE); /* the group's bad-cell reports are done before it counts */
  if (local_id_linear() == 0)
    finish_steps_if_last(partial_max, ctrl, status, cfl_dx, fixed_dt, num_groups, 1, (real)0,
      false);
#else
  (void)cfl_dx, (void)fixed_dt, (void)num_groups;
#endif
}

#if TWO_STEPS
/* Temporal blocking: two steps per launch, so the state crosses memory once per two steps. A
 * group's tile is the same WG_X * COLUMNS by WG_Y * ROWS cells as lax_friedrichs_step's; the
 * state after the first step is computed for the tile plus one cell on every side into local
 * memory (the ring is computed by the neighbouring groups too), then the second step from
 * there. Every cell goes through lax_friedrichs_cell() and every ghost through ghost_state()
 * with the same values as in two one-step launches with the same dts, so with a fixed dt the
 * results are the same bits. The second dt: pair_predicted_speed
 * (kernels/schemes/device_clock.h). */
#define MID_W (WG_X * COLUMNS + 2)
#define MID_H (WG_Y * ROWS + 2)
#define MID_CELLS (MID_W * MID_H)

/* The two steps from (h, hu, hv) into the outputs; returns the work-item's largest speed of the
 * final state. check_speed: compare the intermediate state with the predicted speed. */
inline real two_steps(__global const real* h, __global const real* hu, __global const real* hv,
  __global real* h_out, __global real* hu_out, __global real* hv_out, __local real* mid_h,
  __local real* mid_hu, __local real* mid_hv, __global int* status, real dt1, real dt2,
  bool check_speed, real predicted, real manning, real inv_dx, __global const real* manning_field,
  __global const real* bed)
{
  const int lid = local_id_linear();
  /* The global cell of the tile's first (ring) cell. */
  const int x0 = get_group_id(0) * (WG_X * COLUMNS) - 1, y0 = get_group_id(1) * (WG_Y * ROWS) - 1;
  bool fast = false;
  for (int t = lid; t < MID_CELLS; t += WG_SIZE)
  {
    const int ex = t % MID_W, ey = t / MID_W, i = x0 + ex, j = y0 + ey;
    const bool in_x = i >= 0 && i < NX, in_y = j >= 0 && j < NY;
    real a, b, d;
    if (in_x && in_y)
    {
      stepped_cell(true, FRICTION, dt1, inv_dx, manning, manning_field, h, hu, hv, IDX(i, j), &a,
        &b, &d);
      const bool own = ex >= 1 && ex < MID_W - 1 && ey >= 1 && ey < MID_H - 1;
      if (own && !is_physical(a, b, d))
        atomic_min(&status[STATUS_BAD_MID], j * NX + i);
      /* (checked here, not in the second loop, which measured slower: see PERFORMANCE.md,
       * 'Decisions that stand') */
      else if (own)
        /* (Choosing INFINITY in the kernel before the call instead takes more registers, so
         * fewer groups run at once: see PERFORMANCE.md, 'Decisions that stand'.) */
        fast |= !speed_at_most(a, b, d, check_speed ? predicted : (real)INFINITY);
    }
    else if (in_x != in_y && i >= -1 && i <= NX && j >= -1 && j <= NY)
    {
      /* A ghost of layer 1 (the only one read): from the new state of the cell inside it, as
       * write_ghosts_of() makes it. Corners are never read. */
      const int c = IDX(clamp(i, 0, NX - 1), clamp(j, 0, NY - 1));
      GhostCell cell;
      stepped_cell(true, FRICTION, dt1, inv_dx, manning, manning_field, h, hu, hv, c, &cell.h,
        &cell.hu, &cell.hv);
      cell.b = bed[c];
      const GhostCell g = ghost_beyond(i, j, cell, cell, (real)0); /* (no side series) */
      a = g.h, b = g.hu, d = g.hv;
    }
    else
      continue; /* past the grid and its first ghost layer: never read */
    mid_h[t] = a, mid_hu[t] = b, mid_hv[t] = d;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  real speed = (real)0;
  for (int r = 0; r < ROWS; ++r)
    for (int k = 0; k < COLUMNS; ++k)
    {
      /* Columns WG_X apart, so that a row of the group stores contiguous cells. */
      const int ex = 1 + get_local_id(0) + k * WG_X, ey = 1 + get_local_id(1) + r * WG_Y;
      const int i = x0 + ex, j = y0 + ey, t = ey * MID_W + ex;
      if (i >= NX || j >= NY)
        continue;
      const int c = IDX(i, j);
      real hn = mid_h[t], hun = mid_hu[t], hvn = mid_hv[t];
      if (dt2 > (real)0)
        lax_friedrichs_cell(FRICTION, dt2, inv_dx, MANNING_AT(c), mid_h[t + 1], mid_hu[t + 1],
          mid_hv[t + 1], mid_h[t - 1], mid_hu[t - 1], mid_hv[t - 1], mid_h[t + MID_W],
          mid_hu[t + MID_W], mid_hv[t + MID_W], mid_h[t - MID_W], mid_hu[t - MID_W],
          mid_hv[t - MID_W], &hn, &hun, &hvn);
      h_out[c] = hn;
      hu_out[c] = hun;
      hv_out[c] = hvn;
      finish_cell(h_out, hu_out, hv_out, bed, i, j, c, hn, hun, hvn, &speed, status);
    }
  if (fast) /* rare: one store per work-item that saw it */
    atomic_max(&status[STATUS_MID_FAST], 1);
  return speed;
}

/* Whether a launch is committed is known only on the device, so the device keeps which copy
 * holds the state (STATUS_PARITY); the host queues launches reading copy 0 and copy 1 in turn
 * (`parity`: the copy this one reads), and a launch whose copy does not hold the state does
 * nothing, as does a no-op launch. (Choosing the input copy on the device instead, by a pointer
 * or by a call per copy, measured slower: see PERFORMANCE.md, 'Decisions that stand'.) */
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
lax_friedrichs_two_steps(GPU_STEP_ARGUMENTS, const int parity)
{
  __local real mid_h[MID_CELLS], mid_hu[MID_CELLS], mid_hv[MID_CELLS];
  const real dt1 = ctrl[CTRL_DT];
  /* Target or step limit reached, a blow-up reported, or the state in the other copy: the
   * same for every group. */
  if (!(dt1 > (real)0) || status[STATUS_PARITY] != parity)
    return;
  bool landing2;
  const real dt2 = pair_second_dt(ctrl, status, cfl_dx, fixed_dt, &landing2);
  /* (With a fixed dt the check is against the Courant limit: pair_predicted_speed.) */
  const real speed = two_steps(h, hu, hv, h_out, hu_out, hv_out, mid_h, mid_hu, mid_hv, status,
    dt1, dt2, dt2 > (real)0, pair_predicted_speed(ctrl, fixed_dt), manning, inv_dx, manning_field,
    bed);
  barrier(CLK_LOCAL_MEM_FENCE); /* the intermediate state is read: its memory is the scratch */
  publish_group_max_speed(mid_h, speed, partial_max);
  barrier(CLK_GLOBAL_MEM_FENCE); /* the group's bad-cell reports are done before it counts */
  if (local_id_linear() == 0)
    finish_steps_if_last(partial_max, ctrl, status, cfl_dx, fixed_dt, num_groups, 2, dt2,
      landing2);
}
#endif

DEFINE_LAX_FRIEDRICHS_CELL(lax_friedrichs_cells, realv)

/* One row of the CPU-shaped step: 8 cells at a time with explicit vectors (the kernel compiler
 * does not vectorise the scalar loop by itself), the rest one by one. step and friction are
 * constants where it is inlined, so the loops have no branch on them. Speeds are >= 0, so the
 * maximum of their bit patterns is the bit pattern of their maximum. */
inline void row_update(bool step, bool friction, real dt, real inv_dx, real manning,
  __global const real* restrict manning_field, __global const real* restrict h,
  __global const real* restrict hu, __global const real* restrict hv,
  __global real* restrict h_out, __global real* restrict hu_out, __global real* restrict hv_out,
  int j, real_bits* speed_bits, int* bad)
{
  const int row = IDX(0, j);
  real_bitsv mv = (real_bitsv)(0);
  int first_bad = *bad;
  int i = 0;
  for (; i + 8 <= NX; i += 8)
  {
    const int c = row + i;
    realv hn = vload8(0, h + c), hun = vload8(0, hu + c), hvn = vload8(0, hv + c);
    if (step)
      lax_friedrichs_cells(friction, dt, inv_dx, MANNING_V(c), vload8(0, h + c + 1),
        vload8(0, hu + c + 1), vload8(0, hv + c + 1), vload8(0, h + c - 1), vload8(0, hu + c - 1),
        vload8(0, hv + c - 1), vload8(0, h + c + PITCH), vload8(0, hu + c + PITCH),
        vload8(0, hv + c + PITCH), vload8(0, h + c - PITCH), vload8(0, hu + c - PITCH),
        vload8(0, hv + c - PITCH), &hn, &hun, &hvn);
    vstore8(hn, 0, h_out + c);
    vstore8(hun, 0, hu_out + c);
    vstore8(hvn, 0, hv_out + c);
    /* (only the cells the rank owns count: grid.h, OWNED) */
    const maskv owned = OWNED_LANES(realv, ((realv)(0, 1, 2, 3, 4, 5, 6, 7)), i, j);
    const maskv ok = hn > (real)0 && isfinite(hn) && isfinite(hun) && isfinite(hvn);
    mv = max(mv, REAL_BITSV(WAVE_SPEED_WHERE(realv, ok && owned, hn, hun, hvn)));
    if (any(owned && !ok))
      for (int k = 0; k < 8; ++k)
        if (OWNED(i + k, j) && !is_physical(h_out[c + k], hu_out[c + k], hv_out[c + k]))
          first_bad = min(first_bad, j * NX + i + k);
  }
  real_bits m =
    max(max(max(mv.s0, mv.s1), max(mv.s2, mv.s3)), max(max(mv.s4, mv.s5), max(mv.s6, mv.s7)));
  for (; i < NX; ++i)
  {
    const int c = row + i;
    real hn, hun, hvn;
    stepped_cell(step, friction, dt, inv_dx, manning, manning_field, h, hu, hv, c, &hn, &hun, &hvn);
    h_out[c] = hn;
    hu_out[c] = hun;
    hv_out[c] = hvn;
    const bool ok = is_physical(hn, hun, hvn), owned = OWNED(i, j);
    m = max(m, REAL_BITS(WAVE_SPEED_WHERE(real, ok && owned, hn, hun, hvn)));
    first_bad = min(first_bad, ok || !owned ? INT_MAX : j * NX + i);
  }
  *speed_bits = max(*speed_bits, m);
  *bad = first_bad;
}

/* The CPU-shaped step (thesis 5.x, seed 000's CPU reduction): few work-items, each updating
 * BLOCK_ROWS whole rows, one work-item per group. The loop along a row is plain, contiguous and
 * branch-free, so the kernel compiler can vectorise it; nothing is shared, so no barriers. The
 * arithmetic is lax_friedrichs_cell(), as in the GPU-shaped kernel, so the results are the
 * same bits. Needs the atomic speed maximum (every device with 64-bit atomics for fp64). */
#if SPEED_MAX_ATOMIC
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
lax_friedrichs_rows(__global const real* restrict h, __global const real* restrict hu,
                    __global const real* restrict hv, __global real* restrict h_out,
                    __global real* restrict hu_out, __global real* restrict hv_out,
                    __global real* ctrl, __global int* status, __global real* partial_max,
                    const real manning, const real inv_dx,
                    __global const real* restrict manning_field, __global const real* bed,
                    const real cfl_dx, const real fixed_dt, const int num_groups)
{
  const int j0 = get_global_id(0) * BLOCK_ROWS;
  const real dt = ctrl[CTRL_DT];
  real_bits speed_bits = 0;
  int bad = INT_MAX;
  const bool friction = FRICTION;
  for (int j = j0; j < min(j0 + BLOCK_ROWS, NY); ++j)
  {
    /* Loop versions without branches inside: a no-op (dt = 0), with or without friction. */
    if (!(dt > (real)0))
      row_update(false, false, dt, inv_dx, manning, manning_field, h, hu, hv, h_out, hu_out,
        hv_out, j, &speed_bits, &bad);
    else if (friction)
      row_update(true, true, dt, inv_dx, manning, manning_field, h, hu, hv, h_out, hu_out, hv_out,
        j, &speed_bits, &bad);
    else
      row_update(true, false, dt, inv_dx, manning, manning_field, h, hu, hv, h_out, hu_out,
        hv_out, j, &speed_bits, &bad);
  }
  /* The ghosts of the new state (layer 1), from the boundary cells written above: the first and
   * last cell of each row, every cell of the first and last rows. */
  for (int j = j0; j < min(j0 + BLOCK_ROWS, NY); ++j)
  {
    const int step = (j == 0 || j == NY - 1) ? 1 : max(NX - 1, 1);
    for (int i = 0; i < NX; i += step)
    {
      const int c = IDX(i, j);
      GhostCell cell;
      cell.h = h_out[c], cell.hu = hu_out[c], cell.hv = hv_out[c], cell.b = bed[c];
      write_ghosts_of(h_out, hu_out, hv_out, i, j, c, cell);
    }
  }
  ATOMIC_MAX_SPEED(partial_max, BITS_REAL(speed_bits));
  if (bad != INT_MAX)
    atomic_min(&status[STATUS_BAD_CELL], bad);
#if FUSED_CLOCK
  finish_steps_if_last(partial_max, ctrl, status, cfl_dx, fixed_dt, num_groups, 1, (real)0, false);
#else
  (void)cfl_dx, (void)fixed_dt, (void)num_groups;
#endif
}
#endif
