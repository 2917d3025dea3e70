/* Reductions: a per-group first stage over the grid, then one work-group finishes on the device
 * (seeds 000 and 002), so the host never waits for a partial result. */

/* First stage of the wave-speed maximum, for a state no step has produced (start, restart); its
 * groups cover the same cells as the step kernel's (COLUMNS x ROWS cells per work-item). */
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
wave_speed_partials(__global const real* h, __global const real* hu, __global const real* hv,
                    __global real* partial_max)
{
  __local real scratch[WG_SIZE];
  const int i0 = get_global_id(0) * COLUMNS, j0 = get_global_id(1) * ROWS;
  real speed = (real)0;
  for (int i = i0; i < min(i0 + COLUMNS, NX); ++i)
    for (int j = j0; j < min(j0 + ROWS, NY); ++j)
    {
      const int c = IDX(i, j);
      speed = fmax(speed, wave_speed(h[c], hu[c], hv[c]));
    }
  publish_group_max_speed(scratch, speed, partial_max);
}

/* Second stage of the wave-speed maximum and the clock (see choose_dt): one work-group of
 * REDUCE_WG items. commit_now = 1 (MUSCL-HLLC): choose dt and count the step about to run.
 * commit_now = 0 (Lax-Friedrichs, whose step commits itself): only choose, from the maximum the
 * last step left in ctrl and any published since (a fresh state's); used when a state is loaded
 * and when the host sets a new target. */
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void
compute_dt(__global real* partial_max, const int num_partials, __global real* ctrl,
           __global int* status, const real cfl_dx, const real fixed_dt, const int commit_now)
{
  __local real scratch[REDUCE_WG];
  const int lid = get_local_id(0);
  real m = (real)0;
#if SPEED_MAX_ATOMIC
  (void)scratch;
  if (lid != 0)
    return;
  m = partial_max[0];
  partial_max[0] = (real)0; /* ready for the next step's maxima */
#else
  for (int k = lid; k < num_partials; k += REDUCE_WG)
  {
    m = fmax(m, partial_max[k]);
    partial_max[k] = (real)0; /* kernels with fewer groups leave no stale partials */
  }
  m = group_max(scratch, m, lid, REDUCE_WG);
  if (lid != 0)
    return;
#endif
  if (!commit_now)
    m = fmax(m, ctrl[CTRL_MAX_SPEED]);
  choose_dt(ctrl, status, status[STATUS_BAD_CELL], m, cfl_dx, fixed_dt);
  if (commit_now)
    commit_dt(ctrl, status);
}

/* Diagnostics, first stage: per-group sum of depth, max depth, max wave speed. */
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
diagnostics_partials(__global const real* h, __global const real* hu, __global const real* hv,
                     __global real* partial_sum, __global real* partial_max_depth,
                     __global real* partial_max_speed)
{
  __local real scratch[WG_SIZE];
  const int i = get_global_id(0), j = get_global_id(1);
  real depth = (real)0, speed = (real)0;
  if (i < NX && j < NY)
  {
    const int c = IDX(i, j);
    depth = h[c];
    speed = depth > (real)0 ? sqrt(hu[c] * hu[c] + hv[c] * hv[c]) / depth : (real)0;
  }
  const int lid = local_id_linear(), group = group_id_linear();
  const real sum = group_sum(scratch, depth, lid, WG_SIZE);
  const real max_depth = group_max(scratch, depth, lid, WG_SIZE);
  const real max_speed = group_max(scratch, speed, lid, WG_SIZE);
  if (lid == 0)
  {
    partial_sum[group] = sum;
    partial_max_depth[group] = max_depth;
    partial_max_speed[group] = max_speed;
  }
}

/* Diagnostics, second stage: result = {sum of depth, max depth, max speed}. */
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void
diagnostics_final(__global const real* partial_sum, __global const real* partial_max_depth,
                  __global const real* partial_max_speed, const int num_partials,
                  __global real* result)
{
  __local real scratch[REDUCE_WG];
  const int lid = get_local_id(0);
  real sum = (real)0, max_depth = (real)0, max_speed = (real)0;
  for (int k = lid; k < num_partials; k += REDUCE_WG)
  {
    sum += partial_sum[k];
    max_depth = fmax(max_depth, partial_max_depth[k]);
    max_speed = fmax(max_speed, partial_max_speed[k]);
  }
  sum = group_sum(scratch, sum, lid, REDUCE_WG);
  max_depth = group_max(scratch, max_depth, lid, REDUCE_WG);
  max_speed = group_max(scratch, max_speed, lid, REDUCE_WG);
  if (lid == 0)
  {
    result[0] = sum;
    result[1] = max_depth;
    result[2] = max_speed;
  }
}
