/* The CPU-shaped second-order kernels (the program built with -DMUSCL_LANES=8 or 16, where
 * muscl_hllc.h works on realm, that many cells side by side): few work-items, each BLOCK_ROWS
 * whole rows, MUSCL_LANES cells of a row at a time with explicit vectors (PoCL does not vectorise
 * the sweeps: their barriers split each row into separate loops over the work-items). Nothing is
 * shared, so there is no local memory and no barrier; a cell recomputes its neighbours' face
 * values instead of trading them (along x the neighbours are other lanes). Every value comes
 * from the same functions, with the same operands, as in the sweeps and the C++ twin, so the
 * results are the same bits where the device's vector built-ins (division, sqrt, cbrt) round as
 * its scalar ones, which the tests check on every device they run on. A row's last, partial
 * group repeats its last ghost column in the lanes past the grid and stores only the cells in
 * it. */
#ifdef MUSCL_LANES

/* The lanes of p at columns x0, x0 + 1, ... of row j; columns beyond the ghost layers repeat the
 * outermost ghost column (such lanes are never stored). */
inline realm load_lanes(__global const real* p, int x0, int j)
{
  if (x0 >= -GHOST && x0 + MUSCL_LANES - 1 < NX + GHOST)
    return VLOADM(0, p + IDX(x0, j));
  real v[MUSCL_LANES];
  for (int k = 0; k < MUSCL_LANES; ++k)
    v[k] = p[IDX(clamp(x0 + k, -GHOST, NX + GHOST - 1), j)];
  return VLOADM(0, v);
}

/* The cells' depth, surface and velocities seen along x (un = u), as the sweeps see them. */
inline FaceState cells_along_x(__global const real* h, __global const real* hu,
  __global const real* hv, __global const real* bed, int x0, int j)
{
  const realm depth = load_lanes(h, x0, j);
  FaceState s;
  s.h = depth;
  s.eta = depth + load_lanes(bed, x0, j);
  s.un = cell_velocity(depth, load_lanes(hu, x0, j), (realm)H_DRY);
  s.ut = cell_velocity(depth, load_lanes(hv, x0, j), (realm)H_DRY);
  return s;
}

/* The same cells seen along y (un = v). */
inline FaceState along_y(FaceState s)
{
  const realm u = s.un;
  s.un = s.ut;
  s.ut = u;
  return s;
}

inline real lanes_max(realm v)
{
  real lanes[MUSCL_LANES];
  VSTOREM(v, 0, lanes);
  real m = lanes[0];
  for (int k = 1; k < MUSCL_LANES; ++k)
    m = fmax(m, lanes[k]);
  return m;
}

/* Which of the lanes from column i lie in the grid. */
inline maskm lanes_inside(int i)
{
  return LANE_INDEX < (realm)(NX - i);
}

/* The lanes of row j from column i whose cells count for the wave speeds and the blow-up
 * check: those in the grid that the rank owns (grid.h, OWNED). */
inline maskm lanes_counted(int i, int j)
{
  return lanes_inside(i) && OWNED_LANES(realm, LANE_INDEX, i, j);
}

/* Writes the lanes' values of the cells of row j from column i: all MUSCL_LANES where the group
 * lies in the grid, else the NX - i left. */
inline void write_lanes(__global real* h_out, __global real* hu_out, __global real* hv_out,
  int i, int j, realm h, realm hu, realm hv)
{
  const int c = IDX(i, j);
  if (i + MUSCL_LANES <= NX)
  {
    VSTOREM(h, 0, h_out + c);
    VSTOREM(hu, 0, hu_out + c);
    VSTOREM(hv, 0, hv_out + c);
    return;
  }
  real vh[MUSCL_LANES], vhu[MUSCL_LANES], vhv[MUSCL_LANES];
  VSTOREM(h, 0, vh);
  VSTOREM(hu, 0, vhu);
  VSTOREM(hv, 0, vhv);
  for (int k = 0; k < NX - i; ++k)
  {
    h_out[c + k] = vh[k];
    hu_out[c + k] = vhu[k];
    hv_out[c + k] = vhv[k];
  }
}

/* Writes the new state of the cells of row j from column i (write_lanes), takes their wave
 * speeds into *speed, and the linear index of the first non-physical one into *bad (the sweeps'
 * store_checked, a group of lanes at a time); with SKIP_DRY, notes in *wet whether one holds
 * water. */
inline void store_lanes(__global real* h_out, __global real* hu_out, __global real* hv_out,
  int i, int j, realm h, realm hu, realm hv, maskm ok, realm* speed, int* bad, int* wet)
{
  const maskm inside = lanes_inside(i);
  if (SKIP_DRY)
    *wet |= any(inside && (HOLDS_WATER(h) || HOLDS_WATER(hu) || HOLDS_WATER(hv)));
  const maskm good = ok && h >= (real)0 && isfinite(h) && isfinite(hu) && isfinite(hv);
  const maskm counted = lanes_counted(i, j);
  *speed = fmax(*speed, WAVE_SPEED_WHERE(realm, counted && good, h, hu, hv));
  write_lanes(h_out, hu_out, hv_out, i, j, h, hu, hv);
  const maskm reported = counted && !good;
  if (any(reported))
  {
    /* (the lanes' first bad cell: its lane index, read back as a value of `real`) */
    real lane[MUSCL_LANES];
    VSTOREM(reported ? LANE_INDEX : (realm)(MUSCL_LANES), 0, lane);
    for (int k = 0; k < MUSCL_LANES; ++k)
      if (lane[k] < (real)MUSCL_LANES)
        *bad = min(*bad, j * NX + i + k);
  }
}

/* The work-item's (its group's) first bad cell, and with `speeds` its maximum speed, published as
 * the sweeps publish theirs; returns that speed. */
inline real publish_rows(bool speeds, realm speed, int bad, __global real* partial_max,
  __global int* status)
{
  const real group_speed = lanes_max(speed);
  if (speeds)
  {
#if SPEED_MAX_ATOMIC
    ATOMIC_MAX_SPEED(partial_max, group_speed);
#else
    partial_max[get_group_id(0)] = group_speed;
#endif
  }
  if (bad != INT_MAX)
    atomic_min(&status[STATUS_BAD_CELL], bad);
  return group_speed;
}

#ifdef MANNING_FIELD
#define MANNING_LANES(i, j) load_lanes(manning_field, (i), (j))
#else
#define MANNING_LANES(i, j) ((realm)(manning))
#endif
#if defined(RAIN_ZONES)
/* Each lane's zone's rate (grid.h, RAIN_AT). */
inline realm zone_rain_lanes(__global const real* ctrl, realm zones)
{
  real lane[MUSCL_LANES];
  VSTOREM(zones, 0, lane);
  for (int k = 0; k < MUSCL_LANES; ++k)
    lane[k] = ctrl[CTRL_ZONE_RAIN + (int)lane[k]];
  return VLOADM(0, lane);
}
#define RAIN_LANES(i, j) zone_rain_lanes(ctrl, load_lanes(manning_field + RAIN_PLANE, (i), (j)))
#elif defined(RAIN_FIELD)
#define RAIN_LANES(i, j) ((realm)RAIN * load_lanes(manning_field + RAIN_PLANE, (i), (j)))
#else
#define RAIN_LANES(i, j) ((realm)RAIN)
#endif

/* The lanes' draws for rounding their depths at random (CELL_DRAW, muscl_steps.h). */
#ifdef SWE_DOUBLE
#define LANES_DRAW(i, j, stage_count) ((realm)0)
#else
DEFINE_ROUNDING_DRAW(rounding_draw_lanes, uintm, realm, CONVERT_FLOATM)
#define LANES_DRAW(i, j, stage_count)                                                              \
  rounding_draw_lanes(                                                                             \
    (uintm)((i) + BLOCK_X0) + LANE_UINDEX, (uintm)((j) + BLOCK_Y0), stage_count)
#endif

/* The mass fluxes imposed on the sides' faces (boundary.cl) for the lanes of row j from column
 * i: along x on each lane's west face (east: face i + 1), along y on its south face (north:
 * row j + 1); NaN where none is, and in a run without an inflow side a constant NaN. */
#if IMPOSED_SIDES
inline realm imposed_lanes(int i, int j, bool y_axis, __global const real* ctrl)
{
  real lane[MUSCL_LANES];
  for (int k = 0; k < MUSCL_LANES; ++k)
    lane[k] = y_axis ? imposed_y_face(i + k, j, ctrl) : imposed_x_face(i + k, j, ctrl);
  return VLOADM(0, lane);
}
#define X_LANES_MASS(i, j) imposed_lanes(i, j, false, ctrl)
#define Y_LANES_MASS(i, j) imposed_lanes(i, j, true, ctrl)
#else
#define X_LANES_MASS(i, j) ((realm)NAN)
#define Y_LANES_MASS(i, j) ((realm)NAN)
#endif

/* The loops of the CPU-shaped kernels: over the tiles of the work-item's rows (tx, of
 * LANE_TILE_W columns: one a row without SKIP_DRY; dry_tiles.h), then over a tile's rows (j) and
 * the groups of lanes along each (from column i). */
#if SKIP_DRY
#define LANE_TILE_W TILE_W
#else
#define LANE_TILE_W (((NX + MUSCL_LANES - 1) / MUSCL_LANES) * MUSCL_LANES)
#endif
#define FOR_LANE_TILES(tx) for (int tx = 0; tx * LANE_TILE_W < NX; ++tx)
#define FOR_TILE_LANES(tx, j, i)                                                                  \
  for (int j = get_global_id(0) * BLOCK_ROWS;                                                     \
       j < min(((int)get_global_id(0) + 1) * BLOCK_ROWS, NY); ++j)                                \
    for (int i = (tx) * LANE_TILE_W; i < min(((tx) + 1) * LANE_TILE_W, NX); i += MUSCL_LANES)

/* hancock_sweep on MUSCL_LANES cells at a time: the Hancock faces of the cells and of their four
 * neighbours (each from the cells around it), then one flux solve per face and side. */
inline void hancock_rows(MUSCL_HANCOCK_STEP_ARGUMENTS, const bool capped)
{
  const real dt = ctrl[CTRL_DT];
  const real kdt = dt * inv_dx;
  const uint stage_count = ROUNDING_STAGE(status[STATUS_STEPS], 0);
  const realm g = (realm)GRAVITY, h_dry = (realm)H_DRY, half_k = (realm)((real)0.5 * kdt),
              k4 = (realm)(capped ? (real)4 * kdt : (real)0);
  realm speed = (realm)0;
  int bad = INT_MAX;
  FOR_LANE_TILES(tx)
  {
    if (!tile_updated(TILE_PARAMETERS, tx, get_global_id(0), capped && !HELD_DT_CAPPED, true))
      continue;
    int wet = 0;
    FOR_TILE_LANES(tx, j, i)
    {
      realm hun = load_lanes(hu, i, j), hvn = load_lanes(hv, i, j);
      if (!(dt > (real)0))
      {
        /* The clock has reached its target: the state is carried over to the other copy, and
         * the speeds the last step published stand, as in the sweep. */
        write_lanes(h_out, hu_out, hv_out, i, j, load_lanes(h, i, j), hun, hvn);
        continue;
      }
      /* Row j from column i - 2 to i + 2, rows j -+ 1 from i - 1 to i + 1, rows j -+ 2. */
      FaceState x[5], s[3], n[3];
      for (int d = 0; d < 5; ++d)
        x[d] = cells_along_x(h, hu, hv, bed, i + d - 2, j);
      for (int d = 0; d < 3; ++d)
      {
        s[d] = cells_along_x(h, hu, hv, bed, i + d - 1, j - 1);
        n[d] = cells_along_x(h, hu, hv, bed, i + d - 1, j + 1);
      }
      const FaceState ss = cells_along_x(h, hu, hv, bed, i, j - 2);
      const FaceState nn = cells_along_x(h, hu, hv, bed, i, j + 2);
      const CellFaces here = hancock_cell_faces(x[1], x[2], x[3], along_y(s[1]),
        along_y(x[2]), along_y(n[1]), half_k, g, h_dry);
      const CellFaces west = hancock_cell_faces(x[0], x[1], x[2], along_y(s[0]),
        along_y(x[1]), along_y(n[0]), half_k, g, h_dry);
      const CellFaces east = hancock_cell_faces(x[2], x[3], x[4], along_y(s[2]),
        along_y(x[3]), along_y(n[2]), half_k, g, h_dry);
      const CellFaces south = hancock_cell_faces(s[0], s[1], s[2], along_y(ss),
        along_y(s[1]), along_y(x[2]), half_k, g, h_dry);
      const CellFaces north = hancock_cell_faces(n[0], n[1], n[2], along_y(x[2]),
        along_y(n[1]), along_y(nn), half_k, g, h_dry);
      const FaceFlux rx = faces_rate(west.e, here.w, here.e, east.w, west.he, here.hw, here.he,
        east.hw, k4, g, h_dry, X_LANES_MASS(i, j), X_LANES_MASS(i + 1, j));
      const FaceFlux ry = faces_rate(south.n, here.s, here.n, north.s, south.hn, here.hs, here.hn,
        north.hs, k4, g, h_dry, Y_LANES_MASS(i, j), Y_LANES_MASS(i, j + 1));
      realm hn = x[2].h;
      if (!capped)
        speed = (lanes_inside(i) && depth_after(hn, rx, ry, (realm)kdt) < (real)0)
                  ? (realm)INFINITY
                  : speed;
      const maskm ok = euler_update(&hn, &hun, &hvn, rx, ry, (realm)kdt, (realm)dt,
        MANNING_LANES(i, j), RAIN_LANES(i, j), g, h_dry, (realm)H_FILM,
        LANES_DRAW(i, j, stage_count));
      TAKE_LOSS(&hn, &hun, &hvn, (realm)LOSS, (realm)dt, h_dry);
      store_lanes(h_out, hu_out, hv_out, i, j, hn, hun, hvn, ok, &speed, &bad, &wet);
    }
    keep_tile_flags(TILE_PARAMETERS, tx, get_global_id(0), wet != 0, !(dt > (real)0));
  }
  finish_hancock_pass(
    capped, publish_rows(dt > (real)0, speed, bad, partial_max, status), partial_max, status);
}

/* The first pass of a MUSCL-Hancock step, and the second (see finish_hancock_pass). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
muscl_hancock_rows(MUSCL_HANCOCK_STEP_ARGUMENTS)
{
  hancock_rows(MUSCL_HANCOCK_STEP_PARAMETERS, false);
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
muscl_hancock_rows_capped(MUSCL_HANCOCK_STEP_ARGUMENTS)
{
  /* (no barriers here, so unlike the sweep it may simply skip the step; the flag is the same
   * for every group of the pass: finish_hancock_pass) */
  if (HELD_DT_CAPPED || status[STATUS_REDO] != 0)
    hancock_rows(MUSCL_HANCOCK_STEP_PARAMETERS, true);
}

/* muscl_hllc_stage on MUSCL_LANES cells at a time: each cell's two faces on each axis from its
 * five-cell stencils (axis_rate, as in the C++ twin). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
muscl_hllc_rows(MUSCL_HLLC_STAGE_ARGUMENTS)
{
  const real dt = ctrl[CTRL_DT];
  const uint stage_count = ROUNDING_STAGE(status[STATUS_STEPS], final_stage);
  const realm g = (realm)GRAVITY, h_dry = (realm)H_DRY;
  realm speed = (realm)0;
  int bad = INT_MAX;
  FOR_LANE_TILES(tx)
  {
    if (!tile_updated(TILE_PARAMETERS, tx, get_global_id(0), false, true))
      continue;
    int wet = 0;
    FOR_TILE_LANES(tx, j, i)
    {
      if (!(dt > (real)0))
      {
        /* The clock has reached its target: nothing to write, and the speeds the last step
         * published stand (see muscl_hllc_stage). */
        continue;
      }
      AxisStencil sx, sy;
      for (int d = 0; d < 5; ++d)
      {
        const FaceState cx = cells_along_x(h, hu, hv, bed, i + d - 2, j);
        const FaceState cy =
          along_y(d == 2 ? cx : cells_along_x(h, hu, hv, bed, i, j + d - 2));
        sx.h[d] = cx.h, sx.eta[d] = cx.eta, sx.un[d] = cx.un, sx.ut[d] = cx.ut;
        sy.h[d] = cy.h, sy.eta[d] = cy.eta, sy.un[d] = cy.un, sy.ut[d] = cy.ut;
      }
      const FaceFlux rx = axis_rate(&sx, g, h_dry, X_LANES_MASS(i, j), X_LANES_MASS(i + 1, j)),
                     ry = axis_rate(&sy, g, h_dry, Y_LANES_MASS(i, j), Y_LANES_MASS(i, j + 1));
      realm hn = sx.h[2], hun = load_lanes(hu, i, j), hvn = load_lanes(hv, i, j);
      const maskm ok = euler_update(&hn, &hun, &hvn, rx, ry, (realm)(dt * inv_dx), (realm)dt,
        MANNING_LANES(i, j), RAIN_LANES(i, j), g, h_dry, (realm)H_FILM,
        LANES_DRAW(i, j, stage_count));
      if (final_stage)
      {
        hn = heun_depth(load_lanes(h_base, i, j), hn, LANES_DRAW(i, j, stage_count + 1));
        hun = (real)0.5 * (load_lanes(hu_base, i, j) + hun);
        hvn = (real)0.5 * (load_lanes(hv_base, i, j) + hvn);
        TAKE_LOSS(&hn, &hun, &hvn, (realm)LOSS, (realm)dt, h_dry);
      }
      store_lanes(h_out, hu_out, hv_out, i, j, hn, hun, hvn, ok, &speed, &bad, &wet);
    }
    if (dt > (real)0) /* (at the target nothing is written) */
      keep_tile_flags(TILE_PARAMETERS, tx, get_global_id(0), wet != 0, false);
  }
  publish_rows(final_stage && dt > (real)0, speed, bad, partial_max, status);
}

#endif
