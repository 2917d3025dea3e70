/* Point sources and sinks (SimulationParameters::sources): after every step, each one's
 * discharge over the step (the exact mean of its series over [t - dt, t], kernels/device/forcing.h)
 * times dt over the cell's area is added to its cell's depth; a sink takes no more than the cell
 * holds, and scales its momentum with its depth (take_source). One work-item, the sources in
 * order: two in one cell add up the same way every run. Their series and cells are program
 * constants (DeviceProgram's forcingSource: SOURCES_T, SOURCES_V, SOURCE_FIRST, SOURCE_POINTS,
 * SOURCE_I, SOURCE_J). */
#ifdef SOURCE_COUNT
__kernel void add_sources(__global real* h, __global real* hu, __global real* hv,
  __global const real* ctrl, __global real* inflow, __global real* inflow_low)
{
  const real dt = ctrl[CTRL_DT];
  if (get_global_id(0) != 0 || !(dt > (real)0))
    return;
  const real t = ctrl[CTRL_TIME] - ctrl[CTRL_TIME_COMP];
  for (int k = 0; k < SOURCE_COUNT; ++k)
  {
    const int c = IDX(SOURCE_I[k], SOURCE_J[k]);
    real hc = h[c], huc = hu[c], hvc = hv[c];
    take_source(&hc, &huc, &hvc,
      dt *
        series_mean(SOURCES_T + SOURCE_FIRST[k], SOURCES_V + SOURCE_FIRST[k], SOURCE_POINTS[k],
          t - dt, t) *
        (real)INV_CELL_AREA);
#ifdef WATER_BALANCE
    add_to_total(inflow + c, inflow_low + c, hc - h[c]);
#endif
    h[c] = hc;
    hu[c] = huc;
    hv[c] = hvc;
  }
}
#endif
