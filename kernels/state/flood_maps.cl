/* The flood maps' pass over a state (flood_maps.h): after each step where the steps do not fold
 * them themselves, with the step's dt (dt_slot CTRL_DT: the clock has committed it); and for the
 * state at t = 0, one loaded, or the last of a batch whose steps fold them (CTRL_STATE_DT: 0, or
 * the dt of the step that made it). Dry land costs one read a step. */

/* A work-item folds PASS_ROWS cells of a column (grid.h); tiles: the copy's flags, for skipping
 * dry land (dry_tiles.h; a placeholder without). */
__kernel void fold_flood_maps(__global const real* h, __global const real* hu,
  __global const real* hv, __global const real* ctrl, MAP_ARGUMENTS, real arrival_depth,
  int dt_slot, __global const uchar* tiles)
{
  const int i = get_global_id(0), j0 = get_global_id(1) * PASS_ROWS;
  real depths[PASS_ROWS];
  load_pass_depths(h, i, j0, depths, tiles);
  for (int r = 0; r < PASS_ROWS; ++r)
    if (depths[r] > (real)H_DRY)
    {
      const int c = IDX(i, j0 + r);
      fold_loaded(MAP_PARAMETERS, c, load_cell_maps(MAP_PARAMETERS, c), depths[r], hu[c], hv[c],
        ctrl[CTRL_TIME], ctrl[dt_slot], arrival_depth);
    }
}
