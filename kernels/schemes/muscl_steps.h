/* What the second-order step kernels share, the GPU-shaped sweeps (muscl_sweeps.cl) and the
 * CPU-shaped lanes (muscl_lanes.cl): their arguments and the end of a MUSCL-Hancock pass. */
#ifndef SWE_MUSCL_STEPS_H
#define SWE_MUSCL_STEPS_H

/* The arguments of the second-order kernels, the sweeps and the CPU-shaped ones alike, in the
 * order their steppers bind them (solver/MusclSteppers.cpp); the tiles' (dry_tiles.h) and the
 * flood maps' (flood_maps.h) last, placeholders where the run has none. */
#define MUSCL_HLLC_STAGE_ARGUMENTS                                                                 \
  __global const real *h, __global const real *hu, __global const real *hv,                        \
    __global const real *bed, __global const real *h_base, __global const real *hu_base,           \
    __global const real *hv_base, __global real *h_out, __global real *hu_out,                     \
    __global real *hv_out, __global const real *ctrl, __global int *status,                        \
    __global real *partial_max, const real manning, const real inv_dx, const int final_stage,      \
    __global const real *manning_field, TILE_ARGUMENTS, MAP_ARGUMENTS
#define MUSCL_HANCOCK_STEP_ARGUMENTS                                                               \
  __global const real *h, __global const real *hu, __global const real *hv,                        \
    __global const real *bed, __global real *h_out, __global real *hu_out, __global real *hv_out,  \
    __global const real *ctrl, __global int *status, __global real *partial_max,                   \
    const real manning, const real inv_dx, __global const real *manning_field, TILE_ARGUMENTS,     \
    MAP_ARGUMENTS
/* The same arguments' names, for the kernels that pass them on to the function holding their
 * body. */
#define MUSCL_HANCOCK_STEP_PARAMETERS                                                              \
  h, hu, hv, bed, h_out, hu_out, hv_out, ctrl, status, partial_max, manning, inv_dx,               \
    manning_field, TILE_PARAMETERS, MAP_PARAMETERS

/* Cell (i, j)'s draw for rounding its depth at random in the stage counted `stage_count`
 * (ROUNDING_STAGE, random_rounding.h; read once a launch); fp64 rounds to nearest. */
#ifdef SWE_DOUBLE
#define CELL_DRAW(i, j, stage_count) ((real)0)
#else
#define CELL_DRAW(i, j, stage_count)                                                               \
  rounding_draw((uint)((i) + BLOCK_X0), (uint)((j) + BLOCK_Y0), stage_count)
#endif

/* MUSCL-Hancock takes a step in two launches of one kernel body. The first pass leaves out the
 * outflow cap (outflow_capped); the second, with the cap, runs only if the first took a depth
 * below zero, and then takes the whole step again (the step reads one copy of the state and
 * writes the other, so its input is still there). So depths stay non-negative at any dt, while
 * the cap's cost (its registers, PERFORMANCE.md) is paid only in the rare step that needs it;
 * a flux is never capped on one side of a face and not on the other, so mass is conserved.
 * A first-pass cell that went below zero publishes an infinite wave speed, which its group's
 * maximum carries to the item that publishes it; finish_hancock_pass, by that item, takes it
 * from there. */
/* With a held dt (HELD_DT: solver/Parameters.h, exchangeInterval) the capped pass takes every
 * step alone: whether a step is taken again would be the whole grid's choice, which a rank
 * cannot make between exchanges. What the cap costs: SPLIT_RUNS.md, 'Threads as ranks'. */
#ifdef HELD_DT
#define HELD_DT_CAPPED 1
#else
#define HELD_DT_CAPPED 0
#endif

inline void finish_hancock_pass(bool capped,
  real group_speed,
  __global real* partial_max,
  __global int* status)
{
  if (!capped && isinf(group_speed))
    atomic_max(&status[STATUS_REDO], 1);
  if (!last_group_to_finish(status, get_num_groups(0) * get_num_groups(1)))
    return;
  if (capped)
  {
    status[STATUS_REDO] = 0; /* every group of this pass has read it */
    return;
  }
  if (atomic_max(&status[STATUS_REDO], 0) == 0)
    return;
    /* The step is to be taken again: what the first pass published is void (its groups' partial
     * maxima, where kept per group, the second pass overwrites). */
#if SPEED_MAX_ATOMIC
  TAKE_MAX_SPEED(partial_max);
#endif
  atomic_xchg(&status[STATUS_BAD_CELL], INT_MAX);
  status[STATUS_REDONE] += 1;
}

#endif
