/* Flood maps (solver/FloodMaps.h): per cell, the largest depth, speed and hazard a run has seen,
 * the first time the depth reached arrival_depth (NaN until then), and the time spent at or
 * above it. Folded in from the state every step writes, at the time the clock committed with the
 * step's dt (weight 1: the duration counts the step where the depth ends it at or above the
 * arrival depth), so every state the run passes through counts, not only those at output times;
 * and once from the state at t = 0 (weight 0). Cells no deeper than the dry depth are skipped:
 * the maps record wet water only, and dry land costs one read a step. */

/* The UK flood hazard rating (Defra/EA FD2320) without a debris factor: depth x (speed + 0.5). */
inline real flood_hazard(real h, real speed)
{
  return h * (speed + (real)0.5);
}

/* Folds wet cell c, of depth `depth`, into the maps. */
inline void fold_cell(__global const real* hu, __global const real* hv, __global const real* ctrl,
  __global real* max_depth, __global real* max_speed, __global real* max_hazard,
  __global real* arrival, __global real* duration, real arrival_depth, int weight, int c,
  real depth)
{
  const real speed = sqrt(hu[c] * hu[c] + hv[c] * hv[c]) / depth;
  const real hazard = flood_hazard(depth, speed);
  if (depth > max_depth[c])
    max_depth[c] = depth;
  if (speed > max_speed[c])
    max_speed[c] = speed;
  if (hazard > max_hazard[c])
    max_hazard[c] = hazard;
  if (depth >= arrival_depth)
  {
    if (isnan(arrival[c]))
      arrival[c] = ctrl[CTRL_TIME];
    if (weight != 0)
      duration[c] += ctrl[CTRL_DT];
  }
}

/* A work-item folds PASS_ROWS cells of a column (grid.h); tiles: the copy's flags, for skipping
 * dry land (dry_tiles.h; a placeholder without). */
__kernel void fold_flood_maps(__global const real* h, __global const real* hu,
  __global const real* hv, __global const real* ctrl, __global real* max_depth,
  __global real* max_speed, __global real* max_hazard, __global real* arrival,
  __global real* duration, real arrival_depth, int weight, __global const uchar* tiles)
{
  const int i = get_global_id(0), j0 = get_global_id(1) * PASS_ROWS;
  real depths[PASS_ROWS];
  load_pass_depths(h, i, j0, depths, tiles);
  for (int r = 0; r < PASS_ROWS; ++r)
    if (depths[r] > (real)H_DRY)
      fold_cell(hu, hv, ctrl, max_depth, max_speed, max_hazard, arrival, duration,
        arrival_depth, weight, IDX(i, j0 + r), depths[r]);
}
