/* One Heun stage of the second-order scheme (arithmetic in muscl_hllc.h). Stage 1 writes
 * U1 = U + dt L(U) into the scratch state; stage 2 writes U = (U + U1 + dt L(U1)) / 2 back into
 * the state, fused with the blow-up check and the first stage of the next step's wave-speed
 * maximum.
 *
 * A work-group works in three phases, so that nothing is loaded or computed twice:
 * 1. it loads its cells and two more on every side (no corners) into a local tile: depth, surface
 *    and the two velocities (the only divisions, one pair a cell);
 * 2. it computes each face flux (the HLLC solve, the costly part) once, from the tile;
 * 3. each cell adds up its four faces and its own bed-slope terms, in the same order as
 *    axis_rate() (the C++ twin), so the results are the twin's to round-off. */

#define TILE_W (WG_X + 4)
#define TILE_H (WG_Y + 4)
#define TILE_CELLS (TILE_W * TILE_H)
/* Tile index of the group's local cell (x, y), x in -2 .. WG_X + 1, y in -2 .. WG_Y + 1. */
#define TILE(x, y) (((y) + 2) * TILE_W + (x) + 2)
#define X_FACES ((WG_X + 1) * WG_Y) /* [y][x]: west face of local cell x of row y */
#define Y_FACES (WG_X * (WG_Y + 1)) /* [y][x]: south face of local cell x of row y */

/* The fluxes of the group's faces as both neighbours see them (they differ by the pressure
 * terms), one array per component (no bank conflicts). */
typedef struct
{
  __local real* h;
  __local real* qn_left;
  __local real* qn_right;
  __local real* qt;
} FaceArrays;

/* Four cells along one axis from the tile, starting at tile index first (stride 1 or TILE_W). */
inline void tile_stencil(AxisStencil* s, __local const real* th, __local const real* teta,
  __local const real* t_normal, __local const real* t_transverse, int first, int stride)
{
  for (int k = 0; k < 4; ++k)
  {
    const int t = first + k * stride;
    s->h[k] = th[t];
    s->eta[k] = teta[t];
    s->un[k] = t_normal[t];
    s->ut[k] = t_transverse[t];
  }
}

/* Stores the face between tile cells first + stride and first + 2 stride at faces[f]. */
inline void store_face(FaceArrays faces, int f, __local const real* th, __local const real* teta,
  __local const real* t_normal, __local const real* t_transverse, int first, int stride)
{
  AxisStencil s;
  tile_stencil(&s, th, teta, t_normal, t_transverse, first, stride);
  FaceFlux toLeft, toRight;
  face_fluxes(reconstruct(&s, 1, (real)1, (real)H_DRY), reconstruct(&s, 2, (real)-1, (real)H_DRY),
    (real)GRAVITY, (real)H_DRY, &toLeft, &toRight);
  faces.h[f] = toLeft.h;
  faces.qn_left[f] = toLeft.qn;
  faces.qn_right[f] = toRight.qn;
  faces.qt[f] = toLeft.qt;
}

/* dx times the rate of change along one axis of the cell at tile index first + 2 stride, from
 * its faces west (faces[w]) and east (faces[e]) and its own reconstruction (for the bed-slope
 * term): the arithmetic of axis_rate(). */
inline FaceFlux cell_rate(FaceArrays faces, int w, int e, __local const real* th,
  __local const real* teta, __local const real* t_normal, __local const real* t_transverse,
  int first, int stride)
{
  AxisStencil s;
  tile_stencil(&s, th, teta, t_normal, t_transverse, first, stride);
  const FaceState cW = reconstruct(&s, 2, (real)-1, (real)H_DRY);
  const FaceState cE = reconstruct(&s, 2, (real)1, (real)H_DRY);
  const real bW = cW.eta - cW.h, bE = cE.eta - cE.h;
  FaceFlux rate;
  rate.h = faces.h[w] - faces.h[e];
  rate.qn =
    faces.qn_right[w] - faces.qn_left[e] - (real)GRAVITY * (real)0.5 * (cW.h + cE.h) * (bE - bW);
  rate.qt = faces.qt[w] - faces.qt[e];
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
  __local real th[TILE_CELLS], teta[TILE_CELLS], tu[TILE_CELLS], tv[TILE_CELLS];
  __local real xh[X_FACES], xqnl[X_FACES], xqnr[X_FACES], xqt[X_FACES];
  __local real yh[Y_FACES], yqnl[Y_FACES], yqnr[Y_FACES], yqt[Y_FACES];
  const FaceArrays x_faces = { xh, xqnl, xqnr, xqt };
  const FaceArrays y_faces = { yh, yqnl, yqnr, yqt };
  const int i = get_global_id(0), j = get_global_id(1);
  const int li = get_local_id(0), lj = get_local_id(1);
  const int lid = local_id_linear();
  const int i0 = i - li, j0 = j - lj;
  /* The same for the whole group, so the barriers below are reached by all or none. */
  const real dt = ctrl[CTRL_DT];
  if (dt > (real)0)
  {
    /* Phase 1. Cells past the ghost layers (groups overhanging the grid) are never read. */
    for (int t = lid; t < TILE_CELLS; t += WG_SIZE)
    {
      const int x = t % TILE_W - 2, y = t / TILE_W - 2;
      const bool corner = (x < 0 || x >= WG_X) && (y < 0 || y >= WG_Y);
      if (!corner && i0 + x <= NX + 1 && j0 + y <= NY + 1)
      {
        const int c = IDX(i0 + x, j0 + y);
        const real depth = h[c];
        th[t] = depth;
        teta[t] = depth + bed[c];
        tu[t] = cell_velocity(depth, hu[c], (real)H_DRY);
        tv[t] = cell_velocity(depth, hv[c], (real)H_DRY);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Phase 2: faces on the grid, x faces for columns 0..NX of rows 0..NY-1, y faces likewise. */
    for (int f = lid; f < X_FACES + Y_FACES; f += WG_SIZE)
    {
      if (f < X_FACES)
      {
        const int x = f % (WG_X + 1), y = f / (WG_X + 1);
        if (i0 + x <= NX && j0 + y < NY)
          store_face(x_faces, f, th, teta, tu, tv, TILE(x - 2, y), 1);
      }
      else
      {
        const int g = f - X_FACES, x = g % WG_X, y = g / WG_X;
        if (i0 + x < NX && j0 + y <= NY)
          store_face(y_faces, g, th, teta, tv, tu, TILE(x, y - 2), TILE_W);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  /* Phase 3. */
  real speed = (real)0;
  if (i < NX && j < NY)
  {
    const int c = IDX(i, j);
    real hn = h[c], hun = hu[c], hvn = hv[c];
    bool ok = true;
    if (dt > (real)0)
    {
      const int wx = lj * (WG_X + 1) + li, sy = lj * WG_X + li;
      const FaceFlux rx =
        cell_rate(x_faces, wx, wx + 1, th, teta, tu, tv, TILE(li - 2, lj), 1);
      const FaceFlux ry =
        cell_rate(y_faces, sy, sy + WG_X, th, teta, tv, tu, TILE(li, lj - 2), TILE_W);
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
