/* What the second-order step kernels share, the GPU-shaped sweeps (muscl_sweeps.cl) and the
 * CPU-shaped lanes (muscl_lanes.cl): their arguments and the end of a MUSCL-Hancock pass. */
#ifndef SWE_MUSCL_STEPS_H
#define SWE_MUSCL_STEPS_H

/* Green-Ampt in the sweeps (STEP_INFILTRATES 1; else a pass after each step, infiltration.cl):
 * the step infiltrates each cell it writes, after its update, as the pass would (the wave speeds
 * and the blow-up check are the update's, as with the pass). The cumulative infiltration is read
 * from the copy of the state the step reads and written to the copy it writes (MUSCL-Hancock; one
 * buffer for MUSCL-HLLC, whose final stage writes it in place), so that a pass the outflow cap
 * takes again reads what the first pass read. A cell where it took water counts as wet for
 * skipping dry land, so that the next step updates its tile and the two copies agree again. soil:
 * a soil map's K, then at SOIL_PLANE its P (GREEN_AMPT_FIELD). */
#define INFILTRATION_ARGUMENTS                                                                     \
  __global const real *infiltrated_in, __global real *infiltrated_out, __global const real *soil
#define INFILTRATION_PARAMETERS infiltrated_in, infiltrated_out, soil
#ifndef STEP_INFILTRATES
#define STEP_INFILTRATES 0
#endif

/* A cell's cumulative infiltration, K and P, loaded with its other values (before the row's
 * barriers, as the flood maps are). */
typedef struct
{
  real f, k, p;
} SoilCell;

inline SoilCell step_soil(INFILTRATION_ARGUMENTS, int c, bool infiltrates)
{
  SoilCell s = { (real)0, (real)0, (real)0 };
#if STEP_INFILTRATES
  if (infiltrates)
  {
    s.f = infiltrated_in[c];
#ifdef GREEN_AMPT_FIELD
    s.k = soil[c];
    s.p = soil[c + SOIL_PLANE];
#else
    s.k = (real)GREEN_AMPT_K;
    s.p = (real)GREEN_AMPT_P;
#endif
  }
#endif
  return s;
}

/* Infiltrates cell c over dt (*h, *hu, *hv: as the step stores it) and stores its cumulative
 * infiltration, where it changed or `always` (MUSCL-Hancock's two copies). Returns whether it
 * took water. */
inline bool step_infiltrate(INFILTRATION_ARGUMENTS,
  int c,
  SoilCell s,
  real dt,
  real* h,
  real* hu,
  real* hv,
  bool always)
{
#if STEP_INFILTRATES
  real f = s.f;
  infiltrate_cell(h, hu, hv, &f, dt * s.k, s.p, (real)H_DRY);
  const bool took = f != s.f;
  if (always || took)
    infiltrated_out[c] = f;
  return took;
#else
  return false;
#endif
}

/* The arguments of the second-order kernels, the sweeps and the CPU-shaped ones alike, in the
 * order their steppers bind them (solver/MusclSteppers.cpp); the tiles' (dry_tiles.h), the
 * flood maps' (flood_maps.h) and the infiltration's (below) last, placeholders where the run has
 * none. */
#define MUSCL_HLLC_STAGE_ARGUMENTS                                                                 \
  __global const real *h, __global const real *hu, __global const real *hv,                        \
    __global const real *bed, __global const real *h_base, __global const real *hu_base,           \
    __global const real *hv_base, __global real *h_out, __global real *hu_out,                     \
    __global real *hv_out, __global const real *ctrl, __global int *status,                        \
    __global real *partial_max, const real manning, const real inv_dx, const int final_stage,      \
    __global const real *manning_field, TILE_ARGUMENTS, MAP_ARGUMENTS, INFILTRATION_ARGUMENTS
#define MUSCL_HANCOCK_STEP_ARGUMENTS                                                               \
  __global const real *h, __global const real *hu, __global const real *hv,                        \
    __global const real *bed, __global real *h_out, __global real *hu_out, __global real *hv_out,  \
    __global const real *ctrl, __global int *status, __global real *partial_max,                   \
    const real manning, const real inv_dx, __global const real *manning_field, TILE_ARGUMENTS,     \
    MAP_ARGUMENTS, INFILTRATION_ARGUMENTS
/* The same arguments' names, for the kernels that pass them on to the function holding their
 * body. */
#define MUSCL_HANCOCK_STEP_PARAMETERS                                                              \
  h, hu, hv, bed, h_out, hu_out, hv_out, ctrl, status, partial_max, manning, inv_dx,               \
    manning_field, TILE_PARAMETERS, MAP_PARAMETERS, INFILTRATION_PARAMETERS

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
 * cannot make between exchanges. The cap costs about 2 % (PERFORMANCE.md). */
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
