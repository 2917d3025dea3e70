/* One Heun stage of the second-order scheme (arithmetic in muscl_hllc.h). Stage 1 writes
 * U1 = U + dt L(U) into the scratch state; stage 2 writes U = (U + U1 + dt L(U1)) / 2 back into
 * the state, fused with the blow-up check and the first stage of the next step's wave-speed
 * maximum.
 *
 * Each face flux (the HLLC solve, the costly part) is computed once per work-group and shared
 * through local memory: a work-item computes the faces on its west and south sides, the last
 * column and row of the group also those on their east and north sides. The cell then adds up
 * its four faces and its own bed-slope terms, in the same order as axis_rate() (the C++ twin). */

/* The fluxes of one face as both neighbours see them (they differ by the pressure terms). */
typedef struct
{
  real h;
  real qn_left;
  real qn_right;
  real qt;
} SharedFace;

/* Loads count cells along one axis starting at cell `first` (stride 1 or PITCH) into s; the
 * velocities (two divisions a cell) only when asked for. */
inline void load_cells(AxisStencil* s, __global const real* h, __global const real* q_normal,
  __global const real* q_transverse, __global const real* bed, int first, int stride, int count,
  bool velocities)
{
  for (int k = 0; k < count; ++k)
  {
    const int idx = first + k * stride;
    const real depth = h[idx];
    s->h[k] = depth;
    s->eta[k] = depth + bed[idx];
    s->un[k] = velocities ? cell_velocity(depth, q_normal[idx], (real)H_DRY) : (real)0;
    s->ut[k] = velocities ? cell_velocity(depth, q_transverse[idx], (real)H_DRY) : (real)0;
  }
}

/* The face between cell c - stride and cell c: cells c - 2 stride .. c + stride. */
inline SharedFace shared_face(__global const real* h, __global const real* q_normal,
  __global const real* q_transverse, __global const real* bed, int c, int stride)
{
  AxisStencil s;
  load_cells(&s, h, q_normal, q_transverse, bed, c - 2 * stride, stride, 4, true);
  FaceFlux toLeft, toRight;
  face_fluxes(reconstruct(&s, 1, (real)1, (real)H_DRY), reconstruct(&s, 2, (real)-1, (real)H_DRY),
    (real)GRAVITY, (real)H_DRY, &toLeft, &toRight);
  SharedFace f;
  f.h = toLeft.h;
  f.qn_left = toLeft.qn;
  f.qn_right = toRight.qn;
  f.qt = toLeft.qt;
  return f;
}

/* dx times the rate of change along one axis, from the two shared faces and the cell's own
 * reconstruction (for the bed-slope term): the arithmetic of axis_rate(). */
inline FaceFlux cell_rate(SharedFace west, SharedFace east, __global const real* h,
  __global const real* q_normal, __global const real* q_transverse, __global const real* bed,
  int c, int stride)
{
  /* Cells c - 2 stride .. c + stride; the bed-slope term needs depths and surfaces only. */
  AxisStencil s;
  load_cells(&s, h, q_normal, q_transverse, bed, c - 2 * stride, stride, 4, false);
  const FaceState cW = reconstruct(&s, 2, (real)-1, (real)H_DRY);
  const FaceState cE = reconstruct(&s, 2, (real)1, (real)H_DRY);
  const real bW = cW.eta - cW.h, bE = cE.eta - cE.h;
  FaceFlux rate;
  rate.h = west.h - east.h;
  rate.qn = west.qn_right - east.qn_left - (real)GRAVITY * (real)0.5 * (cW.h + cE.h) * (bE - bW);
  rate.qt = west.qt - east.qt;
  return rate;
}

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void
muscl_hllc_stage(__global const real* h, __global const real* hu, __global const real* hv,
                 __global const real* bed, __global const real* h_base,
                 __global const real* hu_base, __global const real* hv_base,
                 __global real* h_out, __global real* hu_out, __global real* hv_out,
                 __global const real* ctrl, __global int* status, __global real* partial_max,
                 const real manning, const real inv_dx, const int final_stage,
                 __global const real* manning_field)
{
  __local real scratch[WG_SIZE];
  __local SharedFace x_faces[WG_Y][WG_X + 1]; /* [row][k]: west face of local column k */
  __local SharedFace y_faces[WG_Y + 1][WG_X]; /* [k][column]: south face of local row k */
  const int i = get_global_id(0), j = get_global_id(1);
  const int li = get_local_id(0), lj = get_local_id(1);
  const real dt = ctrl[CTRL_DT];
  if (dt > (real)0)
  {
    /* Faces on the grid: x faces for columns 0..NX of rows 0..NY-1, y faces likewise. */
    if (i <= NX && j < NY)
    {
      x_faces[lj][li] = shared_face(h, hu, hv, bed, IDX(i, j), 1);
      if (li == WG_X - 1 && i + 1 <= NX)
        x_faces[lj][li + 1] = shared_face(h, hu, hv, bed, IDX(i + 1, j), 1);
    }
    if (i < NX && j <= NY)
    {
      y_faces[lj][li] = shared_face(h, hv, hu, bed, IDX(i, j), PITCH);
      if (lj == WG_Y - 1 && j + 1 <= NY)
        y_faces[lj + 1][li] = shared_face(h, hv, hu, bed, IDX(i, j + 1), PITCH);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  real speed = (real)0;
  if (i < NX && j < NY)
  {
    const int c = IDX(i, j);
    real hn = h[c], hun = hu[c], hvn = hv[c];
    bool ok = true;
    if (dt > (real)0)
    {
      const FaceFlux rx = cell_rate(x_faces[lj][li], x_faces[lj][li + 1], h, hu, hv, bed, c, 1);
      const FaceFlux ry =
        cell_rate(y_faces[lj][li], y_faces[lj + 1][li], h, hv, hu, bed, c, PITCH);
      const real k = dt * inv_dx;
      hn += k * (rx.h + ry.h);
      hun += k * (rx.qn + ry.qt);
      hvn += k * (rx.qt + ry.qn);
      ok = finish_stage(&hn, &hun, &hvn, dt, MANNING_AT(c), (real)GRAVITY, (real)H_DRY);
      if (final_stage)
      {
        hn = (real)0.5 * (h_base[c] + hn);
        hun = (real)0.5 * (hu_base[c] + hun);
        hvn = (real)0.5 * (hv_base[c] + hvn);
      }
    }
    else if (final_stage)
    {
      /* The clock has reached its target: leave the state as it is. */
      hn = h_base[c];
      hun = hu_base[c];
      hvn = hv_base[c];
    }
    h_out[c] = hn;
    hu_out[c] = hun;
    hv_out[c] = hvn;
    if (ok && hn >= (real)0 && isfinite(hn) && isfinite(hun) && isfinite(hvn))
      speed = hn > (real)H_DRY ? wave_speed(hn, hun, hvn) : (real)0;
    else
      atomic_min(&status[STATUS_BAD_CELL], j * NX + i);
  }
  if (final_stage)
    publish_group_max_speed(scratch, speed, partial_max);
}
