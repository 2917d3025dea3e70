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
      if (OWNED(i, j))
        speed = fmax(speed, wave_speed(h[c], hu[c], hv[c]));
    }
  publish_group_max_speed(scratch, speed, partial_max);
}

/* Second stage of the wave-speed maximum: the largest speed the last step published (or a fresh
 * state's), read, not reset. Every work-item of a group of REDUCE_WG items calls it. */
inline real published_speed(__local real* scratch, __global const real* partial_max,
  int num_partials)
{
#if SPEED_MAX_ATOMIC
  (void)scratch;
  (void)num_partials;
  return partial_max[0];
#else
  real m = (real)0;
  for (int k = get_local_id(0); k < num_partials; k += REDUCE_WG)
    m = fmax(m, partial_max[k]);
  return group_max(scratch, m, get_local_id(0), REDUCE_WG);
#endif
}

/* Once every group has read the speeds (published_speed: m), by every work-item of one group:
 * the speeds reset for the next step's maxima (so kernels with fewer groups leave no stale
 * partials; m kept for a no-op step), then the clock (see choose_dt). commit_now = 1 (the
 * second-order schemes): choose dt and count the step about to run. commit_now = 0
 * (Lax-Friedrichs, whose step commits itself): only choose, from the maximum the last step left in ctrl and any published since (a fresh
 * state's); used when a state is loaded and when the host sets a new target. held = 1: dt stays
 * the one chosen at the exchange interval's first step (choose_dt). Before it commits a step, it
 * keeps the time and dt of the state the step reads, for the flood maps' fold in the sweeps
 * (keep_fold_clock). */
inline void reset_speeds_choose_dt(real m, __global real* partial_max, int num_partials,
  __global real* ctrl, __global int* status, real cfl_dx, real fixed_dt, int commit_now,
  int held)
{
  const int lid = get_local_id(0);
#if SPEED_MAX_ATOMIC
  if (lid == 0)
    partial_max[0] = (real)0;
#else
  for (int k = lid; k < num_partials; k += REDUCE_WG)
    partial_max[k] = (real)0;
#endif
  if (lid != 0)
    return;
  if (!commit_now)
    m = fmax(m, ctrl[CTRL_MAX_SPEED]);
  choose_dt(ctrl, status, status[STATUS_BAD_CELL], m, cfl_dx, fixed_dt, held != 0);
  if (commit_now)
  {
    keep_fold_clock(ctrl);
    commit_dt(ctrl, status);
    /* A no-op step (at the target, or at the step limit) publishes no speeds: the ones it read
     * stand for the next step, so that its dt is the same however many no-op steps a batch held
     * (the state's own would differ where point sources or infiltration changed it after the
     * step that published them). */
    if (!(ctrl[CTRL_DT] > (real)0))
      partial_max[0] = m;
  }
}

__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void
compute_dt(__global real* partial_max, const int num_partials, __global real* ctrl,
           __global int* status, const real cfl_dx, const real fixed_dt, const int commit_now,
           const int held)
{
  __local real scratch[REDUCE_WG];
  const real m = published_speed(scratch, partial_max, num_partials);
  reset_speeds_choose_dt(
    m, partial_max, num_partials, ctrl, status, cfl_dx, fixed_dt, commit_now, held);
}

/* A second-order step's start in one launch, not two (a launch's overhead less a step, which
 * counts on grids that do not fill a GPU: see PERFORMANCE.md, 'Decisions that stand'): the ghosts
 * of the state it reads, then
 * compute_dt's choice and commit (commit_now = 1) by the last group to finish. Every group reads
 * the state's time and the speeds before it counts, so that group resets and commits after all
 * have read them. (No barrier under a condition: PoCL runs such code wrongly.) */
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void
fill_ghosts_choose_dt(__global real* h, __global real* hu, __global real* hv,
                      __global real* bed, __global real* ctrl, __global real* partial_max,
                      const int num_partials, __global int* status, const real cfl_dx,
                      const real fixed_dt, const int held)
{
  __local real scratch[REDUCE_WG];
  __local int last;
  fill_ghost(get_global_id(0), h, hu, hv, bed, ghost_time(ctrl));
  const real m = published_speed(scratch, partial_max, num_partials);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    last = last_group_to_finish(status, get_num_groups(0)) ? 1 : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (last)
    reset_speeds_choose_dt(m, partial_max, num_partials, ctrl, status, cfl_dx, fixed_dt, 1, held);
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
  if (i < NX && j < NY && OWNED(i, j))
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

/* The bounds of a frame's derived values (solver/FrameRow.h, FrameRanges), on a GPU, so that the
 * host's pass over the frame need not gather them: per group, the minimum and maximum of depth,
 * surface, momentum x and y, velocity x and y, and the squared norms of momentum and velocity,
 * as doubles, then a flag. Each value is the one the host makes, to the bit: in fp32 the sums,
 * reciprocals and products are taken exactly or correctly rounded in fp64 and rounded to fp32
 * once (as the host's fp32 operations round them; denormal results too, which the host keeps),
 * the squared norms in fp64 without fused multiply-adds, as VTK computes them. The fp32 program
 * flushes denormal inputs, the host does not: a denormal h, hu, hv or bed (the steps never leave
 * one) raises the flag, and the bounds are then left to VTK.
 * fmin/fmax skip NaN, as VTK's GetRange does. Needs fp64. */
#if defined(SWE_DOUBLE) || defined(cl_khr_fp64)
#ifndef SWE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define RANGE_VALUES 17 /* 8 (min, max) pairs and the flag */

#ifndef SWE_DOUBLE
/* Whether an fp32 value is denormal, by its bits (a flushing comparison would call it 0). */
inline int denormal_bits(float x)
{
  const uint bits = as_uint(x);
  return (bits & 0x7f800000u) == 0u && (bits & 0x007fffffu) != 0u;
}
/* x rounded to the nearest fp32 value, denormals included, kept in fp64: the conversion itself
 * may flush in this program (-cl-denorms-are-zero), the fp64 scaling to the denormals' grid of
 * 2^-149 and rint (to nearest, ties to even) do not. */
inline double round_to_float(double x)
{
  return fabs(x) < (double)FLT_MIN ? rint(x * 0x1p149) * 0x1p-149 : (double)(float)x;
}
#endif

/* Takes one cell's values into the bounds; bed is the device's, relative to the local datum, and
 * goes back above it as the host's Bed array does (solver/LocalDatum.h). */
inline void take_cell(const real depth, const real x, const real y, const real device_bed,
                      double* low, double* high, double* flag)
{
#ifdef MANNING_FIELD
  /* (a closed cell's wall, kClosedBed, has no surface: NaN, which the bounds skip) */
  const real bed = device_bed < (real)(0.5 * CLOSED_BED) ? device_bed : (real)NAN;
#else
  const real bed = device_bed;
#endif
#ifdef SWE_DOUBLE
  const double b = bed + ELEVATION_DATUM;
  const double surface = depth + b;
  const double inverse = depth > 0.0 ? 1.0 / depth : 0.0;
  const double u = x * inverse, v = y * inverse;
#else
  const double b = round_to_float((double)bed + ELEVATION_DATUM);
  const double surface = round_to_float((double)depth + b);
  const double inverse = depth > 0.0f ? round_to_float(1.0 / (double)depth) : 0.0;
  const double u = round_to_float((double)x * inverse), v = round_to_float((double)y * inverse);
  if (denormal_bits(depth) || denormal_bits(x) || denormal_bits(y) || denormal_bits(bed) ||
      (b != 0.0 && fabs(b) < (double)FLT_MIN))
    *flag = 1.0;
#endif
  const double values[8] = { depth, surface, x, y, u, v,
                             (double)x * (double)x + (double)y * (double)y, u * u + v * v };
  /* (every loop over the bounds unrolled: indexed only by constants, they stay in registers) */
#pragma unroll
  for (int q = 0; q < 8; ++q)
  {
    low[q] = fmin(low[q], values[q]);
    high[q] = fmax(high[q], values[q]);
  }
}

/* Packs h, hu, hv of the interior cells (the live copy of the state) into packed, one field after
 * the other as the host view holds them (what packState's rectangle copies do), and takes the
 * frame's bounds on the way: one pass over the state instead of a copy and a reduction. A group
 * a row (NY groups at most), its items along the row. */
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void
pack_frame_state(__global const real* h, __global const real* hu, __global const real* hv,
                 __global const real* bed, __global real* packed, __global double* partials)
{
#pragma OPENCL FP_CONTRACT OFF
  __local double scratch[REDUCE_WG];
  double low[8], high[8];
#pragma unroll
  for (int q = 0; q < 8; ++q)
  {
    low[q] = INFINITY;
    high[q] = -INFINITY;
  }
  double flag = 0.0;
  /* (the cells the rank owns: grid.h, OWNED) */
  const int cells = OWN_NX * OWN_NY;
  for (int j = get_group_id(0); j < OWN_NY; j += get_num_groups(0))
    for (int i = get_local_id(0); i < OWN_NX; i += REDUCE_WG)
    {
      const int c = j * OWN_NX + i, k = IDX(OWN_I0 + i, OWN_J0 + j);
      const real depth = h[k], x = hu[k], y = hv[k];
      packed[c] = depth;
      packed[cells + c] = x;
      packed[2 * cells + c] = y;
      take_cell(depth, x, y, bed[k], low, high, &flag);
    }
  /* Group-wide, each bound in turn through local memory. */
  const int lid = get_local_id(0);
#pragma unroll
  for (int k = 0; k < RANGE_VALUES; ++k)
  {
    scratch[lid] = k == 16 ? flag : (k % 2 ? high[k / 2] : low[k / 2]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = REDUCE_WG / 2; stride > 0; stride >>= 1)
    {
      if (lid < stride)
        scratch[lid] = k % 2 == 1 || k == 16 ? fmax(scratch[lid], scratch[lid + stride])
                                             : fmin(scratch[lid], scratch[lid + stride]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
      partials[get_group_id(0) * RANGE_VALUES + k] = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif
