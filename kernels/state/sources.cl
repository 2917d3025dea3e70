/* Point sources and sinks (SimulationParameters::sources): after every step, each one's
 * discharge over the step (the exact mean of its series over [t - dt, t], kernels/device/forcing.h)
 * times dt over the cell's area is added to its cell's depth; a sink takes no more than the cell
 * holds, and scales its momentum with its depth (take_source). One work-item a cell that holds
 * sources, taking them in their order: two in one cell add up the same way every run. Their cells
 * and series are buffers (solver/state/PointSources.h): cells, for each cell its column, row and
 * its sources' range [first, end) in series; series, for each source its first point and point
 * count in times and values (discharges in m^3/s). */
#ifdef POINT_SOURCES
__kernel void add_sources(__global real* h,
  __global real* hu,
  __global real* hv,
  __global const real* ctrl,
  __global real* inflow,
  __global real* inflow_low,
  const int cell_count,
  __global const int4* cells,
  __global const int2* series,
  __global const real* times,
  __global const real* values)
{
  const int g = get_global_id(0);
  const real dt = ctrl[CTRL_DT];
  if (g >= cell_count || !(dt > (real)0))
    return;
  const real t = ctrl[CTRL_TIME] - ctrl[CTRL_TIME_COMP];
  const int4 cell = cells[g];
  const int c = IDX(cell.x, cell.y);
  real hc = h[c], huc = hu[c], hvc = hv[c];
  for (int k = cell.z; k < cell.w; ++k)
  {
    const int2 s = series[k];
    const real before = hc;
    take_source(&hc,
      &huc,
      &hvc,
      dt * series_mean_global(times + s.x, values + s.x, s.y, t - dt, t) * (real)INV_CELL_AREA);
#ifdef WATER_BALANCE
    add_to_total(inflow + c, inflow_low + c, hc - before);
#else
    (void)before;
#endif
  }
  h[c] = hc;
  hu[c] = huc;
  hv[c] = hvc;
}
#endif
