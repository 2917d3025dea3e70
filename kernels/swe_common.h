/* Shared definitions for every shallow-water kernel.
 * The host compiles the same source for fp32 and fp64 by defining REAL (float|double), and passes
 * the grid shape and work-group shape as -D defines so that indexing folds to constants. */
#ifndef SWE_COMMON_H
#define SWE_COMMON_H

#ifdef SWE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
#else
typedef float real;
typedef float2 real2;
#endif

/* The CPU-shaped Lax-Friedrichs kernel's types: 8 cells at a time; speeds as bit patterns. */
#ifdef SWE_DOUBLE
typedef double8 realv;
typedef long8 maskv;
typedef ulong real_bits;
typedef ulong8 real_bitsv;
#define REAL_BITS(x) as_ulong(x)
#define REAL_BITSV(x) as_ulong8(x)
#define BITS_REAL(x) as_double(x)
#else
typedef float8 realv;
typedef int8 maskv;
typedef uint real_bits;
typedef uint8 real_bitsv;
#define REAL_BITS(x) as_uint(x)
#define REAL_BITSV(x) as_uint8(x)
#define BITS_REAL(x) as_float(x)
#endif
#ifdef MANNING_FIELD
#define MANNING_V(c) vload8(0, manning_field + (c))
#else
#define MANNING_V(c) ((realv)(manning))
#endif

/* The CPU-shaped second-order kernels' types (muscl_hllc.cl): MUSCL_LANES cells at a time, 16
 * where the device prefers vectors that wide in the precision (AVX-512 in fp32), else 8. */
#if MUSCL_LANES == 16
#ifdef SWE_DOUBLE
typedef double16 realm;
typedef long16 maskm;
#else
typedef float16 realm;
typedef int16 maskm;
#endif
#define VLOADM vload16
#define VSTOREM vstore16
#define LANE_INDEX ((realm)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#elif MUSCL_LANES == 8
typedef realv realm;
typedef maskv maskm;
#define VLOADM vload8
#define VSTOREM vstore8
#define LANE_INDEX ((realm)(0, 1, 2, 3, 4, 5, 6, 7))
#elif defined(MUSCL_LANES)
#error "MUSCL_LANES must be 8 or 16"
#endif

/* 1 / x and sqrt(x) in fp64 on GPUs (the host builds with -DNEWTON_FP64=1 for GPU devices):
 * NVIDIA's fp64 division and square root are long software sequences with slow-path branches.
 * - real_recip: float's native estimate (2^-23 on NVIDIA's), then two Newton steps (about
 *   2^-46, then before its last rounding within about 2^-88 of 1 / x). It made fp64 two-step
 *   Lax-Friedrichs 25 % faster on the H200 (PERFORMANCE.md).
 * - real_sqrt (the second order's celerities): float's 1 / sqrt(x) (within 2 ulp by OpenCL's
 *   rules), one Newton step (about 2^-44), then x times that, corrected once: within about
 *   2^-84 of the root before its last rounding. MUSCL-Hancock and MUSCL-HLLC fp64 +4 % on the
 *   H200.
 * So both give the correctly rounded result but where it lies that close to a halfway point:
 * the same bits as dividing and sqrt() in practice (the twin divides and takes std::sqrt).
 * Every kernel of a program uses the same functions, so all launch shapes give the same bits.
 * They hold for x from about 1.2e-38 to 3.4e38 (float's range): below, the reciprocal is not
 * finite, which the blow-up check stops, and the root less exact (of a depth far below H_DRY,
 * which HLLC does not use; 0 gives 0); above, 0 (no flood is that deep). CPU devices divide and
 * take sqrt: the reciprocals made fp64 Lax-Friedrichs 13 % slower on PoCL. realv: 8 cells,
 * realm: MUSCL_LANES cells. fp32 always divides and takes sqrt. */
#if defined(SWE_DOUBLE) && NEWTON_FP64
#define NEWTON_STEP(T, x, y) fma(y, fma(-(x), y, (T)1), y)
#define DEFINE_NEWTON_RECIP(name, T, estimate)                                                     \
  inline T name(T x)                                                                               \
  {                                                                                                \
    T y = estimate;                                                                                \
    y = NEWTON_STEP(T, x, y);                                                                      \
    return NEWTON_STEP(T, x, y);                                                                   \
  }
#define DEFINE_NEWTON_SQRT(name, T, estimate)                                                      \
  inline T name(T x)                                                                               \
  {                                                                                                \
    T y = estimate;                                                                                \
    y = y * fma(-((real)0.5 * x) * y, y, (T)1.5);                                                  \
    const T s = x * y;                                                                             \
    return fma(fma(-s, s, x), (real)0.5 * y, s);                                                   \
  }
DEFINE_NEWTON_RECIP(real_recip, real, (real)native_recip((float)x))
DEFINE_NEWTON_RECIP(realv_recip, realv, convert_double8(native_recip(convert_float8(x))))
DEFINE_NEWTON_SQRT(real_sqrt, real, (real)rsqrt(fmax((float)x, FLT_MIN)))
#if MUSCL_LANES == 16
DEFINE_NEWTON_SQRT(realm_sqrt, realm, convert_double16(rsqrt(fmax(convert_float16(x), FLT_MIN))))
#elif MUSCL_LANES == 8
DEFINE_NEWTON_SQRT(realm_sqrt, realm, convert_double8(rsqrt(fmax(convert_float8(x), FLT_MIN))))
#endif
#else
#define real_recip(x) ((real)1 / (x))
#define realv_recip(x) ((real)1 / (x))
#define real_sqrt(x) sqrt(x)
#define realm_sqrt(x) sqrt(x)
#endif

/* No fused multiply-add contraction: the C++ twin (the test oracle) rounds every operation, and
 * FMAs would buy little here but disagreement. */
#pragma OPENCL FP_CONTRACT OFF

/* Grid: NX x NY interior cells, GHOST layers on each side, x fastest (row-major by y). */
#ifndef GHOST
#define GHOST 2
#endif
/* Rows lie PITCH cells apart and the interior starts OFFSET cells into its row: the host picks
 * both so that every row's interior begins on a 128-byte boundary; the ghost layers lie just
 * before and after it. */
#ifndef OFFSET
#define OFFSET GHOST
#endif
#ifndef PITCH
#define PITCH (NX + 2 * GHOST)
#endif
#define IDX(i, j) (((j) + GHOST) * PITCH + (i) + OFFSET)
#define GHOSTED_WIDTH (NX + 2 * GHOST) /* cells of a row with its ghost layers */
#define WG_SIZE (WG_X * WG_Y)
/* Rows of cells one work-item of a GPU-shaped step kernel updates (a second-order sweep's rows). */
#ifndef ROWS
#define ROWS 1
#endif
#ifndef INFLOW_WAVE_SPEED
#define INFLOW_WAVE_SPEED 0
#endif
/* Whole rows one work-item of a CPU-shaped step kernel (rowsN) updates. */
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 16
#endif

/* The clock's control and status slots (CTRL_*, STATUS_*): clock_slots.h, shared with the host. */

/* Manning coefficient of cell c: per cell when the host passed a field (-DMANNING_FIELD), else
 * the uniform value. */
#ifdef MANNING_FIELD
#define MANNING_AT(c) (manning_field[(c)])
#else
#define MANNING_AT(c) (manning)
#endif

/* Largest signal speed of a cell, max(|u| + c, |v| + c) with c = sqrt(g h), where `ok` holds and
 * the cell is wet, else 0 (dry: no wave, and no velocity to trust). Written max(|hu|, |hv|) (1 / h)
 * + c: rounding is monotonic, so that is the same value with one product and one sum fewer. A
 * selection rather than a branch, so that it also serves vectors (T = a vector type, ok a
 * vector mask). */
#define WAVE_SPEED_WHERE(T, ok, h, hu, hv)                                                         \
  (((ok) && (h) > (real)H_DRY)                                                                     \
      ? fmax(fabs(hu), fabs(hv)) * ((real)1 / (h)) + sqrt((real)GRAVITY * (h))                     \
      : (T)((real)0))

inline real wave_speed(real h, real hu, real hv)
{
  return WAVE_SPEED_WHERE(real, true, h, hu, hv);
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
 * needs 64-bit atomics; without them each group keeps its own partial. -DSWE_NO_SPEED_ATOMICS
 * takes that path on any device (the host then keeps the clock as without them; for tests). */
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

/* The clock (seed 001): dt is chosen for a step, then the step is committed to the clock after it
 * ran. compute_dt does both before a step (MUSCL-HLLC), or only the choice (Lax-Friedrichs, whose
 * step kernel commits and chooses the next dt itself in its last work-group: no launch between
 * steps). Once the target is reached, or a non-physical cell was reported, dt is 0, which makes
 * the launches the host queued beyond it harmless no-ops. fixed_dt > 0 is the fixed-step mode;
 * otherwise dt = cfl * dx / max wave speed. */

/* The dt the largest wave speed m allows (or the fixed dt), before any cut to land on the
 * target; 0 when nothing moves. */
inline real uncut_dt(real m, real cfl_dx, real fixed_dt)
{
  if (fixed_dt > (real)0)
    return fixed_dt;
  /* (never slower than the waves an inflow side sends in: Parameters.h, inflowWaveSpeed) */
  m = fmax(m, (real)INFLOW_WAVE_SPEED);
  return m > (real)0 ? cfl_dx / m : (real)0;
}

/* The dt of a step with `remaining` time left before the target (> 0), from the largest wave
 * speed m; *landing: the step lands exactly on the target. */
inline real dt_for(real remaining, real m, real cfl_dx, real fixed_dt, bool* landing)
{
  real dt = uncut_dt(m, cfl_dx, fixed_dt);
  if (!(fixed_dt > (real)0))
  {
    if (!(dt > (real)0))
      dt = remaining;
    /* Split the last two steps evenly rather than leave a sliver of a step. */
    if (remaining < (real)2 * dt && remaining > dt)
      dt = (real)0.5 * remaining;
  }
  *landing = dt >= remaining;
  return *landing ? remaining : dt;
}

/* Adds dt to the clock (t, comp) by Kahan summation, so fp32 clocks do not drift. */
inline void clock_add(real* t, real* comp, real dt)
{
  const real y = dt - *comp;
  const real sum = *t + y;
  *comp = (sum - *t) - y;
  *t = sum;
}

/* bad_cell: status[STATUS_BAD_CELL] as the caller read it. */
inline void choose_dt(__global real* ctrl,
  __global int* status,
  int bad_cell,
  real m,
  real cfl_dx,
  real fixed_dt)
{
  real dt = (real)0;
  bool landing = false;
  if (bad_cell != INT_MAX)
  {
    if (status[STATUS_BAD_STEP] < 0)
      status[STATUS_BAD_STEP] = status[STATUS_STEPS];
  }
  else if (status[STATUS_TOO_FAST] >= 0)
  {
    /* stopped before a step a fixed dt would have taken past the Courant limit */
  }
  else if (fixed_dt > (real)0 && fixed_dt * m > (real)COURANT_LIMIT_DX)
  {
    /* A fixed dt beyond the scheme's Courant limit: the run stops before the step, and the host
     * names it (a capped or clamped scheme would otherwise run on to nonsense speeds). */
    status[STATUS_TOO_FAST] = status[STATUS_STEPS];
    ctrl[CTRL_TOO_FAST] = m;
  }
  else
  {
    const real remaining = ctrl[CTRL_TARGET] - (ctrl[CTRL_TIME] - ctrl[CTRL_TIME_COMP]);
    if (remaining > (real)0 && status[STATUS_STEPS] < status[STATUS_STEP_LIMIT])
    {
      dt = dt_for(remaining, m, cfl_dx, fixed_dt, &landing);
      /* Not the cut dt: after a landing the host would size the next batch by a sliver (the
       * surplus launches are no-ops, but second-order ones still cost a pass each). */
      const real uncut = uncut_dt(m, cfl_dx, fixed_dt);
      if (uncut > (real)0)
        ctrl[CTRL_LAST_DT] = uncut;
    }
  }
  ctrl[CTRL_DT] = dt;
  ctrl[CTRL_LANDING] = landing ? (real)1 : (real)0;
  ctrl[CTRL_MAX_SPEED] = m;
}

/* Adds the step just taken (ctrl[CTRL_DT]) to the clock: exactly onto the target when it lands
 * there, else by Kahan summation. */
inline void commit_dt(__global real* ctrl, __global int* status)
{
  const real dt = ctrl[CTRL_DT];
  if (!(dt > (real)0))
    return;
  if (ctrl[CTRL_LANDING] != (real)0)
  {
    ctrl[CTRL_TIME] = ctrl[CTRL_TARGET];
    ctrl[CTRL_TIME_COMP] = (real)0;
  }
  else
  {
    real t = ctrl[CTRL_TIME], comp = ctrl[CTRL_TIME_COMP];
    clock_add(&t, &comp, dt);
    ctrl[CTRL_TIME_COMP] = comp;
    ctrl[CTRL_TIME] = t;
  }
  status[STATUS_STEPS] += 1;
}

/* Two steps a launch (temporal blocking). A group cannot know the global wave-speed maximum of
 * the state between the two steps, so the second step's dt is chosen before the launch, from the
 * first state's maximum times PAIR_SPEED_MARGIN (1 + a little). Every cell of the state between
 * the steps is checked against that predicted speed (speed_at_most: no division, no square
 * root); if one is faster, the last group refuses the launch (nothing committed, the copies not
 * flipped) and the next launch takes only the first step. So a second step is never taken with
 * a Courant number above the one asked for. With a fixed dt both steps take it, and the state
 * between them is checked against the Courant limit instead. */
inline real pair_predicted_speed(__global const real* ctrl, real fixed_dt)
{
  /* A fixed dt: the fastest wave it may meet without passing the Courant limit, so that a state
   * between the steps beyond it is caught as any other (choose_dt). */
  if (fixed_dt > (real)0)
    return (real)COURANT_LIMIT_DX / fixed_dt;
  /* (never below the inflow's waves, which dt_for counts on anyway: no refusal for cells the
   * second dt suits) */
  return fmax(ctrl[CTRL_MAX_SPEED] * (real)PAIR_SPEED_MARGIN, (real)INFLOW_WAVE_SPEED);
}

/* Whether max(|u|, |v|) + sqrt(g h) <= s for a cell with h > 0, without dividing by h or taking
 * a root: q + h sqrt(g h) <= s h with q = max(|hu|, |hv|), i.e. r = s h - q >= 0 and
 * g h^3 <= r^2, tested at once as g h^3 <= r |r| (negative where r is; g h^3 > 0 for a wet
 * cell), and with | for ||: no branch (two-step Lax-Friedrichs with the adaptive dt 1.5 % faster
 * in fp32 and 1 % in fp64 on the H200; PERFORMANCE.md). A dry cell (h <= H_DRY) passes: the
 * wave-speed maximum counts it as still. s = INFINITY passes every wet cell.
 * (ReferenceSolver::speedsAtMost does the same operations.) */
inline bool speed_at_most(real h, real hu, real hv, real s)
{
  const real r = s * h - fmax(fabs(hu), fabs(hv));
  return (h <= (real)H_DRY) | ((real)GRAVITY * h * h * h <= r * fabs(r));
}

/* The time left before the target once the pending step is committed (0 when it lands): the
 * operations commit_dt and choose_dt do, so the same bits. */
inline real remaining_after_pending(__global const real* ctrl)
{
  if (ctrl[CTRL_LANDING] != (real)0)
    return (real)0;
  real t = ctrl[CTRL_TIME], comp = ctrl[CTRL_TIME_COMP];
  clock_add(&t, &comp, ctrl[CTRL_DT]);
  return ctrl[CTRL_TARGET] - (t - comp);
}

/* The dt of the step after the pending one in the same launch, and whether it lands on the
 * target: 0 when the pending one is a no-op or lands on the target, when the step limit comes
 * first, or when a launch with this first dt was refused. */
inline real pair_second_dt(__global const real* ctrl,
  __global const int* status,
  real cfl_dx,
  real fixed_dt,
  bool* landing)
{
  *landing = false;
  if (!(ctrl[CTRL_DT] > (real)0) || status[STATUS_STEPS] + 1 >= status[STATUS_STEP_LIMIT] ||
      ctrl[CTRL_CUT_DT] == ctrl[CTRL_DT])
    return (real)0;
  const real remaining = remaining_after_pending(ctrl);
  return remaining > (real)0
           ? dt_for(remaining, pair_predicted_speed(ctrl, fixed_dt), cfl_dx, fixed_dt, landing)
           : (real)0;
}

/* The largest speed the step's groups published, taken and reset to 0 for the next step. */
#if SPEED_MAX_ATOMIC
#ifdef SWE_DOUBLE
#define TAKE_MAX_SPEED(p) as_double(atom_xchg((volatile __global ulong*)(p), (ulong)0))
#else
#define TAKE_MAX_SPEED(p) as_float(atomic_xchg((volatile __global uint*)(p), 0u))
#endif
#endif

/* Whether this group is the last of the step kernel to finish: then every other group's maximum
 * and bad cells are published (each fences them before it counts, and they are read back
 * atomically). Called by one work-item per group. */
inline bool last_group_to_finish(__global int* status, int num_groups)
{
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  if (atomic_inc(&status[STATUS_GROUPS_DONE]) != num_groups - 1)
    return false;
  status[STATUS_GROUPS_DONE] = 0; /* every other group has counted: ready for the next step */
  return true;
}

/* The clock kept by the Lax-Friedrichs step kernels themselves (FUSED_CLOCK). */
#if FUSED_CLOCK

/* The end of a Lax-Friedrichs update kernel that took `steps` steps (1, or 2 with the second of
 * dt2, 0 when it took one): the last group to finish commits them and chooses the next dt, so
 * the clock and the status end as after that many one-step kernels with those dts. Two: it
 * refuses the launch instead when a cell between the steps outran the prediction (see
 * pair_predicted_speed), and flips the copies when it commits; a blow-up between the steps is
 * the one reported (cell and step), as it would have stopped the run there, and the second step
 * then counts for nothing. */
inline void finish_steps_if_last(__global real* partial_max,
  __global real* ctrl,
  __global int* status,
  real cfl_dx,
  real fixed_dt,
  int num_groups,
  int steps,
  real dt2,
  bool landing2)
{
  if (!last_group_to_finish(status, num_groups))
    return;
  const real m = TAKE_MAX_SPEED(partial_max);
  if (steps == 2)
  {
    const int bad_mid = atomic_min(&status[STATUS_BAD_MID], INT_MAX);
    const bool fast = atomic_xchg(&status[STATUS_MID_FAST], 0) != 0;
    if (fast && bad_mid == INT_MAX && dt2 > (real)0)
    {
      /* Refused: the final state's reports are void; the next launch takes one step. */
      atomic_xchg(&status[STATUS_BAD_CELL], INT_MAX);
      ctrl[CTRL_CUT_DT] = ctrl[CTRL_DT];
      status[STATUS_REFUSED] += 1;
      return;
    }
    commit_dt(ctrl, status); /* the first step */
    ctrl[CTRL_CUT_DT] = (real)0;
    status[STATUS_PARITY] ^= 1;
    if (bad_mid != INT_MAX)
    {
      atomic_xchg(&status[STATUS_BAD_CELL], bad_mid);
      choose_dt(ctrl, status, bad_mid, m, cfl_dx, fixed_dt); /* dt 0, the bad step recorded */
      return;
    }
    /* The second step, committed below as a single one is (dt 0: none). */
    ctrl[CTRL_DT] = dt2;
    ctrl[CTRL_LANDING] = landing2 ? (real)1 : (real)0;
  }
  commit_dt(ctrl, status);
  choose_dt(ctrl, status, atomic_min(&status[STATUS_BAD_CELL], INT_MAX), m, cfl_dx, fixed_dt);
}
#endif

#endif
