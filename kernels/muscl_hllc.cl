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
 * It replaced a kernel that kept a two-cell halo tile, the slopes and the faces in local memory:
 * 1.85x faster in fp32 and 1.41x in fp64 on the H200 (the sweep +48 % fp32, then issuing each
 * row's global loads before its barriers +25 %); what bounds it now is its instruction count
 * (about 730 SASS instructions a cell and stage in fp32; PERFORMANCE.md).
 * ROWS >= 2 (LaunchShape). */

/* The arguments of the second-order kernels, the sweeps and the CPU-shaped ones alike, in the
 * order Simulation::bindKernels sets them. */
#define MUSCL_HLLC_STAGE_ARGUMENTS                                                                \
  __global const real *h, __global const real *hu, __global const real *hv,                       \
    __global const real *bed, __global const real *h_base, __global const real *hu_base,          \
    __global const real *hv_base, __global real *h_out, __global real *hu_out,                    \
    __global real *hv_out, __global const real *ctrl, __global int *status,                       \
    __global real *partial_max, const real manning, const real inv_dx, const int final_stage,     \
    __global const real *manning_field
#define MUSCL_HANCOCK_STEP_ARGUMENTS                                                              \
  __global const real *h, __global const real *hu, __global const real *hv,                       \
    __global const real *bed, __global real *h_out, __global real *hu_out,                        \
    __global real *hv_out, __global const real *ctrl, __global int *status,                       \
    __global real *partial_max, const real manning, const real inv_dx,                            \
    __global const real *manning_field
/* The same arguments' names, for the kernels that pass them on to the function holding their
 * body. */
#define MUSCL_HANCOCK_STEP_PARAMETERS                                                             \
  h, hu, hv, bed, h_out, hu_out, hv_out, ctrl, status, partial_max, manning, inv_dx, manning_field

/* MUSCL-Hancock takes a step in two launches of one kernel body. The first pass leaves out the
 * outflow cap (outflow_capped); the second, with the cap, runs only if the first took a depth
 * below zero, and then takes the whole step again (the step reads one copy of the state and
 * writes the other, so its input is still there). So depths stay non-negative at any dt, while
 * the cap's cost (its registers, PERFORMANCE.md) is paid only in the rare step that needs it;
 * a flux is never capped on one side of a face and not on the other, so mass is conserved.
 * A first-pass cell that went below zero publishes an infinite wave speed, which its group's
 * maximum carries to the item that publishes it; finish_hancock_pass, by that item, takes it
 * from there. */
inline void finish_hancock_pass(bool capped, real group_speed, __global real* partial_max,
  __global int* status)
{
  if (!capped && isinf(group_speed))
    atomic_max(&status[STATUS_REDO], 1);
  if (!last_group_to_finish(status, get_num_groups(0) * get_num_groups(1)))
    return;
  if (capped)
  {
    status[STATUS_REDO] = 0; /* every group of this pass has read it */
    return;
  }
  if (atomic_max(&status[STATUS_REDO], 0) == 0)
    return;
  /* The step is to be taken again: what the first pass published is void (its groups' partial
   * maxima, where kept per group, the second pass overwrites). */
#if SPEED_MAX_ATOMIC
  TAKE_MAX_SPEED(partial_max);
#endif
  atomic_xchg(&status[STATUS_BAD_CELL], INT_MAX);
  status[STATUS_REDONE] += 1;
}

#ifndef MUSCL_LANES /* the GPU-shaped sweeps; the CPU-shaped kernels are at the end */

#define UPDATED_W (WG_X - 4)

/* In fp32 the MUSCL-Hancock sweep's row loop is unrolled by two, so that sliding the window
 * along y is register renaming instead of moves (+4 % on the H200); in fp64 the registers that
 * takes cost more (-19 %), and the MUSCL-HLLC stage lost 3 % (PERFORMANCE.md). Only for an even
 * count of rows: PoCL miscompiled an odd count's leftover row, which holds barriers (the
 * kernel's results left the twin's). -DSWEEP_UNROLL= turns it off. */
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
} SweepMemory;

/* What every sweep body names first: its local memory (m, a __local SweepMemory*); the item's
 * place (k in the row of items, kw and ke its neighbours there, column i, first row j0);
 * whether its column lies within the grid and its ghost layers, and whether it updates cells
 * (the two items at either end only supply neighbours). */
#define SWEEP_PLACE(m)                                                                            \
  __local real *const scratch = (m)->scratch, *const fh = (m)->fh, *const fqn = (m)->fqn,         \
                      *const fqt = (m)->fqt;                                                      \
  const RowExchange cells = { (m)->ch, (m)->ceta, (m)->cun, (m)->cut },                           \
                    east_faces = { (m)->eh, (m)->eeta, (m)->eun, (m)->eut };                      \
  const int k = get_local_id(0), kw = max(k - 1, 0), ke = min(k + 1, WG_X - 1);                  \
  const int i = get_group_id(0) * UPDATED_W + k - 2, j0 = get_group_id(1) * ROWS;                 \
  const bool column_exists = i < NX + GHOST;                                                      \
  const bool updates = k >= 2 && k < WG_X - 2 && i < NX;

/* Stores a cell's new state at c and takes its wave speed into *speed, or reports the cell
 * (linear interior index `cell`) as non-physical. */
inline void store_checked(__global real* h_out, __global real* hu_out, __global real* hv_out,
  int c, int cell, real h, real hu, real hv, bool ok, real* speed, __global int* status)
{
  h_out[c] = h;
  hu_out[c] = hu;
  hv_out[c] = hv;
  if (ok && h >= (real)0 && isfinite(h) && isfinite(hu) && isfinite(hv))
    *speed = fmax(*speed, wave_speed(h, hu, hv));
  else
    atomic_min(&status[STATUS_BAD_CELL], cell);
}

/* dx times the rate of change along y of `cell`, from its south face flux and its north face
 * (solved here from its slopes and those of the cell above, limited with the next one); then
 * slope and south become those of the cell above. */
inline FaceFlux y_rate(FaceState cell, FaceState above, FaceState next, FaceState* slope,
  FaceFlux* south)
{
  const real g = (real)GRAVITY;
  const FaceState slope_above = limited_slopes(cell, above, next, (real)H_DRY);
  FaceFlux north, north_seen_above;
  face_fluxes(at_face(cell, *slope, (real)1), at_face(above, slope_above, (real)-1), g,
    (real)H_DRY, &north, &north_seen_above);
  const FaceFlux rate = rate_from_faces(
    *south, north, at_face(cell, *slope, (real)-1), at_face(cell, *slope, (real)1), g);
  *slope = slope_above;
  *south = north_seen_above;
  return rate;
}

__kernel __attribute__((reqd_work_group_size(WG_X, 1, 1))) void
muscl_hllc_stage(MUSCL_HLLC_STAGE_ARGUMENTS)
{
  __local SweepMemory memory;
  SWEEP_PLACE(&memory)
  const real g = (real)GRAVITY;
  /* The same for the whole group, so the barriers below are reached by all or none. */
  const real dt = ctrl[CTRL_DT];
  real speed = (real)0;
  if (dt > (real)0)
  {
    /* The column's window along y: cells j .. j + 2 of the row j being updated, the slopes of
     * cell j, and the flux through the face south of j as cell j sees it. */
    const FaceState below = y_state(load_cell(h, hu, hv, bed, i, j0 - 2, column_exists));
    FaceState cell = y_state(load_cell(h, hu, hv, bed, i, j0 - 1, column_exists));
    FaceState above = y_state(load_cell(h, hu, hv, bed, i, j0, column_exists));
    FaceState ahead = y_state(load_cell(h, hu, hv, bed, i, j0 + 1, column_exists));
    /* Row j0 - 1's north face is row j0's south face (its rate is not needed). */
    FaceState slope = limited_slopes(below, cell, above, (real)H_DRY);
    FaceFlux south = { (real)0, (real)0, (real)0 };
    y_rate(cell, above, ahead, &slope, &south);
    cell = above;
    above = ahead;
    ahead = y_state(load_cell(h, hu, hv, bed, i, j0 + 2, column_exists));
    for (int r = 0; r < ROWS; ++r)
    {
      const int j = j0 + r;
      /* Loads are issued here and used at the end of the row, after the barriers: the next
       * cell of the window, and this cell's momenta and Heun base for its update. */
      const StoredCell incoming = load_cell(h, hu, hv, bed, i, j + 3, column_exists);
      const bool here = updates && j < NY;
      const int c = IDX(i, j);
      real hun = (real)0, hvn = (real)0, h_b = (real)0, hu_b = (real)0, hv_b = (real)0;
      if (here)
      {
        hun = hu[c];
        hvn = hv[c];
        if (final_stage)
        {
          h_b = h_base[c];
          hu_b = hu_base[c];
          hv_b = hv_base[c];
        }
      }
      /* Along x: the row's cell values, then each item's east face values, then each face's
       * flux (an item solves its west face). Along y, while the first exchange is under way,
       * the north face. */
      const FaceState mine = along(cell.h, cell.eta, cell.ut, cell.un, false);
      put(cells, k, mine);
      const FaceFlux ry = y_rate(cell, above, ahead, &slope, &south);
      barrier(CLK_LOCAL_MEM_FENCE);
      const FaceState x_slope = limited_slopes(get(cells, kw), mine, get(cells, ke), (real)H_DRY);
      put(east_faces, k, at_face(mine, x_slope, (real)1));
      barrier(CLK_LOCAL_MEM_FENCE);
      FaceFlux west, west_seen_west;
      face_fluxes(get(east_faces, kw), at_face(mine, x_slope, (real)-1), g, (real)H_DRY,
        &west_seen_west, &west);
      fh[k] = west_seen_west.h;
      fqn[k] = west_seen_west.qn;
      fqt[k] = west_seen_west.qt;
      barrier(CLK_LOCAL_MEM_FENCE);
      FaceFlux east;
      east.h = fh[ke];
      east.qn = fqn[ke];
      east.qt = fqt[ke];
      const FaceFlux rx = rate_from_faces(west, east, at_face(mine, x_slope, (real)-1),
        at_face(mine, x_slope, (real)1), g);
      if (here)
      {
        real hn = mine.h;
        const bool ok = euler_update(
          &hn, &hun, &hvn, rx, ry, dt * inv_dx, dt, MANNING_AT(c), g, (real)H_DRY, (real)H_FILM);
        if (final_stage)
        {
          hn = (real)0.5 * (h_b + hn);
          hun = (real)0.5 * (hu_b + hun);
          hvn = (real)0.5 * (hv_b + hvn);
        }
        store_checked(h_out, hu_out, hv_out, c, j * NX + i, hn, hun, hvn, ok, &speed, status);
      }
      /* Slide the window one row north. */
      cell = above;
      above = ahead;
      ahead = y_state(incoming);
    }
  }
  else if (final_stage)
  {
    /* The clock has reached its target: the state stays where it is (the final stage writes
     * into the state it averages with, so there is nothing to copy), and its wave speeds are
     * published as a step would (the next step's dt, after the host sets a new target, comes
     * from them). */
    for (int r = 0; r < ROWS && updates; ++r)
    {
      const int j = j0 + r;
      if (j < NY)
      {
        const int c = IDX(i, j);
        speed = fmax(speed, wave_speed(h_base[c], hu_base[c], hv_base[c]));
      }
    }
  }
  if (final_stage)
    publish_group_max_speed(scratch, speed, partial_max);
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
 * share an H200 SM (106: -9 %; in local memory -4.6 %; PERFORMANCE.md). */
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

/* A face of the sweep: capped in the second pass (capped_face_fluxes, with the two cells' depths
 * there before the half step), not in the first. `capped` is a constant in each kernel, so the
 * first pass neither loads those depths nor compares with them. */
inline void sweep_face(bool capped, FaceState L, FaceState R, real hL, real hR, real k4,
  FaceFlux* toLeft, FaceFlux* toRight)
{
  if (capped)
    capped_face_fluxes(L, R, hL, hR, k4, (real)GRAVITY, (real)H_DRY, toLeft, toRight);
  else
    face_fluxes(L, R, (real)GRAVITY, (real)H_DRY, toLeft, toRight);
}

inline void hancock_sweep(MUSCL_HANCOCK_STEP_ARGUMENTS, __local HancockMemory* memory,
  const bool capped)
{
  SWEEP_PLACE(&memory->sweep)
  const real g = (real)GRAVITY;
  /* The same for the whole group, so the barriers below are reached by all or none. A second
   * pass that is not needed does nothing but the speed maximum's barriers: PoCL's kernel
   * compiler mishandled an early exit, or a condition, around the whole body (wrong results,
   * or a kernel that never ended). */
  const bool idle = capped && status[STATUS_REDO] == 0;
  const real dt = idle ? (real)0 : ctrl[CTRL_DT];
  const real kdt = dt * inv_dx, half_k = (real)0.5 * kdt, k4 = (real)4 * kdt;
  real speed = (real)0;
  if (dt > (real)0)
  {
    /* The column's window along y: rows j .. j + 2 for row j = j0 + r, the half-step face
     * values of row j, and the flux through the face south of j as cell j sees it. Built first
     * from rows j0 - 2 .. j0 + 1: the faces of rows j0 - 1 and j0 (each exchange in its own
     * local arrays, so that no barrier is needed between them) and the face between them. */
    const FaceState below = y_state(load_cell(h, hu, hv, bed, i, j0 - 2, column_exists));
    FaceState cell = y_state(load_cell(h, hu, hv, bed, i, j0 - 1, column_exists));
    FaceState above = y_state(load_cell(h, hu, hv, bed, i, j0, column_exists));
    FaceState ahead = y_state(load_cell(h, hu, hv, bed, i, j0 + 1, column_exists));
    const CellFaces faces_below = row_faces(cells, k, kw, ke, below, cell, above, half_k);
    CellFaces faces = row_faces(east_faces, k, kw, ke, cell, above, ahead, half_k);
    if (capped)
      keep_rooms(memory, 0, k, faces);
    FaceFlux south, unused;
    sweep_face(capped, faces_below.n, faces.s, faces_below.hn, faces.hs, k4, &unused, &south);
    cell = above;
    above = ahead;
    ahead = y_state(load_cell(h, hu, hv, bed, i, j0 + 2, column_exists));
    SWEEP_UNROLL
    for (int r = 0; r < ROWS; ++r)
    {
      const int j = j0 + r;
      const StoredCell incoming = load_cell(h, hu, hv, bed, i, j + 3, column_exists);
      const bool here = updates && j < NY;
      const int c = IDX(i, j);
      real hun = (real)0, hvn = (real)0;
      if (here)
      {
        hun = hu[c];
        hvn = hv[c];
      }
      const CellFaces faces_above = row_faces(cells, k, kw, ke, cell, above, ahead, half_k);
      const int par = r & 1;
      /* The face between row j and the row above. */
      if (capped)
        keep_rooms(memory, par ^ 1, k, faces_above);
      FaceFlux north, north_seen_above;
      sweep_face(capped, faces.n, faces_above.s, memory->room_n[par][k], faces_above.hs, k4,
        &north, &north_seen_above);
      const FaceFlux ry = rate_from_faces(south, north, faces.s, faces.n, g);
      /* Along x: each item's east face values, then each face's flux (an item solves its
       * west face). */
      put(east_faces, k, faces.e);
      barrier(CLK_LOCAL_MEM_FENCE);
      FaceFlux west, west_seen_west;
      sweep_face(capped, get(east_faces, kw), faces.w, memory->room_e[par][kw],
        memory->room_w[par][k], k4, &west_seen_west, &west);
      fh[k] = west_seen_west.h;
      fqn[k] = west_seen_west.qn;
      fqt[k] = west_seen_west.qt;
      barrier(CLK_LOCAL_MEM_FENCE);
      FaceFlux east;
      east.h = fh[ke];
      east.qn = fqn[ke];
      east.qt = fqt[ke];
      const FaceFlux rx = rate_from_faces(west, east, faces.w, faces.e, g);
      if (here)
      {
        real hn = cell.h;
        if (!capped && depth_after(hn, rx, ry, kdt) < (real)0)
          speed = INFINITY; /* the step is to be taken again, capped */
        const bool ok =
          euler_update(&hn, &hun, &hvn, rx, ry, kdt, dt, MANNING_AT(c), g, (real)H_DRY, (real)H_FILM);
        store_checked(h_out, hu_out, hv_out, c, j * NX + i, hn, hun, hvn, ok, &speed, status);
      }
      /* Slide the window one row north. */
      south = north_seen_above;
      faces = faces_above;
      cell = above;
      above = ahead;
      ahead = y_state(incoming);
    }
  }
  else if (!idle)
  {
    /* The clock has reached its target: the state is carried over to the other copy and its
     * wave speeds published as a step would (see muscl_hllc_stage). */
    for (int r = 0; r < ROWS && updates; ++r)
    {
      const int j = j0 + r;
      if (j < NY)
      {
        const int c = IDX(i, j);
        h_out[c] = h[c];
        hu_out[c] = hu[c];
        hv_out[c] = hv[c];
        speed = fmax(speed, wave_speed(h[c], hu[c], hv[c]));
      }
    }
  }
  const real group_speed = group_max(scratch, speed, k, WG_X);
  if (k == 0 && !idle)
  {
    publish_speed(group_speed, partial_max);
    finish_hancock_pass(capped, group_speed, partial_max, status);
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
 * store_checked, a group of lanes at a time). */
inline void store_lanes(__global real* h_out, __global real* hu_out, __global real* hv_out,
  int i, int j, realm h, realm hu, realm hv, maskm ok, realm* speed, int* bad)
{
  const maskm inside = lanes_inside(i);
  const maskm good = ok && h >= (real)0 && isfinite(h) && isfinite(hu) && isfinite(hv);
  *speed = fmax(*speed, WAVE_SPEED_WHERE(realm, inside && good, h, hu, hv));
  write_lanes(h_out, hu_out, hv_out, i, j, h, hu, hv);
  const maskm reported = inside && !good;
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

/* The loop of the CPU-shaped kernels over their rows (j) and the groups of lanes along each
 * (from column i). */
#define FOR_LANE_GROUPS(j, i)                                                                     \
  for (int j = get_global_id(0) * BLOCK_ROWS;                                                     \
       j < min(((int)get_global_id(0) + 1) * BLOCK_ROWS, NY); ++j)                                \
    for (int i = 0; i < NX; i += MUSCL_LANES)

/* hancock_sweep on MUSCL_LANES cells at a time: the Hancock faces of the cells and of their four
 * neighbours (each from the cells around it), then one flux solve per face and side. */
inline void hancock_rows(MUSCL_HANCOCK_STEP_ARGUMENTS, const bool capped)
{
  const real dt = ctrl[CTRL_DT];
  const real kdt = dt * inv_dx;
  const realm g = (realm)GRAVITY, h_dry = (realm)H_DRY, half_k = (realm)((real)0.5 * kdt),
              k4 = (realm)(capped ? (real)4 * kdt : (real)0);
  realm speed = (realm)0;
  int bad = INT_MAX;
  FOR_LANE_GROUPS(j, i)
    {
      realm hun = load_lanes(hu, i, j), hvn = load_lanes(hv, i, j);
      if (!(dt > (real)0))
      {
        /* The clock has reached its target: the state is carried over to the other copy and
         * its wave speeds published, as the sweep does (no physicality check). */
        const realm hn = load_lanes(h, i, j);
        write_lanes(h_out, hu_out, hv_out, i, j, hn, hun, hvn);
        speed = fmax(speed, WAVE_SPEED_WHERE(realm, lanes_inside(i), hn, hun, hvn));
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
      const FaceFlux rx = faces_rate(
        west.e, here.w, here.e, east.w, west.he, here.hw, here.he, east.hw, k4, g, h_dry);
      const FaceFlux ry = faces_rate(
        south.n, here.s, here.n, north.s, south.hn, here.hs, here.hn, north.hs, k4, g, h_dry);
      realm hn = x[2].h;
      if (!capped)
        speed = (lanes_inside(i) && depth_after(hn, rx, ry, (realm)kdt) < (real)0)
                  ? (realm)INFINITY
                  : speed;
      const maskm ok = euler_update(&hn, &hun, &hvn, rx, ry, (realm)kdt, (realm)dt,
        MANNING_LANES(i, j), g, h_dry, (realm)H_FILM);
      store_lanes(h_out, hu_out, hv_out, i, j, hn, hun, hvn, ok, &speed, &bad);
    }
  finish_hancock_pass(
    capped, publish_rows(true, speed, bad, partial_max, status), partial_max, status);
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
  if (status[STATUS_REDO] != 0)
    hancock_rows(MUSCL_HANCOCK_STEP_PARAMETERS, true);
}

/* muscl_hllc_stage on MUSCL_LANES cells at a time: each cell's two faces on each axis from its
 * five-cell stencils (axis_rate, as in the C++ twin). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void
muscl_hllc_rows(MUSCL_HLLC_STAGE_ARGUMENTS)
{
  const real dt = ctrl[CTRL_DT];
  const realm g = (realm)GRAVITY, h_dry = (realm)H_DRY;
  realm speed = (realm)0;
  int bad = INT_MAX;
  FOR_LANE_GROUPS(j, i)
    {
      if (!(dt > (real)0))
      {
        /* The clock has reached its target: nothing to write, and the final stage publishes
         * the state's wave speeds (see muscl_hllc_stage). */
        if (final_stage)
          speed = fmax(speed, WAVE_SPEED_WHERE(realm, lanes_inside(i),
            load_lanes(h_base, i, j), load_lanes(hu_base, i, j),
            load_lanes(hv_base, i, j)));
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
      const FaceFlux rx = axis_rate(&sx, g, h_dry), ry = axis_rate(&sy, g, h_dry);
      realm hn = sx.h[2], hun = load_lanes(hu, i, j), hvn = load_lanes(hv, i, j);
      const maskm ok = euler_update(&hn, &hun, &hvn, rx, ry, (realm)(dt * inv_dx), (realm)dt,
        MANNING_LANES(i, j), g, h_dry, (realm)H_FILM);
      if (final_stage)
      {
        hn = (real)0.5 * (load_lanes(h_base, i, j) + hn);
        hun = (real)0.5 * (load_lanes(hu_base, i, j) + hun);
        hvn = (real)0.5 * (load_lanes(hv_base, i, j) + hvn);
      }
      store_lanes(h_out, hu_out, hv_out, i, j, hn, hun, hvn, ok, &speed, &bad);
    }
  publish_rows(final_stage, speed, bad, partial_max, status);
}

#endif
