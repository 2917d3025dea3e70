/* Flood maps (solver/FloodMaps.h): per cell, the largest depth, speed and hazard a run has seen,
 * the first time the depth reached the arrival depth (NaN until then), and the time spent at or
 * above it. Every state the run passes through counts, not only those at output times: each
 * state is folded in once, with the time the clock gives it and the dt of the step that made it
 * (the duration counts a step whose end state is at or above the arrival depth); the state at
 * t = 0, or one loaded, with none. Cells no deeper than the dry depth are skipped: the maps
 * record wet water only.
 *
 * Where they are folded: by a pass over the state after each step (flood_maps.cl), or, in the
 * GPU-shaped second-order sweeps (STEP_FOLDS_MAPS), by the step that reads the state, on the cell
 * values it loads anyway: the pass cost MUSCL-Hancock a third of its step rate, as it read the
 * state again (PERFORMANCE.md). A step's input was made by the step before, so the sweeps fold it
 * with the time and dt compute_dt kept for it (CTRL_FOLD_TIME, CTRL_FOLD_DT); the last state of a
 * batch is folded by the pass (FloodMaps::settle), and its dt then set to zero, so that the next
 * step's fold of it leaves the maps as they are (maxima and the arrival are kept as they stand,
 * the duration adds zero). */
#ifndef SWE_FLOOD_MAPS_H
#define SWE_FLOOD_MAPS_H

/* The UK flood hazard rating (Defra/EA FD2320) without a debris factor: depth x (speed + 0.5). */
inline real flood_hazard(real h, real speed)
{
  return h * (speed + (real)0.5);
}

/* The maps as kernel arguments, in the order of Field (MaxDepth on). */
#define MAP_ARGUMENTS                                                                              \
  __global real *max_depth, __global real *max_speed, __global real *max_hazard,                   \
    __global real *arrival, __global real *duration
#define MAP_PARAMETERS max_depth, max_speed, max_hazard, arrival, duration

/* A cell's maps as loaded. */
typedef struct
{
  real depth, speed, hazard, arrival, duration;
} CellMaps;

inline CellMaps load_cell_maps(MAP_ARGUMENTS, int c)
{
  CellMaps m;
  m.depth = max_depth[c];
  m.speed = max_speed[c];
  m.hazard = max_hazard[c];
  m.arrival = arrival[c];
  m.duration = duration[c];
  return m;
}

/* Folds wet cell c (depth > H_DRY, momenta hu and hv), whose maps were `seen`, at `time`, after a
 * step of dt (0: none); stores the maps that change. */
inline void fold_loaded(MAP_ARGUMENTS,
  int c,
  CellMaps seen,
  real depth,
  real hu,
  real hv,
  real time,
  real dt,
  real arrival_depth)
{
  const real speed = sqrt(hu * hu + hv * hv) / depth;
  const real hazard = flood_hazard(depth, speed);
  if (depth > seen.depth)
    max_depth[c] = depth;
  if (speed > seen.speed)
    max_speed[c] = speed;
  if (hazard > seen.hazard)
    max_hazard[c] = hazard;
  if (depth >= arrival_depth)
  {
    if (isnan(seen.arrival))
      arrival[c] = time;
    if (dt != (real)0)
      duration[c] = fmin(seen.duration + dt, time); /* (its dt's sum rounds up past the clock) */
  }
}

/* In the sweeps (STEP_FOLDS_MAPS 1): the maps of the step's input cell c, loaded with its other
 * values, before the row's barriers (a load at the fold leaves every group waiting on it: see
 * PERFORMANCE.md, 'Decisions that stand'), and their fold once the row is solved. Dry cells load
 * nothing. */
#ifndef STEP_FOLDS_MAPS
#define STEP_FOLDS_MAPS 0
#define ARRIVAL_DEPTH 0
#endif
inline CellMaps step_input_maps(MAP_ARGUMENTS, int c, real depth)
{
  CellMaps m = { (real)0, (real)0, (real)0, (real)0, (real)0 };
  if (STEP_FOLDS_MAPS && depth > (real)H_DRY)
    m = load_cell_maps(MAP_PARAMETERS, c);
  return m;
}

inline void fold_step_input(MAP_ARGUMENTS,
  __global const real* ctrl,
  int c,
  CellMaps seen,
  real depth,
  real hu,
  real hv)
{
  if (STEP_FOLDS_MAPS && depth > (real)H_DRY)
    fold_loaded(MAP_PARAMETERS,
      c,
      seen,
      depth,
      hu,
      hv,
      ctrl[CTRL_FOLD_TIME],
      ctrl[CTRL_FOLD_DT],
      (real)ARRIVAL_DEPTH);
}

#endif
