/* The grid: NX x NY interior cells with their ghost layers as the host lays them out in memory
 * (solver/GridLayout.h; -D defines, so indexing folds to constants), the launch shape's sizes, a
 * cell's Manning coefficient, and what a cell's state says: its wave speed, whether it is
 * physical. */
#ifndef SWE_GRID_H
#define SWE_GRID_H

/* Grid: NX x NY interior cells, GHOST layers on each side, x fastest (row-major by y). */
#ifndef GHOST
#define GHOST 2
#endif
/* Rows lie PITCH cells apart and the interior starts OFFSET cells into its row: the host picks
 * both so that every row's interior begins on a 128-byte boundary; the ghost layers lie just
 * before and after it. */
#ifndef OFFSET
#define OFFSET GHOST
#endif
#ifndef PITCH
#define PITCH (NX + 2 * GHOST)
#endif
#define IDX(i, j) (((j) + GHOST) * PITCH + (i) + OFFSET)
/* The cells this rank owns, OWN_NX x OWN_NY from (OWN_I0, OWN_J0), where it updates more of its
 * neighbours' between halo exchanges (solver/Partition.h, computeBlock): wave speeds, the
 * blow-up check, diagnostics and frames count them alone. Without the defines, every cell. */
#ifdef OWN_NX
#define OWNED(i, j)                                                                                \
  ((i) >= OWN_I0 && (i) < OWN_I0 + OWN_NX && (j) >= OWN_J0 && (j) < OWN_J0 + OWN_NY)
/* The same for the cells of row j from column i in a vector's lanes: `lane` holds each lane's
 * index as type T (a vector of reals), the result is T's mask. */
#define OWNED_LANES(T, lane, i, j)                                                                 \
  (OWNED(OWN_I0, j) ? (lane) >= (T)(OWN_I0 - (i)) && (lane) < (T)(OWN_I0 + OWN_NX - (i))           \
                    : (lane) < (T)0)
#else
#define OWN_I0 0
#define OWN_J0 0
#define OWN_NX NX
#define OWN_NY NY
#define OWNED(i, j) true
#define OWNED_LANES(T, lane, i, j) ((lane) >= (T)0)
#endif
/* The block's first cell in the whole grid (a run split among ranks; the host's blockX0 and
 * blockY0): where a cell's draws for rounding at random come from (random_rounding.h). */
#ifndef BLOCK_X0
#define BLOCK_X0 0
#define BLOCK_Y0 0
#endif
#define GHOSTED_WIDTH (NX + 2 * GHOST) /* cells of a row with its ghost layers */
#define WG_SIZE (WG_X * WG_Y)
/* Rows of cells one work-item of a GPU-shaped step kernel updates (a second-order sweep's rows). */
#ifndef ROWS
#define ROWS 1
#endif
/* Whole rows one work-item of a CPU-shaped step kernel (rowsN) updates. */
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 16
#endif

/* Cells of a column one work-item of a pass after the step takes (the flood maps' fold, the
 * infiltration; solver/FloodMaps.h's kPassRows; dry_tiles.h's load_pass_depths). */
#ifndef PASS_ROWS
#define PASS_ROWS 8
#endif

/* Manning coefficient of cell c (MANNING_V: of 8 cells from c): per cell when the host passed a
 * field (-DMANNING_FIELD), else the uniform value. */
#ifdef MANNING_FIELD
#define MANNING_AT(c) (manning_field[(c)])
#define MANNING_V(c) vload8(0, manning_field + (c))
#else
#define MANNING_AT(c) (manning)
#define MANNING_V(c) ((realv)(manning))
#endif

/* The rain rate [m/s] on cell c: RAIN (precision.h) times the cell's factor, held behind the
 * Manning field (-DRAIN_FIELD, -DRAIN_PLANE=its offset), else RAIN. */
#if defined(RAIN_ZONES)
/* Rain zones: the plane holds each cell's zone, whose rate over the step choose_dt keeps. */
#define RAIN_AT(c) (ctrl[CTRL_ZONE_RAIN + (int)manning_field[(c) + RAIN_PLANE]])
#elif defined(RAIN_FIELD)
#define RAIN_AT(c) (RAIN * manning_field[(c) + RAIN_PLANE])
#else
#define RAIN_AT(c) (RAIN)
#endif

/* Largest signal speed of a cell, max(|u| + c, |v| + c) with c = sqrt(g h), where `ok` holds and
 * the cell is wet, else 0 (dry: no wave, and no velocity to trust). Written max(|hu|, |hv|) (1 / h)
 * + c: rounding is monotonic, so that is the same value with one product and one sum fewer. A
 * selection rather than a branch, so that it also serves vectors (T = a vector type, ok a
 * vector mask). */
#define WAVE_SPEED_WHERE(T, ok, h, hu, hv)                                                         \
  (((ok) && (h) > (real)H_DRY)                                                                     \
      ? fmax(fabs(hu), fabs(hv)) * ((real)1 / (h)) + sqrt((real)GRAVITY * (h))                     \
      : (T)((real)0))

inline real wave_speed(real h, real hu, real hv)
{
  return WAVE_SPEED_WHERE(real, true, h, hu, hv);
}

/* A state is physical when the depth is positive and every value finite (catches NaN and Inf). */
inline bool is_physical(real h, real hu, real hv)
{
  return h > (real)0 && isfinite(h) && isfinite(hu) && isfinite(hv);
}

#endif
