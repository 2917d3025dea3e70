/* Shared definitions for every shallow-water kernel.
 * The host compiles the same source for fp32 and fp64 by defining REAL (float|double), and passes
 * the grid shape and work-group shape as -D defines so that indexing folds to constants. */
#ifndef SWE_COMMON_H
#define SWE_COMMON_H

#ifdef SWE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#else
typedef float real;
#endif

/* No fused multiply-add contraction: the C++ twin (the test oracle) rounds every operation, and
 * FMAs would buy little here but disagreement. */
#pragma OPENCL FP_CONTRACT OFF

/* Grid: NX x NY interior cells, GHOST layers on each side, x fastest (row-major by y). */
#ifndef GHOST
#define GHOST 2
#endif
#define PITCH (NX + 2 * GHOST)
#define IDX(i, j) (((j) + GHOST) * PITCH + (i) + GHOST)
#define WG_SIZE (WG_X * WG_Y)
/* Rows of cells one work-item of the Lax-Friedrichs step updates (the second-order stage: 1). */
#ifndef ROWS
#define ROWS 1
#endif
/* Whole rows one work-item of the CPU-shaped Lax-Friedrichs step updates. */
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 16
#endif

/* Layout of the small control buffer that keeps the clock on the device (no per-step host read). */
#define CTRL_TIME 0      /* simulated time t */
#define CTRL_TIME_COMP 1 /* Kahan compensation of t, so fp32 clocks do not drift */
#define CTRL_DT 2        /* dt of the step being taken (0: the step is a no-op) */
#define CTRL_TARGET 3    /* time the host asked to reach; steps never pass it */
#define CTRL_LAST_DT 4   /* last non-zero dt, for the host's step estimate */
#define CTRL_SIZE 5

/* Layout of the integer status buffer. */
#define STATUS_STEPS 0 /* steps taken since t = 0 */
#define STATUS_BAD_CELL                                                                            \
  1 /* smallest linear interior index of a non-physical cell, INT_MAX if none */
#define STATUS_BAD_STEP 2 /* step at which it was seen, -1 if none */
#define STATUS_SIZE 3

/* Manning coefficient of cell c: per cell when the host passed a field (-DMANNING_FIELD), else
 * the uniform value. */
#ifdef MANNING_FIELD
#define MANNING_AT(c) (manning_field[(c)])
#else
#define MANNING_AT(c) (manning)
#endif

/* Largest signal speed of a cell: max(|u| + c, |v| + c), c = sqrt(g h). */
inline real wave_speed(real h, real hu, real hv)
{
  if (!(h > (real)H_DRY)) /* dry: no wave, and no velocity to trust */
    return (real)0;
  const real c = sqrt((real)GRAVITY * h);
  const real inv = (real)1 / h;
  const real u = hu * inv, v = hv * inv;
  return fmax(fabs(u) + c, fabs(v) + c);
}

/* A state is physical when the depth is positive and every value finite (catches NaN and Inf). */
inline bool is_physical(real h, real hu, real hv)
{
  return h > (real)0 && isfinite(h) && isfinite(hu) && isfinite(hv);
}

/* Tree reductions in local memory (seed 000/002): every work-item of the group must call them;
 * size is the work-group size, a power of two. */
inline real group_max(__local real* scratch, real value, int lid, int size)
{
  scratch[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride >>= 1)
  {
    if (lid < stride)
      scratch[lid] = fmax(scratch[lid], scratch[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const real result = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

inline real group_sum(__local real* scratch, real value, int lid, int size)
{
  scratch[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = size / 2; stride > 0; stride >>= 1)
  {
    if (lid < stride)
      scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const real result = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

inline int group_id_linear(void)
{
  return get_group_id(1) * get_num_groups(0) + get_group_id(0);
}

inline int local_id_linear(void)
{
  return get_local_id(1) * WG_X + get_local_id(0);
}

/* The wave-speed maximum across groups. Speeds are >= 0, and non-negative IEEE numbers order like
 * their bit patterns as unsigned integers, so one atomic max per group on those bits into
 * partial_max[0] replaces a partial per group: compute_dt then reads one value instead of tens of
 * thousands (a single work-group reading them serially cost about 10 % of a step on a GPU). fp64
 * needs 64-bit atomics; without them each group keeps its own partial. */
#if !defined(SWE_DOUBLE) || defined(cl_khr_int64_extended_atomics)
#define SPEED_MAX_ATOMIC 1
#ifdef SWE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define ATOMIC_MAX_SPEED(p, v) atom_max((volatile __global ulong*)(p), as_ulong(v))
#else
#define ATOMIC_MAX_SPEED(p, v) atomic_max((volatile __global uint*)(p), as_uint(v))
#endif
#else
#define SPEED_MAX_ATOMIC 0
#endif

/* First stage of the wave-speed maximum: the group's largest speed into partial_max (see above).
 * Every work-item of the group must call it. */
inline void publish_group_max_speed(__local real* scratch, real speed, __global real* partial_max)
{
  const real group_speed = group_max(scratch, speed, local_id_linear(), WG_SIZE);
  if (local_id_linear() == 0)
  {
#if SPEED_MAX_ATOMIC
    ATOMIC_MAX_SPEED(partial_max, group_speed);
#else
    partial_max[group_id_linear()] = group_speed;
#endif
  }
}

#endif
