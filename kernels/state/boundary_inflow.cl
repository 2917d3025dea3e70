/* The water balance (SimulationParameters::waterBalance): the depth a step moves through each face
 * of the grid's sides, into the cumulative Inflow field of the cell inside it (negative out).
 * A work-item a boundary cell, so a corner's two faces add up in one place. It reads the state
 * and the ghosts that the step read, and solves each face with the step's own functions
 * (muscl_hllc.h, boundaries.h): after a Lax-Friedrichs or MUSCL-Hancock step (MUSCL-Hancock's
 * second pass, when it runs, capped: between the passes STATUS_REDO says so), before each of
 * MUSCL-HLLC's stages with half the weight (Heun's average). The face values are loaded one cell
 * at a time; the CPU-shaped program's arithmetic works on MUSCL_LANES cells, which all get the
 * same face here (SPLAT) and give lane 0 back. */
#ifdef WATER_BALANCE

#ifdef MUSCL_LANES
#define SPLAT(x) ((realm)(x))
#define LANE0(x) ((x).s0)
#else
#define SPLAT(x) (x)
#define LANE0(x) (x)
#endif

/* Boundary cell k: the south row, the north row, then the west and east columns between them. */
inline bool boundary_cell(int k, int* i, int* j)
{
  const int rows = NY > 1 ? 2 : 1, columns = NX > 1 ? 2 : 1, inner = max(NY - 2, 0);
  if (k < rows * NX)
  {
    *i = k % NX;
    *j = k < NX ? 0 : NY - 1;
    return true;
  }
  k -= rows * NX;
  *j = inner > 0 ? 1 + k % inner : 0;
  *i = k < inner ? 0 : NX - 1;
  return k < columns * inner;
}

#ifdef SWE_MUSCL_HLLC_H
/* Cell c's values along x (y_axis false: un = u) or along y. */
inline FaceState cell_along(__global const real* h,
  __global const real* hu,
  __global const real* hv,
  __global const real* bed,
  int c,
  bool y_axis)
{
  const real hc = h[c], hdry = (real)H_DRY;
  const real u = hc > hdry ? hu[c] * ((real)1 / hc) : (real)0;
  const real v = hc > hdry ? hv[c] * ((real)1 / hc) : (real)0;
  FaceState s;
  s.h = SPLAT(hc);
  s.eta = SPLAT(hc + bed[c]);
  s.un = SPLAT(y_axis ? v : u);
  s.ut = SPLAT(y_axis ? u : v);
  return s;
}

/* MUSCL-Hancock's half-step faces of cell c. */
inline CellFaces cell_faces(__global const real* h,
  __global const real* hu,
  __global const real* hv,
  __global const real* bed,
  int c,
  real half_k)
{
  return hancock_cell_faces(cell_along(h, hu, hv, bed, c - 1, false),
    cell_along(h, hu, hv, bed, c, false),
    cell_along(h, hu, hv, bed, c + 1, false),
    cell_along(h, hu, hv, bed, c - PITCH, true),
    cell_along(h, hu, hv, bed, c, true),
    cell_along(h, hu, hv, bed, c + PITCH, true),
    SPLAT(half_k),
    SPLAT((real)GRAVITY),
    SPLAT((real)H_DRY));
}

/* The depth a step of kdt = dt / dx moves from cell a to cell a + stride (1: along x; PITCH: along
 * y). k4: MUSCL-Hancock's cap (4 kdt in its second pass, else 0); negative: MUSCL-HLLC. */
inline real face_mass(__global const real* h,
  __global const real* hu,
  __global const real* hv,
  __global const real* bed,
  int a,
  int stride,
  real kdt,
  real k4)
{
  const bool y_axis = stride != 1;
  if (k4 >= (real)0)
    return kdt * LANE0(hancock_face_mass(cell_faces(h, hu, hv, bed, a, (real)0.5 * kdt),
                   cell_faces(h, hu, hv, bed, a + stride, (real)0.5 * kdt),
                   y_axis,
                   SPLAT(k4),
                   SPLAT((real)GRAVITY),
                   SPLAT((real)H_DRY)));
  AxisStencil s;
  for (int m = 0; m < 4; ++m)
  {
    const FaceState c = cell_along(h, hu, hv, bed, a + (m - 1) * stride, y_axis);
    s.h[m] = c.h;
    s.eta[m] = c.eta;
    s.un[m] = c.un;
    s.ut[m] = c.ut;
  }
  return kdt * LANE0(muscl_face_mass(&s, SPLAT((real)GRAVITY), SPLAT((real)H_DRY)));
}
#else
inline real face_mass(__global const real* h,
  __global const real* hu,
  __global const real* hv,
  __global const real* bed,
  int a,
  int stride,
  real kdt,
  real k4)
{
  const __global real* q = stride == 1 ? hu : hv;
  return lax_friedrichs_face_mass(h[a], q[a], h[a + stride], q[a + stride], (real)0.5 * kdt);
}
#endif

/* A side's face: the mass flux imposed on it (an inflow side's: boundary.cl), else as solved. */
inline real side_face_mass(__global const real* h,
  __global const real* hu,
  __global const real* hv,
  __global const real* bed,
  int a,
  int stride,
  real kdt,
  real k4,
  real imposed)
{
  return imposed == imposed ? kdt * imposed : face_mass(h, hu, hv, bed, a, stride, kdt, k4);
}

/* hancock: 1 for MUSCL-Hancock (its cap as STATUS_REDO says), else 0. inflow_low: the Inflow
 * totals' low parts (kernels/device/compensated.h). */
__kernel void fold_boundary_inflow(__global const real* h,
  __global const real* hu,
  __global const real* hv,
  __global const real* bed,
  __global real* inflow,
  __global real* inflow_low,
  __global const real* ctrl,
  __global const int* status,
  const real inv_dx,
  const real weight,
  const int hancock)
{
  int i, j;
  const real dt = ctrl[CTRL_DT];
  if (!boundary_cell(get_global_id(0), &i, &j) || !(dt > (real)0))
    return;
  const int c = IDX(i, j);
  const real kdt = dt * inv_dx;
  /* (a held dt takes every MUSCL-Hancock step capped: kernels/schemes/muscl_steps.h) */
#ifdef HELD_DT
  const bool capped = true;
#else
  const bool capped = status[STATUS_REDO] != 0;
#endif
  const real k4 = !hancock ? (real)-1 : capped ? (real)4 * kdt : (real)0;
  /* (the sides of a rank's block inside the grid, HALO_SIDES: kernels/state/boundary.cl, are not
   * the grid's: what crosses them stays on it) */
  real in = (real)0;
/* (a macro: clang warns of && with a constant operand written out) */
#define GRID_SIDE(bit) ((HALO_SIDES & (bit)) == 0)
  if (i == 0 && GRID_SIDE(1))
    in += side_face_mass(h, hu, hv, bed, c - 1, 1, kdt, k4, X_FACE_MASS(0, j));
  if (i == NX - 1 && GRID_SIDE(2))
    in -= side_face_mass(h, hu, hv, bed, c, 1, kdt, k4, X_FACE_MASS(NX, j));
  if (j == 0 && GRID_SIDE(4))
    in += side_face_mass(h, hu, hv, bed, c - PITCH, PITCH, kdt, k4, Y_FACE_MASS(i, 0));
  if (j == NY - 1 && GRID_SIDE(8))
    in -= side_face_mass(h, hu, hv, bed, c, PITCH, kdt, k4, Y_FACE_MASS(i, NY));
  add_to_total(inflow + c, inflow_low + c, weight * in);
}
#endif
