/* Skipping dry land (SKIP_DRY; solver/DryTiles.h). The grid is cut into tiles of TILE_W x TILE_H
 * cells, TILES_X x TILES_Y of them: a sweep group's cells, or a CPU-shaped work-item's rows cut
 * into TILE_W columns. Each copy of the state keeps a byte a tile: TILE_WET where a cell of the
 * tile holds anything but +0 (h, hu or hv; a -0 counts, as its bits differ), TILE_FORCED where
 * water can come from outside a step (a point source, a side's inflow or level, a neighbour
 * rank's halo), which the host sets and the kernels keep. A step that reads one copy and writes
 * the other leaves a tile out when no wet or forced tile of the read copy lies within the
 * stencil's reach (TILE_REACH cells) of it, and it is all +0 in the written copy as well (so both
 * copies hold the same zeros): its update would give +0 again, bit for bit, so the results are
 * the same with skipping on and off (the tests check it). The step's first launch keeps its choice
 * in `active`, for a second launch over the same copies (MUSCL-Hancock's capped pass). The
 * arguments are there without SKIP_DRY too (placeholders), so that the host binds the same list. */
#ifndef SWE_DRY_TILES_H
#define SWE_DRY_TILES_H

#define TILE_WET 1
#define TILE_FORCED 2

/* Whether a value (or vector of them) is anything but +0; a value's bits, which are all zero
 * where it is +0 (ORed cell after cell: one instruction on a GPU). */
#define HOLDS_WATER(v) ((v) != (real)0 || signbit(v))
#ifdef SWE_DOUBLE
#define WATER_BITS(v) (as_uint2(v).x | as_uint2(v).y)
#else
#define WATER_BITS(v) as_uint(v)
#endif

/* Whether cell (i, j) of a copy may hold water, from that copy's flags (tiles all +0 there hold
 * none). */
#if SKIP_DRY
#define PASS_CELL_HOLDS_WATER(tiles, i, j) ((tiles)[(i) / TILE_W + (j) / TILE_H * TILES_X] != 0)
#else
#define PASS_CELL_HOLDS_WATER(tiles, i, j) true
#endif

/* The depths of a pass's PASS_ROWS cells of column i from row j0 (grid.h), loaded together first
 * so that the loads overlap (one cell a work-item left a GPU waiting on each load); 0 past the
 * grid and on dry land left out. */
inline void load_pass_depths(__global const real* h,
  int i,
  int j0,
  real* depths,
  __global const uchar* tiles)
{
  for (int r = 0; r < PASS_ROWS; ++r)
    depths[r] = i < NX && j0 + r < NY && PASS_CELL_HOLDS_WATER(tiles, i, j0 + r) ? h[IDX(i, j0 + r)]
                                                                                 : (real)0;
}

#define TILE_ARGUMENTS                                                                             \
  __global const uchar *tiles_read, __global uchar *tiles_written, __global uchar *tiles_active
#define TILE_PARAMETERS tiles_read, tiles_written, tiles_active

#if SKIP_DRY
/* The tiles within reach of a tile's cells, along x and y. */
#define TILE_RX ((TILE_REACH + TILE_W - 1) / TILE_W)
#define TILE_RY ((TILE_REACH + TILE_H - 1) / TILE_H)

/* Whether a step updates tile (tx, ty): from the flags (first launch of a step, which keeps the
 * answer), or as the first launch chose (`again`). The flags are read at once, with no early
 * exit (the tiles past the grid's edges repeat the edge's), so that their loads overlap. */
inline bool tile_updated(TILE_ARGUMENTS, int tx, int ty, bool again, bool keeper)
{
  const int t = tx + ty * TILES_X;
  if (again)
    return tiles_active[t] != 0;
  uchar flags = tiles_written[t];
  for (int dy = -TILE_RY; dy <= TILE_RY; ++dy)
    for (int dx = -TILE_RX; dx <= TILE_RX; ++dx)
      flags |=
        tiles_read[clamp(tx + dx, 0, TILES_X - 1) + clamp(ty + dy, 0, TILES_Y - 1) * TILES_X];
  const bool active = flags != 0;
  if (keeper)
    tiles_active[t] = active ? 1 : 0;
  return active;
}

/* After an updated tile: its flag in the written copy, from whether a cell it wrote is wet
 * (`wet`), or, where the state was carried over unchanged (`carried`), the read copy's. */
inline void keep_tile_flags(TILE_ARGUMENTS, int tx, int ty, bool wet, bool carried)
{
  const int t = tx + ty * TILES_X;
  const uchar read = tiles_read[t];
  tiles_written[t] = (read & TILE_FORCED) | (carried ? (read & TILE_WET) : (wet ? TILE_WET : 0));
}
#else
/* (functions, as NVIDIA's OpenCL C takes no variadic macros) */
inline bool tile_updated(TILE_ARGUMENTS, int tx, int ty, bool again, bool keeper)
{
  return true;
}

inline void keep_tile_flags(TILE_ARGUMENTS, int tx, int ty, bool wet, bool carried) {}
#endif

#endif
