/* Reductions: a per-group first stage over the grid, then one work-group finishes on the device
 * (seeds 000 and 002), so the host never waits for a partial result. */

/* First stage of the wave-speed maximum, for a state no step has produced (start, restart); its
 * groups cover the same cells as the step kernel's (ROWS rows per work-item). */
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
wave_speed_partials(__global const real* h, __global const real* hu, __global const real* hv,
                    __global real* partial_max)
{
  __local real scratch[WG_SIZE];
  const int i = get_global_id(0), j0 = get_global_id(1) * ROWS;
  real speed = (real)0;
  if (i < NX)
    for (int j = j0; j < min(j0 + ROWS, NY); ++j)
    {
      const int c = IDX(i, j);
      speed = fmax(speed, wave_speed(h[c], hu[c], hv[c]));
    }
  publish_group_max_speed(scratch, speed, partial_max);
}

/* Second stage and the clock: one work-group of REDUCE_WG items. Chooses this step's dt, advances
 * the simulated time held in ctrl, and freezes the clock (dt = 0) once the target is reached or a
 * non-physical cell was reported, so that extra launches queued by the host are harmless no-ops.
 * fixed_dt > 0 selects the fixed-step mode; otherwise dt = cfl * dx / max wave speed. */
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void
compute_dt(__global real* partial_max, const int num_partials, __global real* ctrl,
           __global int* status, const real cfl_dx, const real fixed_dt)
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
    m = fmax(m, partial_max[k]);
  m = group_max(scratch, m, lid, REDUCE_WG);
  if (lid != 0)
    return;
#endif
  real dt = (real)0;
  if (status[STATUS_BAD_CELL] != INT_MAX)
  {
    if (status[STATUS_BAD_STEP] < 0)
      status[STATUS_BAD_STEP] = status[STATUS_STEPS];
  }
  else
  {
    const real t = ctrl[CTRL_TIME];
    const real remaining = ctrl[CTRL_TARGET] - (t - ctrl[CTRL_TIME_COMP]);
    if (remaining > (real)0)
    {
      if (fixed_dt > (real)0)
        dt = fixed_dt;
      else
      {
        dt = m > (real)0 ? cfl_dx / m : remaining;
        /* Split the last two steps evenly rather than leave a sliver of a step. */
        if (remaining < (real)2 * dt && remaining > dt)
          dt = (real)0.5 * remaining;
      }
      if (dt >= remaining)
      {
        /* Land exactly on the target. */
        dt = remaining;
        ctrl[CTRL_TIME] = ctrl[CTRL_TARGET];
        ctrl[CTRL_TIME_COMP] = (real)0;
      }
      else
      {
        /* Kahan summation of the clock. */
        const real y = dt - ctrl[CTRL_TIME_COMP];
        const real sum = t + y;
        ctrl[CTRL_TIME_COMP] = (sum - t) - y;
        ctrl[CTRL_TIME] = sum;
      }
      ctrl[CTRL_LAST_DT] = dt;
      status[STATUS_STEPS] += 1;
    }
  }
  ctrl[CTRL_DT] = dt;
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
