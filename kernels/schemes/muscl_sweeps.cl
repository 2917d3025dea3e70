/* One Heun stage of the second-order scheme (arithmetic in muscl_hllc.h). Stage 1 writes
 * U1 = U + dt L(U) into the scratch state; stage 2 writes U = (U + U1 + dt L(U1)) / 2 back into
 * the state, fused with the blow-up check and the first stage of the next step's wave-speed
 * maximum.
 *
 * A work-group is one row of WG_X work-items, one column of cells each, that sweeps ROWS rows
 * northwards. The sweep keeps the column's last cells in registers, so along y each cell is
 * loaded, limited and each face solved once, with no local memory. Along x the row's items trade
 * through local memory, three small exchanges a row: cell values (for the slopes), east face
 * values (for the face solve), face fluxes (for the update). The two items at either end only
 * supply neighbours, so a group updates WG_X - 4 cells of each row. Each face is still solved
 * once, and every value comes from the functions that axis_rate() (the C++ twin) uses, so the
 * results are the twin's to round-off.
 *
 * Registers and row exchanges take the place of a local-memory tile of the cells, slopes and
 * faces, and each row's global loads are issued before its barriers, so that their latency hides
 * behind them; what bounds the sweep is its instruction count (see PERFORMANCE.md, 'Decisions
 * that stand' and 'Scaling model').
 * ROWS >= 2 (LaunchShape). */

#ifndef MUSCL_LANES /* the GPU-shaped sweeps; the CPU-shaped kernels are at the end */

#define UPDATED_W (WG_X - 4)

/* In fp32 the MUSCL-Hancock sweep's row loop is unrolled by two, so that sliding the window
 * along y is register renaming instead of moves; in fp64 the registers that takes cost more than
 * the moves, and the MUSCL-HLLC stage is slower unrolled too (see PERFORMANCE.md, 'Decisions
 * that stand'). Only for an even count of rows: PoCL miscompiled an odd count's leftover row,
 * which holds barriers (the kernel's results left the twin's). -DSWEEP_UNROLL= turns it off. */
#ifndef SWEEP_UNROLL
#if defined(SWE_DOUBLE) || (ROWS % 2 != 0)
#define SWEEP_UNROLL
#else
#define SWEEP_UNROLL _Pragma("unroll 2")
#endif
#endif

/* One cell's values seen along x (un = u) or along y (un = v). */
inline FaceState along(real h, real eta, real u, real v, bool y_axis)
{
  FaceState s;
  s.h = h;
  s.eta = eta;
  s.un = y_axis ? v : u;
  s.ut = y_axis ? u : v;
  return s;
}

/* A cell's stored values, as loaded: zeros outside the ghost layers (never used). */
typedef struct
{
  real h;
  real hu;
  real hv;
  real bed;
} StoredCell;

inline StoredCell load_cell(__global const real* h, __global const real* hu,
  __global const real* hv, __global const real* bed, int i, int j, bool column_exists)
{
  StoredCell s;
  s.h = s.hu = s.hv = s.bed = (real)0;
  if (column_exists && j >= -GHOST && j < NY + GHOST)
  {
    const int c = IDX(i, j);
    s.h = h[c];
    s.hu = hu[c];
    s.hv = hv[c];
    s.bed = bed[c];
  }
  return s;
}

/* Depth, surface and velocities seen along y. */
inline FaceState y_state(StoredCell s)
{
  return along(s.h, s.h + s.bed, cell_velocity(s.h, s.hu, (real)H_DRY),
    cell_velocity(s.h, s.hv, (real)H_DRY), true);
}

/* Local memory for a row's exchanges, one array per value (no bank conflicts). */
typedef struct
{
  __local real* h;
  __local real* eta;
  __local real* un;
  __local real* ut;
} RowExchange;

inline void put(RowExchange x, int k, FaceState s)
{
  x.h[k] = s.h;
  x.eta[k] = s.eta;
  x.un[k] = s.un;
  x.ut[k] = s.ut;
}

inline FaceState get(RowExchange x, int k)
{
  FaceState s;
  s.h = x.h[k];
  s.eta = x.eta[k];
  s.un = x.un[k];
  s.ut = x.ut[k];
  return s;
}

/* A sweep's local memory: for a row's exchanges and the group's speed maximum, one array per
 * value. OpenCL C 1.2 allows __local variables only at kernel scope, so the kernels declare it
 * and pass it to the functions that hold their bodies. */
typedef struct
{
  real scratch[WG_SIZE];
  real ch[WG_X], ceta[WG_X], cun[WG_X], cut[WG_X]; /* cell values */
  real eh[WG_X], eeta[WG_X], eun[WG_X], eut[WG_X]; /* values at the east face */
  real fh[WG_X], fqn[WG_X], fqt[WG_X];             /* west face flux, as x-1 sees it */
  int wet; /* whether a cell the group wrote holds water (dry_tiles.h) */
} SweepMemory;

/* What every sweep body names first: its local memory (m, a __local SweepMemory*); the item's
 * place (k in the row of items, kw and ke its neighbours there, column i, first row j0);
 * whether its column lies within the grid and its ghost layers, and whether it updates cells
 * (the two items at either end only supply neighbours). The group's cells are a tile (tx, ty;
 * dry_tiles.h), whose wet flag starts clear, before the body's first barrier. A launch may cover
 * a rectangle of the tiles alone, from its global offset (RankCoupling::sendEarly): the tile is
 * taken from the global id (from the group id and the offset it costs the capped pass more
 * arithmetic: see PERFORMANCE.md, 'Decisions that stand'). */
#define SWEEP_PLACE(m)                                                                            \
  __local real* const scratch = (m)->scratch;                                                     \
  const RowExchange cells = { (m)->ch, (m)->ceta, (m)->cun, (m)->cut },                           \
                    east_faces = { (m)->eh, (m)->eeta, (m)->eun, (m)->eut };                      \
  const int k = get_local_id(0), kw = max(k - 1, 0), ke = min(k + 1, WG_X - 1);                  \
  const int tx = (int)get_global_id(0) / WG_X, ty = get_global_id(1);                            \
  const int i = tx * UPDATED_W + k - 2, j0 = ty * ROWS;                                           \
  const bool column_exists = i < NX + GHOST;                                                      \
  const bool updates = k >= 2 && k < WG_X - 2 && i < NX;                                        \
  if (k == 0)                                                                                     \
    (m)->wet = 0;

/* A tile's wave-speed maximum (publish_speed), kept at the tile's place in the whole launch where
 * each group keeps its own: a launch over some of the tiles (RankCoupling::sendEarly) has group
 * ids of its own. */
#define SWEEP_TILES_X ((NX + UPDATED_W - 1) / UPDATED_W)
inline void publish_tile_speed(real tile_speed, __global real* partial_max, int tx, int ty)
{
#if SPEED_MAX_ATOMIC
  publish_speed(tile_speed, partial_max);
#else
  partial_max[ty * SWEEP_TILES_X + tx] = tile_speed;
#endif
}

/* Stores the new state of cell (i, j) at c and, where the rank owns it, takes its wave speed
 * into *speed, or reports the cell (linear interior index) as non-physical; with SKIP_DRY,
 * gathers its bits into *water (dry_tiles.h). */
inline void store_checked(__global real* h_out, __global real* hu_out, __global real* hv_out,
  int c, int i, int j, real h, real hu, real hv, bool ok, real* speed, __global int* status,
  uint* water)
{
  if (SKIP_DRY)
    *water |= WATER_BITS(h) | WATER_BITS(hu) | WATER_BITS(hv);
  h_out[c] = h;
  hu_out[c] = hu;
  hv_out[c] = hv;
  const int cell = j * NX + i;
  if (!OWNED(i, j))
    return;
  if (ok && h >= (real)0 && isfinite(h) && isfinite(hu) && isfinite(hv))
    *speed = fmax(*speed, wave_speed(h, hu, hv));
  else
    atomic_min(&status[STATUS_BAD_CELL], cell);
}

/* A face of the sweep: capped in MUSCL-Hancock's second pass (capped_face_fluxes, with the two
 * cells' depths there before the half step), not otherwise. `capped` is a constant in each
 * kernel, so the other sweeps neither load those depths nor compare with them. */
inline void sweep_face(bool capped, FaceState L, FaceState R, real hL, real hR, real k4,
  FaceFlux* toLeft, FaceFlux* toRight)
{
  if (capped)
    capped_face_fluxes(L, R, hL, hR, k4, (real)GRAVITY, (real)H_DRY, toLeft, toRight);
  else
    face_fluxes(L, R, (real)GRAVITY, (real)H_DRY, toLeft, toRight);
}

/* dx times the rate of change along x of the item's cell, from the values at its west and east
 * faces: each item solves its west face (with west_mass imposed there, or NaN: with_imposed_mass)
 * and takes its east face's flux from its east neighbour, trading through local memory. When
 * capped, the depths before the half step come from rooms_e (the west neighbour's east face) and
 * rooms_w (this cell's west face). Holds two barriers: every item of the group calls it. */
inline FaceFlux x_rate(__local SweepMemory* m, int k, int kw, int ke, FaceState west_face,
  FaceState east_face, bool capped, __local const real* rooms_e, __local const real* rooms_w,
  real k4, real west_mass)
{
  const RowExchange east_faces = { m->eh, m->eeta, m->eun, m->eut };
  put(east_faces, k, east_face);
  barrier(CLK_LOCAL_MEM_FENCE);
  FaceFlux west, west_seen_west;
  sweep_face(capped, get(east_faces, kw), west_face, capped ? rooms_e[kw] : (real)0,
    capped ? rooms_w[k] : (real)0, k4, &west_seen_west, &west);
  west_seen_west = with_imposed_mass(west_seen_west, west_mass);
  west = with_imposed_mass(west, west_mass);
  m->fh[k] = west_seen_west.h;
  m->fqn[k] = west_seen_west.qn;
  m->fqt[k] = west_seen_west.qt;
  barrier(CLK_LOCAL_MEM_FENCE);
  FaceFlux east;
  east.h = m->fh[ke];
  east.qn = m->fqn[ke];
  east.qt = m->fqt[ke];
  return rate_from_faces(west, east, west_face, east_face, (real)GRAVITY);
}

/* Once the clock has reached its target, a step leaves the state where it is, and the speeds the
 * last step published stand (reset_speeds_choose_dt); a scheme that writes the other copy
 * carries the item's cells of the state (h, hu, hv) there (h_out, hu_out, hv_out). The state's
 * own speeds are taken too, and not published: without their loads PoCL 3.1 compiled the
 * MUSCL-Hancock sweep wrongly (its steps' speeds were lost). */
inline real speed_at_target(__global const real* h, __global const real* hu,
  __global const real* hv, __global real* h_out, __global real* hu_out, __global real* hv_out,
  bool carry, int i, int j0, bool updates)
{
  real speed = (real)0;
  for (int r = 0; r < ROWS && updates; ++r)
  {
    const int j = j0 + r;
    if (j < NY)
    {
      const int c = IDX(i, j);
      if (carry)
      {
        h_out[c] = h[c];
        hu_out[c] = hu[c];
        hv_out[c] = hv[c];
      }
      if (OWNED(i, j))
        speed = fmax(speed, wave_speed(h[c], hu[c], hv[c]));
    }
  }
  return speed;
}

/* dx times the rate of change along y of `cell`, from its south face flux and its north face
 * (solved here from its slopes and those of the cell above, limited with the next one; with
 * north_mass imposed there, or NaN); then slope and south become those of the cell above. */
inline FaceFlux y_rate(FaceState cell, FaceState above, FaceState next, FaceState* slope,
  FaceFlux* south, real north_mass)
{
  const real g = (real)GRAVITY;
  const FaceState slope_above = limited_slopes(cell, above, next, (real)H_DRY);
  FaceFlux north, north_seen_above;
  face_fluxes(at_face(cell, *slope, (real)1), at_face(above, slope_above, (real)-1), g,
    (real)H_DRY, &north, &north_seen_above);
  north = with_imposed_mass(north, north_mass);
  north_seen_above = with_imposed_mass(north_seen_above, north_mass);
  const FaceFlux rate = rate_from_faces(
    *south, north, at_face(cell, *slope, (real)-1), at_face(cell, *slope, (real)1), g);
  *slope = slope_above;
  *south = north_seen_above;
  return rate;
}

/* A column's window along y at a sweep's start: the cells of rows j0 - 2 .. j0 + 1, as seen
 * along y. */
typedef struct
{
  FaceState below, cell, above, ahead;
} ColumnWindow;

inline ColumnWindow open_window(__global const real* h, __global const real* hu,
  __global const real* hv, __global const real* bed, int i, int j0, bool column_exists)
{
  ColumnWindow w;
  w.below = y_state(load_cell(h, hu, hv, bed, i, j0 - 2, column_exists));
  w.cell = y_state(load_cell(h, hu, hv, bed, i, j0 - 1, column_exists));
  w.above = y_state(load_cell(h, hu, hv, bed, i, j0, column_exists));
  w.ahead = y_state(load_cell(h, hu, hv, bed, i, j0 + 1, column_exists));
  return w;
}

/* Slides a column's window along y one row north: the row above becomes the cell's, the next
 * one the row above, and the incoming cell the one ahead. */
inline void slide_window(FaceState* cell, FaceState* above, FaceState* ahead, StoredCell incoming)
{
  *cell = *above;
  *above = *ahead;
  *ahead = y_state(incoming);
}

/* What a cell's update starts from, loaded before the row's barriers so that their latency hides
 * behind them: its momenta, and in the Heun scheme's final stage its base state (zeros where the
 * item updates no cell). */
typedef struct
{
  real hu, hv, h_base, hu_base, hv_base;
} UpdateBase;

inline UpdateBase load_update_base(__global const real* hu, __global const real* hv,
  __global const real* h_base, __global const real* hu_base, __global const real* hv_base, int c,
  bool here, bool with_base)
{
  UpdateBase b = { (real)0, (real)0, (real)0, (real)0, (real)0 };
  if (here)
  {
    b.hu = hu[c];
    b.hv = hv[c];
    if (with_base)
    {
      b.h_base = h_base[c];
      b.hu_base = hu_base[c];
      b.hv_base = hv_base[c];
    }
  }
  return b;
}

/* Heun's average of the base state and the second stage's Euler step (u: the depth's draw). */
inline void heun_average(real* h, real* hu, real* hv, UpdateBase b, real u)
{
  *h = heun_depth(b.h_base, *h, u);
  *hu = (real)0.5 * (b.hu_base + *hu);
  *hv = (real)0.5 * (b.hv_base + *hv);
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void
muscl_hllc_stage(MUSCL_HLLC_STAGE_ARGUMENTS)
{
  __local SweepMemory memory;
  SWEEP_PLACE(&memory)
  const real g = (real)GRAVITY;
  /* The same for the whole group, so the barriers below are reached by all or none. */
  const real step_dt = ctrl[CTRL_DT]; /* (loaded with the tiles' flags, not after them) */
  const uint stage_count = ROUNDING_STAGE(status[STATUS_STEPS], final_stage);
  const bool updated = tile_updated(TILE_PARAMETERS, tx, ty, false, k == 0);
  const real dt = updated ? step_dt : (real)0;
  real speed = (real)0;
  uint water = 0;
  if (dt > (real)0)
  {
    /* The column's window along y: cells j .. j + 2 of the row j being updated, the slopes of
     * cell j, and the flux through the face south of j as cell j sees it. */
    const ColumnWindow window = open_window(h, hu, hv, bed, i, j0, column_exists);
    const FaceState below = window.below;
    FaceState cell = window.cell, above = window.above, ahead = window.ahead;
    /* Row j0 - 1's north face is row j0's south face (its rate is not needed). */
    FaceState slope = limited_slopes(below, cell, above, (real)H_DRY);
    FaceFlux south = { (real)0, (real)0, (real)0 };
    y_rate(cell, above, ahead, &slope, &south, Y_FACE_MASS(i, j0));
    slide_window(&cell, &above, &ahead, load_cell(h, hu, hv, bed, i, j0 + 2, column_exists));
    for (int r = 0; r < ROWS; ++r)
    {
      const int j = j0 + r;
      /* Loads are issued here and used at the end of the row, after the barriers: the next
       * cell of the window, and this cell's momenta and Heun base for its update. */
      const StoredCell incoming = load_cell(h, hu, hv, bed, i, j + 3, column_exists);
      const bool here = updates && j < NY;
      const int c = IDX(i, j);
      const bool folds = here && !final_stage; /* (flood_maps.h) */
      const CellMaps seen = step_input_maps(MAP_PARAMETERS, c, folds ? cell.h : (real)0);
      const UpdateBase base =
        load_update_base(hu, hv, h_base, hu_base, hv_base, c, here, final_stage);
      /* Along x: the row's cell values, then each item's east face values, then each face's
       * flux (an item solves its west face). Along y, while the first exchange is under way,
       * the north face. */
      const FaceState mine = along(cell.h, cell.eta, cell.ut, cell.un, false);
      put(cells, k, mine);
      const FaceFlux ry = y_rate(cell, above, ahead, &slope, &south, Y_FACE_MASS(i, j + 1));
      barrier(CLK_LOCAL_MEM_FENCE);
      const FaceState x_slope = limited_slopes(get(cells, kw), mine, get(cells, ke), (real)H_DRY);
      const FaceFlux rx = x_rate(&memory, k, kw, ke, at_face(mine, x_slope, (real)-1),
        at_face(mine, x_slope, (real)1), false, 0, 0, (real)0, X_FACE_MASS(i, j));
      if (here)
      {
        real hn = mine.h, hun = base.hu, hvn = base.hv;
        if (folds)
          fold_step_input(MAP_PARAMETERS, ctrl, c, seen, hn, hun, hvn);
        const bool ok = euler_update(&hn, &hun, &hvn, rx, ry, dt * inv_dx, dt, MANNING_AT(c),
          RAIN_AT(c), g, (real)H_DRY, (real)H_FILM, CELL_DRAW(i, j, stage_count));
        if (final_stage)
        {
          heun_average(&hn, &hun, &hvn, base, CELL_DRAW(i, j, stage_count + 1));
          TAKE_LOSS(&hn, &hun, &hvn, LOSS, dt, (real)H_DRY);
        }
        store_checked(
          h_out, hu_out, hv_out, c, i, j, hn, hun, hvn, ok, &speed, status, &water);
      }
      slide_window(&cell, &above, &ahead, incoming);
    }
    if (SKIP_DRY && water != 0)
      memory.wet = 1;
  }
  else if (final_stage && updated) /* at the target; the final stage writes into the state it
                                    * averages */
    speed = speed_at_target(h_base, hu_base, hv_base, 0, 0, 0, false, i, j0, updates);
  /* (its barriers also order the wet flag's writes before it is read) */
  real group_speed = (real)0;
  if (final_stage || SKIP_DRY)
    group_speed = group_max(scratch, speed, k, WG_X);
  if (k != 0)
    return;
  if (final_stage && step_dt > (real)0)
    publish_tile_speed(group_speed, partial_max, tx, ty);
  if (dt > (real)0) /* (at the target nothing is written) */
    keep_tile_flags(TILE_PARAMETERS, tx, ty, memory.wet != 0, false);
}

/* The Hancock faces of a row's cells (this item's: yc, with its column's neighbours ys below and
 * yn above), their values along x traded through x with the row's items (k, neighbours kw and
 * ke) for the slopes. Holds a barrier: every item of the group calls it. */
inline CellFaces row_faces(RowExchange x, int k, int kw, int ke, FaceState ys, FaceState yc,
  FaceState yn, real half_k)
{
  const FaceState xc = along(yc.h, yc.eta, yc.ut, yc.un, false);
  put(x, k, xc);
  barrier(CLK_LOCAL_MEM_FENCE);
  return hancock_cell_faces(
    get(x, kw), xc, get(x, ke), ys, yc, yn, half_k, (real)GRAVITY, (real)H_DRY);
}

/* One MUSCL-Hancock step (muscl_hllc.h), one pass of it (see finish_hancock_pass): U_out = U +
 * dt L(U) with every face solved once from face values advanced by half a step, fused with the
 * blow-up check and the first stage of the next step's wave-speed maximum. The same sweep as
 * muscl_hllc_stage, one row later: the half step of a cell needs its slopes along x, so the row
 * exchange of cell values is that of the row above the one being updated, and the face values of
 * the updated row come from the iteration before (for the first row, from the prologue).
 * `capped` is a constant in each kernel, so each compiles only its own pass; rooms (the second
 * pass's) keeps the rows' depths at the faces before the half step (CellFaces) by the parity of
 * the row, rather than registers, which they would take past the 96 that let five groups of 128
 * share an H200 SM: fewer groups at once cost more than the local memory does (see
 * PERFORMANCE.md, 'Decisions that stand'). */
/* MUSCL-Hancock's local memory: the sweep's, and the capped pass's rooms (unused by the first). */
typedef struct
{
  SweepMemory sweep;
  real room_w[2][WG_X], room_e[2][WG_X], room_n[2][WG_X];
} HancockMemory;

/* Keeps a row's depths at the faces before the half step, for the capped pass's faces. */
inline void keep_rooms(__local HancockMemory* m, int parity, int k, CellFaces f)
{
  m->room_w[parity][k] = f.hw;
  m->room_e[parity][k] = f.he;
  m->room_n[parity][k] = f.hn;
}

/* The first row's faces of a Hancock sweep (rows j0 - 1 and j0, each exchange in its own local
 * arrays, so that no barrier is needed between them) and the flux through the face between them
 * as row j0 sees it (south); the capped pass keeps the row's rooms. */
inline CellFaces open_hancock_sweep(__local HancockMemory* memory, RowExchange cells,
  RowExchange east_faces, int k, int kw, int ke, FaceState below, FaceState cell, FaceState above,
  FaceState ahead, real half_k, real k4, bool capped, real south_mass, FaceFlux* south)
{
  const CellFaces faces_below = row_faces(cells, k, kw, ke, below, cell, above, half_k);
  const CellFaces faces = row_faces(east_faces, k, kw, ke, cell, above, ahead, half_k);
  if (capped)
    keep_rooms(memory, 0, k, faces);
  FaceFlux unused;
  sweep_face(capped, faces_below.n, faces.s, faces_below.hn, faces.hs, k4, &unused, south);
  *south = with_imposed_mass(*south, south_mass);
  return faces;
}

/* A cell's Hancock update from its rates along x and y (no barrier: the caller's row holds
 * them): its input folded into the flood maps, a depth the first pass would drive below zero
 * flagged for the capped pass (speed INFINITY), the Euler step with friction and rain, the
 * losses, and the checked store. */
inline void hancock_update(MAP_ARGUMENTS, __global const real* ctrl, __global real* h_out,
  __global real* hu_out, __global real* hv_out, __global int* status, int c, int i, int j,
  CellMaps seen, bool folds, bool capped, real hn, real hun, real hvn, FaceFlux rx, FaceFlux ry,
  real kdt, real dt, real manning_here, real rain_here, uint stage_count, real* speed,
  uint* water)
{
  if (folds)
    fold_step_input(MAP_PARAMETERS, ctrl, c, seen, hn, hun, hvn);
  if (!capped && depth_after(hn, rx, ry, kdt) < (real)0)
    *speed = INFINITY; /* the step is to be taken again, capped */
  const bool ok = euler_update(&hn, &hun, &hvn, rx, ry, kdt, dt, manning_here, rain_here,
    (real)GRAVITY, (real)H_DRY, (real)H_FILM, CELL_DRAW(i, j, stage_count));
  TAKE_LOSS(&hn, &hun, &hvn, LOSS, dt, (real)H_DRY);
  store_checked(h_out, hu_out, hv_out, c, i, j, hn, hun, hvn, ok, speed, status, water);
}

/* The body of both passes. dt is the same for the whole group, so the barriers are reached by
 * all or none. A second pass that is not needed (idle), and a tile left out, skip the speed
 * maximum too: the condition is the group's, so every item takes the same branch. (PoCL's
 * kernel compiler once mishandled an early return around the whole body, with wrong results or
 * a kernel that never ended, so the body stays under conditions rather than behind a return;
 * and with the group maximum moved into a function of its own the results left the twin's: it
 * stays in the body. The tests run this form on PoCL 3.1.) */
inline void hancock_sweep(MUSCL_HANCOCK_STEP_ARGUMENTS, __local HancockMemory* memory,
  const bool capped)
{
  SWEEP_PLACE(&memory->sweep)
  const real g = (real)GRAVITY;
  /* (A held dt takes every step capped, in this pass alone: Parameters.h, exchangeInterval.) */
  const bool idle = capped && !HELD_DT_CAPPED && status[STATUS_REDO] == 0;
  const real step_dt = ctrl[CTRL_DT]; /* (loaded with the tiles' flags, not after them) */
  const uint stage_count = ROUNDING_STAGE(status[STATUS_STEPS], 0);
  const bool updated =
    !idle && tile_updated(TILE_PARAMETERS, tx, ty, capped && !HELD_DT_CAPPED, k == 0);
  const real dt = updated ? step_dt : (real)0;
  const real kdt = dt * inv_dx, half_k = (real)0.5 * kdt, k4 = (real)4 * kdt;
  real speed = (real)0;
  uint water = 0;
  if (dt > (real)0)
  {
    /* The column's window along y: rows j .. j + 2 for row j = j0 + r, the half-step face
     * values of row j, and the flux through the face south of j as cell j sees it. Built first
     * from rows j0 - 2 .. j0 + 1: the faces of rows j0 - 1 and j0 (each exchange in its own
     * local arrays, so that no barrier is needed between them) and the face between them. */
    const ColumnWindow window = open_window(h, hu, hv, bed, i, j0, column_exists);
    const FaceState below = window.below;
    FaceState cell = window.cell, above = window.above, ahead = window.ahead;
    FaceFlux south;
    CellFaces faces = open_hancock_sweep(memory, cells, east_faces, k, kw, ke, below, cell, above,
      ahead, half_k, k4, capped, Y_FACE_MASS(i, j0), &south);
    slide_window(&cell, &above, &ahead, load_cell(h, hu, hv, bed, i, j0 + 2, column_exists));
    SWEEP_UNROLL
    for (int r = 0; r < ROWS; ++r)
    {
      const int j = j0 + r;
      const StoredCell incoming = load_cell(h, hu, hv, bed, i, j + 3, column_exists);
      const bool here = updates && j < NY;
      const int c = IDX(i, j);
      /* (a pass taken again has folded its input: flood_maps.h) */
      const bool folds = here && (!capped || HELD_DT_CAPPED);
      const CellMaps seen = step_input_maps(MAP_PARAMETERS, c, folds ? cell.h : (real)0);
      const UpdateBase base = load_update_base(hu, hv, hu, hu, hu, c, here, false); /* (no base) */
      const CellFaces faces_above = row_faces(cells, k, kw, ke, cell, above, ahead, half_k);
      const int par = r & 1;
      /* The face between row j and the row above. */
      if (capped)
        keep_rooms(memory, par ^ 1, k, faces_above);
      FaceFlux north, north_seen_above;
      sweep_face(capped, faces.n, faces_above.s, memory->room_n[par][k], faces_above.hs, k4,
        &north, &north_seen_above);
      north = with_imposed_mass(north, Y_FACE_MASS(i, j + 1));
      north_seen_above = with_imposed_mass(north_seen_above, Y_FACE_MASS(i, j + 1));
      const FaceFlux ry = rate_from_faces(south, north, faces.s, faces.n, g);
      /* Along x: each item's east face values, then each face's flux (an item solves its
       * west face). */
      const FaceFlux rx = x_rate(&memory->sweep, k, kw, ke, faces.w, faces.e, capped,
        memory->room_e[par], memory->room_w[par], k4, X_FACE_MASS(i, j));
      if (here)
        hancock_update(MAP_PARAMETERS, ctrl, h_out, hu_out, hv_out, status, c, i, j, seen, folds,
          capped, cell.h, base.hu, base.hv, rx, ry, kdt, dt, MANNING_AT(c), RAIN_AT(c),
          stage_count, &speed, &water);
      /* Slide the window one row north. */
      south = north_seen_above;
      faces = faces_above;
      slide_window(&cell, &above, &ahead, incoming);
    }
    if (SKIP_DRY && water != 0)
      memory->sweep.wet = 1;
  }
  else if (updated) /* at the target: the speeds the last step published stand */
    speed = speed_at_target(h, hu, hv, h_out, hu_out, hv_out, true, i, j0, updates);
  /* (a tile left out has no water, so no speed: it needs no maximum) */
  const real group_speed = updated ? group_max(scratch, speed, k, WG_X) : (real)0;
  if (k == 0 && !idle)
  {
    if (step_dt > (real)0)
      publish_tile_speed(group_speed, partial_max, tx, ty);
    finish_hancock_pass(capped, group_speed, partial_max, status);
    if (updated)
      keep_tile_flags(TILE_PARAMETERS, tx, ty, memory->sweep.wet != 0, !(dt > (real)0));
  }
}

/* The first pass of a MUSCL-Hancock step, and the second (see finish_hancock_pass). */
__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void
muscl_hancock_step(MUSCL_HANCOCK_STEP_ARGUMENTS)
{
  __local HancockMemory memory;
  hancock_sweep(MUSCL_HANCOCK_STEP_PARAMETERS, &memory, false);
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void
muscl_hancock_step_capped(MUSCL_HANCOCK_STEP_ARGUMENTS)
{
  __local HancockMemory memory;
  hancock_sweep(MUSCL_HANCOCK_STEP_PARAMETERS, &memory, true);
}
#endif
