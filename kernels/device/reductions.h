/* Reductions across a work-group (trees in local memory) and across the groups of a launch (the
 * wave-speed maximum the clock chooses dt from, and the last group to finish). */
#ifndef SWE_REDUCTIONS_H
#define SWE_REDUCTIONS_H

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
 * partial_max[0] replaces a partial per group: compute_dt (and every group of
 * fill_ghosts_choose_dt) then reads one value instead of tens of thousands (a single work-group
 * reading them serially held up every step: see PERFORMANCE.md, 'Decisions that stand'). fp64 needs
 * 64-bit atomics; without them each group keeps its own partial, and each reader reads them all.
 * -DSWE_NO_SPEED_ATOMICS takes that path on any device (the host then keeps the clock as without
 * them; for tests). */
#if !defined(SWE_NO_SPEED_ATOMICS) &&                                                              \
  (!defined(SWE_DOUBLE) || defined(cl_khr_int64_extended_atomics))
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

/* First stage of the wave-speed maximum: a group's largest speed into partial_max (see above),
 * by one work-item of the group. */
inline void publish_speed(real group_speed, __global real* partial_max)
{
#if SPEED_MAX_ATOMIC
  ATOMIC_MAX_SPEED(partial_max, group_speed);
#else
  partial_max[group_id_linear()] = group_speed;
#endif
}

/* The same from every work-item's speed: every work-item of the group must call it. */
inline void publish_group_max_speed(__local real* scratch, real speed, __global real* partial_max)
{
  const real group_speed = group_max(scratch, speed, local_id_linear(), WG_SIZE);
  if (local_id_linear() == 0)
    publish_speed(group_speed, partial_max);
}

/* The largest speed the step's groups published, taken and reset to 0 for the next step. */
#if SPEED_MAX_ATOMIC
#ifdef SWE_DOUBLE
#define TAKE_MAX_SPEED(p) as_double(atom_xchg((volatile __global ulong*)(p), (ulong)0))
#else
#define TAKE_MAX_SPEED(p) as_float(atomic_xchg((volatile __global uint*)(p), 0u))
#endif
#endif

/* Whether this group is the last of its kernel to finish: then every other group's writes and
 * reads before it counted are done (each fences them before it counts; what the step kernels
 * publish, their maxima and bad cells, is read back atomically). Called by one work-item per
 * group. */
inline bool last_group_to_finish(__global int* status, int num_groups)
{
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  if (atomic_inc(&status[STATUS_GROUPS_DONE]) != num_groups - 1)
    return false;
  status[STATUS_GROUPS_DONE] = 0; /* every other group has counted: ready for the next step */
  return true;
}

#endif
