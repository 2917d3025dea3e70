/* Green-Ampt infiltration after every step (kernels/state/infiltration.h): a work-item takes
 * PASS_ROWS cells of a column (grid.h). */
#ifdef GREEN_AMPT
/* With a soil map (GREEN_AMPT_FIELD), soil holds each cell's K [m/s], then at SOIL_PLANE its
 * suction head times moisture deficit [m]; else a placeholder. tiles: the copy's flags, for
 * skipping dry land (dry_tiles.h; a placeholder without). */
__kernel void infiltrate(__global real* h, __global real* hu, __global real* hv,
  __global real* infiltrated, __global const real* ctrl, __global const real* soil,
  __global const uchar* tiles)
{
  const int i = get_global_id(0), j0 = get_global_id(1) * PASS_ROWS;
  const real dt = ctrl[CTRL_DT];
  real depths[PASS_ROWS];
  load_pass_depths(h, i, j0, depths, tiles);
  for (int r = 0; r < PASS_ROWS; ++r)
  {
    real hc = depths[r];
    if (!(hc > (real)H_DRY) || !(dt > (real)0))
      continue;
    const int c = IDX(i, j0 + r);
    real huc = hu[c], hvc = hv[c], f = infiltrated[c];
#ifdef GREEN_AMPT_FIELD
    infiltrate_cell(&hc, &huc, &hvc, &f, dt * soil[c], soil[c + SOIL_PLANE], (real)H_DRY);
#else
    infiltrate_cell(&hc, &huc, &hvc, &f, dt * (real)GREEN_AMPT_K, (real)GREEN_AMPT_P, (real)H_DRY);
#endif
    h[c] = hc;
    hu[c] = huc;
    hv[c] = hvc;
    infiltrated[c] = f;
  }
}
#endif
