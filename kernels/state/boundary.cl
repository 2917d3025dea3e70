#ifndef HALO_SIDES
#define HALO_SIDES 0
#endif

/* A side's value (discharge or level) at time t: its series' (BCS_WEST ...: program constants,
 * DeviceProgram's forcingSource; a level's held at its ends, a hydrograph's 0 outside them:
 * forcing.h), else its constant (BCV_WEST ...). */
#if defined(BCS_WEST) && BC_WEST == BOUNDARY_LEVEL
#define VALUE_WEST(t) series_held(BCS_WEST_T, BCS_WEST_V, BCS_WEST_N, t)
#elif defined(BCS_WEST)
#define VALUE_WEST(t) series_at(BCS_WEST_T, BCS_WEST_V, BCS_WEST_N, t)
#else
#define VALUE_WEST(t) ((real)BCV_WEST)
#endif
#if defined(BCS_EAST) && BC_EAST == BOUNDARY_LEVEL
#define VALUE_EAST(t) series_held(BCS_EAST_T, BCS_EAST_V, BCS_EAST_N, t)
#elif defined(BCS_EAST)
#define VALUE_EAST(t) series_at(BCS_EAST_T, BCS_EAST_V, BCS_EAST_N, t)
#else
#define VALUE_EAST(t) ((real)BCV_EAST)
#endif
#if defined(BCS_SOUTH) && BC_SOUTH == BOUNDARY_LEVEL
#define VALUE_SOUTH(t) series_held(BCS_SOUTH_T, BCS_SOUTH_V, BCS_SOUTH_N, t)
#elif defined(BCS_SOUTH)
#define VALUE_SOUTH(t) series_at(BCS_SOUTH_T, BCS_SOUTH_V, BCS_SOUTH_N, t)
#else
#define VALUE_SOUTH(t) ((real)BCV_SOUTH)
#endif
#if defined(BCS_NORTH) && BC_NORTH == BOUNDARY_LEVEL
#define VALUE_NORTH(t) series_held(BCS_NORTH_T, BCS_NORTH_V, BCS_NORTH_N, t)
#elif defined(BCS_NORTH)
#define VALUE_NORTH(t) series_at(BCS_NORTH_T, BCS_NORTH_V, BCS_NORTH_N, t)
#else
#define VALUE_NORTH(t) ((real)BCV_NORTH)
#endif

/* A side's kind at cell k along it: a wall outside its stretch (BCR_WEST ...: [FIRST, END)). */
#ifdef BCR_WEST
#define KIND_WEST(k) ((k) >= BCR_WEST_FIRST && (k) < BCR_WEST_END ? BC_WEST : BOUNDARY_WALL)
#else
#define KIND_WEST(k) BC_WEST
#endif
#ifdef BCR_EAST
#define KIND_EAST(k) ((k) >= BCR_EAST_FIRST && (k) < BCR_EAST_END ? BC_EAST : BOUNDARY_WALL)
#else
#define KIND_EAST(k) BC_EAST
#endif
#ifdef BCR_SOUTH
#define KIND_SOUTH(k) ((k) >= BCR_SOUTH_FIRST && (k) < BCR_SOUTH_END ? BC_SOUTH : BOUNDARY_WALL)
#else
#define KIND_SOUTH(k) BC_SOUTH
#endif
#ifdef BCR_NORTH
#define KIND_NORTH(k) ((k) >= BCR_NORTH_FIRST && (k) < BCR_NORTH_END ? BC_NORTH : BOUNDARY_WALL)
#else
#define KIND_NORTH(k) BC_NORTH
#endif

/* Inflow sides deliver their discharge exactly (NUMERICS.md, Boundaries): the mass flux through
 * each face of a grid side with an inflow (IMPOSED_SIDES: bits west, east, south, north, set by
 * the host for such sides that no other rank fills) is the side's discharge over the step where
 * the inflow holds, and 0 on the rest of the side (a stretch's wall), in place of the flux solved
 * between the cell and its ghost. The discharge is the side's constant or its series' mean over
 * the step (choose_dt's CTRL_SIDE_DISCHARGE), so a hydrograph brings its integral. */
#ifndef IMPOSED_SIDES
#define IMPOSED_SIDES 0
#endif
#ifdef BCS_WEST
#define STEP_DISCHARGE_WEST(ctrl) ((ctrl)[CTRL_SIDE_DISCHARGE])
#else
#define STEP_DISCHARGE_WEST(ctrl) ((real)BCV_WEST)
#endif
#ifdef BCS_EAST
#define STEP_DISCHARGE_EAST(ctrl) ((ctrl)[CTRL_SIDE_DISCHARGE + 1])
#else
#define STEP_DISCHARGE_EAST(ctrl) ((real)BCV_EAST)
#endif
#ifdef BCS_SOUTH
#define STEP_DISCHARGE_SOUTH(ctrl) ((ctrl)[CTRL_SIDE_DISCHARGE + 2])
#else
#define STEP_DISCHARGE_SOUTH(ctrl) ((real)BCV_SOUTH)
#endif
#ifdef BCS_NORTH
#define STEP_DISCHARGE_NORTH(ctrl) ((ctrl)[CTRL_SIDE_DISCHARGE + 3])
#else
#define STEP_DISCHARGE_NORTH(ctrl) ((real)BCV_NORTH)
#endif
#define IMPOSED_ON(bit) ((IMPOSED_SIDES & (bit)) != 0)

/* The mass flux along x imposed on face i - 1/2 of row j (i = 0: the west side's, i = NX: the
 * east side's), or NaN where the solved flux stands. */
inline real imposed_x_face(int i, int j, __global const real* ctrl)
{
  if (IMPOSED_ON(1) && i == 0)
    return KIND_WEST(j) == BOUNDARY_INFLOW ? STEP_DISCHARGE_WEST(ctrl) : (real)0;
  if (IMPOSED_ON(2) && i == NX)
    return KIND_EAST(j) == BOUNDARY_INFLOW ? -STEP_DISCHARGE_EAST(ctrl) : (real)0;
  return (real)NAN;
}

/* The mass flux along y imposed on face j - 1/2 of column i, or NaN. */
inline real imposed_y_face(int i, int j, __global const real* ctrl)
{
  if (IMPOSED_ON(4) && j == 0)
    return KIND_SOUTH(i) == BOUNDARY_INFLOW ? STEP_DISCHARGE_SOUTH(ctrl) : (real)0;
  if (IMPOSED_ON(8) && j == NY)
    return KIND_NORTH(i) == BOUNDARY_INFLOW ? -STEP_DISCHARGE_NORTH(ctrl) : (real)0;
  return (real)NAN;
}

/* The same in the step kernels: none in a run without an inflow side, whose kernels then compile
 * as they would without them (a NaN mass is folded away). */
#if IMPOSED_SIDES
#define X_FACE_MASS(i, j) imposed_x_face(i, j, ctrl)
#define Y_FACE_MASS(i, j) imposed_y_face(i, j, ctrl)
#else
#define X_FACE_MASS(i, j) ((real)NAN)
#define Y_FACE_MASS(i, j) ((real)NAN)
#endif

/* The state of ghost cell (i, j), outside the grid across one side (west or east when i is out
 * of range, else south or north), by the side's kind and value at time t (-D defines). */
inline GhostCell ghost_beyond(int i, int j, GhostCell mirror, GhostCell nearest, real t)
{
  if (i < 0)
    return ghost_state(KIND_WEST(j), VALUE_WEST(t), true, (real)1, mirror, nearest, (real)H_DRY,
      (real)GRAVITY);
  if (i >= NX)
    return ghost_state(KIND_EAST(j), VALUE_EAST(t), true, (real)-1, mirror, nearest, (real)H_DRY,
      (real)GRAVITY);
  if (j < 0)
    return ghost_state(KIND_SOUTH(i), VALUE_SOUTH(t), false, (real)1, mirror, nearest, (real)H_DRY,
      (real)GRAVITY);
  return ghost_state(KIND_NORTH(i), VALUE_NORTH(t), false, (real)-1, mirror, nearest, (real)H_DRY,
      (real)GRAVITY);
}

inline GhostCell stored_cell(__global const real* h, __global const real* hu,
  __global const real* hv, __global const real* bed, int c)
{
  GhostCell s;
  s.h = h[c];
  s.hu = hu[c];
  s.hv = hv[c];
  s.b = bed[c];
  return s;
}

/* Side boundaries through ghost cells, filled on the device (thesis 4.5.1): ghost cell k, one a
 * work-item, for the state at time t. The kind and value of each side come as -D defines
 * (BC_WEST, BCV_WEST, ...); the arithmetic is in boundaries.h. A corner ghost is the west or east side's ghost of the south or
 * north side's ghosts, as if those were filled first: at a corner of two walls it mirrors both
 * ways, which keeps MUSCL-Hancock's half step (it reads the corners through the slopes of the
 * ghosts next to them) symmetric across the walls. The bed's ghosts are filled with the
 * state's. */
inline void fill_ghost(int k, __global real* h, __global real* hu, __global real* hv,
  __global real* bed, real t)
{
  /* Ghost cells in two bands: GHOST full ghosted rows at the bottom and top, then GHOST columns at
   * the left and right of every interior row. */
  const int band_rows = 2 * GHOST * GHOSTED_WIDTH;
  const int total = band_rows + 2 * GHOST * NY;
  if (k >= total)
    return;
  int pi, pj; /* coordinates in the grid with its ghost layers */
  if (k < band_rows)
  {
    const int row = k / GHOSTED_WIDTH;
    pi = k % GHOSTED_WIDTH;
    pj = row < GHOST ? row : NY + row; /* rows 0..G-1, then NY+G..NY+2G-1 */
  }
  else
  {
    const int r = k - band_rows;
    const int col = r % (2 * GHOST);
    pj = GHOST + r / (2 * GHOST);
    pi = col < GHOST ? col : NX + col;
  }
  const int i = pi - GHOST, j = pj - GHOST;
  /* In a run split among ranks, the ghosts past a side inside the grid are the neighbours' cells
   * (HALO_SIDES: bits west, east, south, north; solver/Partition.h), written by the halo
   * exchange; a corner ghost is too if either of its sides is such a side. */
  const int beyond = (i < 0 ? 1 : 0) | (i >= NX ? 2 : 0) | (j < 0 ? 4 : 0) | (j >= NY ? 8 : 0);
  if (beyond & HALO_SIDES)
    return;
  /* Mirror: cell -1 reflects 0, -2 reflects 1; cell N reflects N-1, N+1 reflects N-2. */
  const int mi = i < 0 ? -1 - i : (i >= NX ? 2 * NX - 1 - i : i);
  const int mj = j < 0 ? -1 - j : (j >= NY ? 2 * NY - 1 - j : j);
  const int ni = clamp(i, 0, NX - 1), nj = clamp(j, 0, NY - 1);
  GhostCell mirror, nearest;
  if ((i < 0 || i >= NX) && (j < 0 || j >= NY))
  {
    mirror = ghost_beyond(mi, j, stored_cell(h, hu, hv, bed, IDX(mi, mj)),
      stored_cell(h, hu, hv, bed, IDX(mi, nj)), t);
    nearest = ghost_beyond(ni, j, stored_cell(h, hu, hv, bed, IDX(ni, mj)),
      stored_cell(h, hu, hv, bed, IDX(ni, nj)), t);
  }
  else
  {
    mirror = stored_cell(h, hu, hv, bed, IDX(mi, mj));
    nearest = stored_cell(h, hu, hv, bed, IDX(ni, nj));
  }
  const GhostCell g = ghost_beyond(i, j, mirror, nearest, t);
  const int dst = IDX(i, j);
  h[dst] = g.h;
  hu[dst] = g.hu;
  hv[dst] = g.hv;
  bed[dst] = g.b;
}

/* The time of the state the ghosts are filled for: a side's series is taken there. */
inline real ghost_time(__global const real* ctrl)
{
  return ctrl[CTRL_TIME] - ctrl[CTRL_TIME_COMP];
}

__kernel void fill_ghosts(__global real* h, __global real* hu, __global real* hv,
  __global real* bed, __global const real* ctrl)
{
  fill_ghost(get_global_id(0), h, hu, hv, bed, ghost_time(ctrl));
}
