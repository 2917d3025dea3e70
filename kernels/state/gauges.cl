/* Gauges (solver/Gauges.h): after every step, each work-item copies its gauge's cell (h, hu, hv)
 * into the ring slot of the step count, and the first the clock's time: the host collects the
 * slots when it next reads the clock. A step that takes no time (past the target) writes the
 * slot of the step before again, with the same values. */
__kernel void sample_gauges(__global const real* h, __global const real* hu,
  __global const real* hv, __global const real* ctrl, __global const int* status,
  __global const int* cells, __global real* ring, int gauges)
{
  const int g = get_global_id(0);
  if (g >= gauges)
    return;
  __global real* slot = ring + (status[STATUS_STEPS] % GAUGE_RING_STEPS) * (1 + 3 * gauges);
  if (g == 0)
    slot[0] = ctrl[CTRL_TIME] - ctrl[CTRL_TIME_COMP];
  const int c = cells[g];
  slot[1 + 3 * g] = h[c];
  slot[2 + 3 * g] = hu[c];
  slot[3 + 3 * g] = hv[c];
}
