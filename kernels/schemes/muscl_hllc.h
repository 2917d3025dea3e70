/* The second-order scheme's per-cell arithmetic, written once for two compilers: the OpenCL
 * kernels (kernels/schemes/muscl_sweeps.cl, muscl_lanes.cl) and the C++ twin
 * (solver/twin/ReferenceSolver.cpp) include this file with `real` defined as float or double, so
 * both round identically.
 *
 * Scheme: MUSCL reconstruction (minmod) of depth h, surface eta = h + b and velocities; the
 * hydrostatic reconstruction of Audusse et al. (2004) at each face, which keeps a lake at rest at
 * rest over any bed and depths non-negative; the HLLC flux (Toro) with dry-bed wave speeds; and a
 * centred bed-slope term. Time integration (Heun) and friction live in the callers. */
#ifndef SWE_MUSCL_HLLC_H
#define SWE_MUSCL_HLLC_H

/* One cell at a time, or MUSCL_LANES cells side by side: the CPU-shaped kernels' program is
 * built with -DMUSCL_LANES=8 or 16, and then `real` here means the vector type realm
 * (precision.h). So every choice below is a selection (`?:`, which OpenCL applies lane by lane
 * to vectors) or a branch where all lanes agree, and `mask` holds a comparison's result: bool
 * for one cell, an integer vector for several. These definitions hold through cell_update.h,
 * which follows this file and ends them. */
#ifdef MUSCL_LANES
#define real realm
#define mask maskm
#define SQRT realm_sqrt
#define MUSCL_ANY(m) any(m)
#define MUSCL_ALL(m) all(m)
#else
#define mask bool
#define SQRT real_sqrt
#define MUSCL_ANY(m) (m)
#define MUSCL_ALL(m) (m)
#endif

/* a * b + c, fused, with one rounding (fma): one instruction instead of two in both precisions,
 * which the compiler does not contract on its own (see PERFORMANCE.md, 'Decisions that stand').
 * Where it nests, the first term of the original sum is innermost. The twin uses std::fma, so both
 * round alike. */
#define MULADD(a, b, c) fma(a, b, c)

/* Fluxes of (h, normal momentum, transverse momentum) through one face. */
typedef struct
{
  real h;
  real qn;
  real qt;
} FaceFlux;

/* Depth, surface, and velocity along and across an axis: a cell's values, its limited slopes, or
 * its values at one face after reconstruction. */
typedef struct
{
  real h;
  real eta;
  real un;
  real ut;
} FaceState;

/* Five cells along one axis, centred on the cell being updated: k = 2 is the cell itself. */
typedef struct
{
  real h[5];
  real eta[5];
  real un[5]; /* velocity along the axis */
  real ut[5]; /* velocity across it */
} AxisStencil;

/* The smaller in magnitude of two slopes of the same sign, else 0. In fp32 the median of a, b
 * and 0: three min/max and no product, comparison or branch. In fp64, where min and max cost more
 * than a product, one product and one select (both measured: see PERFORMANCE.md, 'Decisions that
 * stand'). The two give the same slopes, except two same-sign slopes whose product underflows: the
 * product form makes those 0. */
inline real minmod(real a, real b)
{
#ifdef SWE_DOUBLE
  return a * b > (real)0 ? copysign(fmin(fabs(a), fabs(b)), a) : (real)0;
#else
  return fmax(fmin(a, b), fmin(fmax(a, b), (real)0));
#endif
}

/* Velocity of a cell; zero in a dry cell, so thin films never divide by almost nothing. A
 * reciprocal, which the compiler shares between a cell's two velocities: fp64 division is a
 * long software sequence on GPUs (see PERFORMANCE.md, 'Decisions that stand'). */
inline real cell_velocity(real h, real q, real h_dry)
{
  return h > h_dry ? q * ((real)1 / h) : (real)0;
}

/* The limited (minmod) slopes of cell c's four values along an axis, from its neighbours w and e.
 * A dry cell gets none and stays flat: its bed must not dip below a neighbouring shoreline. */
inline FaceState limited_slopes(FaceState w, FaceState c, FaceState e, real h_dry)
{
  const mask wet = c.h > h_dry;
  FaceState m;
  m.h = wet ? minmod(c.h - w.h, e.h - c.h) : (real)0;
  m.eta = wet ? minmod(c.eta - w.eta, e.eta - c.eta) : (real)0;
  m.un = wet ? minmod(c.un - w.un, e.un - c.un) : (real)0;
  m.ut = wet ? minmod(c.ut - w.ut, e.ut - c.ut) : (real)0;
  return m;
}

/* A cell's values at its west (sign -1) or east (sign +1) face, from its values c and slopes m. */
inline FaceState at_face(FaceState c, FaceState m, real sign)
{
  const real w = (real)0.5 * sign; /* ("half" is an OpenCL type) */
  FaceState f;
  f.h = MULADD(w, m.h, c.h);
  f.eta = MULADD(w, m.eta, c.eta);
  f.un = MULADD(w, m.un, c.un);
  f.ut = MULADD(w, m.ut, c.ut);
  return f;
}

/* Stencil cell k's values. */
inline FaceState stencil_cell(const AxisStencil* s, int k)
{
  FaceState c;
  c.h = s->h[k];
  c.eta = s->eta[k];
  c.un = s->un[k];
  c.ut = s->ut[k];
  return c;
}

/* Face values of stencil cell k (1..3) on its west (sign -1) or east (sign +1) side. */
inline FaceState reconstruct(const AxisStencil* s, int k, real sign, real h_dry)
{
  const FaceState c = stencil_cell(s, k);
  return at_face(c, limited_slopes(stencil_cell(s, k - 1), c, stencil_cell(s, k + 1), h_dry), sign);
}

/* HLLC flux between two states (Toro, "Shock-capturing methods for free-surface shallow flows",
 * 2001), with the two-rarefaction / dry-bed wave speed estimates.
 *
 * Written without branches: with only the parts of sL below 0 and of sR above 0, one formula
 * gives HLL's star-region flux where sL < 0 < sR and the upwind side's flux where every wave
 * moves one way (sL >= 0 gives F_L, sR <= 0 gives F_R). HLLC's depth and normal-momentum
 * fluxes are HLL's; its contact wave carries the transverse velocity, and that wave moves the
 * way the mass flux does (its speed is the HLL mass flux over the HLL star depth, which these
 * wave speeds keep >= 0), so the transverse flux is the mass flux times the upwind side's
 * velocity. Against the branching form it replaced, the same flux but for round-off, in fewer
 * instructions (see PERFORMANCE.md, 'Decisions that stand'). */
inline FaceFlux hllc(real hL, real uL, real vL, real hR, real uR, real vR, real g, real h_dry)
{
  const mask wetL = hL > h_dry, wetR = hR > h_dry;
  /* Both sides dry: no flux. Where every lane agrees (always, for one cell), a branch skips the
   * work: selections alone, with no early return, do a dry face's arithmetic too (see
   * PERFORMANCE.md, 'Decisions that stand'). */
  const mask dry = !wetL && !wetR;
  FaceFlux f;
  f.h = (real)0;
  f.qn = (real)0;
  f.qt = (real)0;
  if (MUSCL_ALL(dry))
    return f;
  const real cL = SQRT(g * hL), cR = SQRT(g * hR);
  const real uStar = MULADD((real)0.5, uL + uR, cL) - cR;
  const real cStar = MULADD((real)0.5, cL + cR, (real)0.25 * (uL - uR));
  /* Wave speeds: a dry side's from the wet side alone, else the two-rarefaction estimate. Only
   * their parts on either side of the face count. */
  const real sL = !wetL ? uR - (real)2 * cR : !wetR ? uL - cL : fmin(uL - cL, uStar - cStar);
  const real sR = !wetL ? uR + cR : !wetR ? uL + (real)2 * cL : fmax(uR + cR, uStar + cStar);
  const real sLm = fmin(sL, (real)0), sRp = fmax(sR, (real)0);
  const real qL = hL * uL, qR = hR * uR;
  const real fL = MULADD(qL, uL, (real)0.5 * g * hL * hL),
             fR = MULADD(qR, uR, (real)0.5 * g * hR * hR);
  /* sRp > sLm: a wet side's celerity keeps sL < sR. */
  const real inv = (real)1 / (sRp - sLm);
  const real fh = MULADD(sLm * sRp, hR - hL, MULADD(sRp, qL, -(sLm * qR))) * inv;
  const real fqn = MULADD(sLm * sRp, qR - qL, MULADD(sRp, fL, -(sLm * fR))) * inv;
  f.h = dry ? f.h : fh;
  f.qn = dry ? f.qn : fqn;
  f.qt = dry ? f.qt : fh * (fh >= (real)0 ? vL : vR);
  return f;
}

/* MUSCL-Hancock's guarantee of non-negative depths. Its face values are half a step ahead, so a
 * cell's depth is no longer the mean of the face depths its fluxes come from, and MUSCL-HLLC's
 * argument (each Euler stage a mean of first-order updates, non-negative for C <= 0.5) does not
 * carry over. So a face's flux is scaled down where it would take more, in one step, than a
 * quarter of the upwind cell's depth at that face before the half step (hL or hR; k4 = 4 dt /
 * dx). Those four depths average to the cell's (each axis's pair does: h -+ slope / 2), so its
 * new depth is the sum, over its faces, of a quarter of each minus that face's outflow (each
 * part non-negative) plus inflows: never negative, at any dt, but for round-off, which
 * finish_stage clamps. The momentum fluxes take the same factor, so the flux stays a multiple
 * of the solved one. It is the bound of MUSCL-HLLC's argument, so it seldom binds: at the
 * default C = 0.45 results were the same bits with and without it in every case tried
 * (PERFORMANCE.md). So a step is first taken without it (k4 = 0 leaves every flux as it is),
 * and taken again with it only where that took a depth below zero (muscl_steps.h). NaN fluxes
 * pass unscaled, for the blow-up check. */
inline FaceFlux outflow_capped(FaceFlux f, real hL, real hR, real k4)
{
  const real out = f.h * k4;
  const mask capped = out > hL || -out > hR;
  if (MUSCL_ANY(capped))
  {
    const real scale = capped ? (out > (real)0 ? hL : hR) / fabs(out) : (real)1;
    f.h *= scale;
    f.qn *= scale;
    f.qt *= scale;
  }
  return f;
}

/* The hydrostatic reconstruction's depths at a face and the flux between them: both sides see the
 * higher of the two beds. */
typedef struct
{
  real hLs;
  real hRs;
  FaceFlux f;
} FaceSolve;

inline FaceSolve solve_face(FaceState L, FaceState R, real g, real h_dry)
{
  const real bL = L.eta - L.h, bR = R.eta - R.h;
  const real bStar = fmax(bL, bR);
  FaceSolve s;
  /* The depths under the surfaces above the higher bed (h - (bStar - b) = eta - bStar). */
  s.hLs = fmax((real)0, L.eta - bStar);
  s.hRs = fmax((real)0, R.eta - bStar);
  s.f = hllc(s.hLs, L.un, L.ut, s.hRs, R.un, R.ut, g, h_dry);
  return s;
}

/* The flux of a solved face as each side sees it: each cell gets back the pressure of its own
 * depth, so that flux differences balance the bed slope. */
inline void split_face(FaceSolve s,
  FaceState L,
  FaceState R,
  real g,
  FaceFlux* toLeft,
  FaceFlux* toRight)
{
  *toLeft = s.f;
  *toRight = s.f;
  toLeft->qn = MULADD((real)0.5 * g, MULADD(L.h, L.h, -(s.hLs * s.hLs)), toLeft->qn);
  toRight->qn = MULADD((real)0.5 * g, MULADD(R.h, R.h, -(s.hRs * s.hRs)), toRight->qn);
}

/* Hydrostatic reconstruction at a face (solve_face, split_face). */
inline void face_fluxes(FaceState L,
  FaceState R,
  real g,
  real h_dry,
  FaceFlux* toLeft,
  FaceFlux* toRight)
{
  split_face(solve_face(L, R, g, h_dry), L, R, g, toLeft, toRight);
}

/* MUSCL-Hancock's face: face_fluxes with the outflow cap of its two cells' depths there before
 * the half step, hL and hR. */
inline void capped_face_fluxes(FaceState L,
  FaceState R,
  real hL,
  real hR,
  real k4,
  real g,
  real h_dry,
  FaceFlux* toLeft,
  FaceFlux* toRight)
{
  FaceSolve s = solve_face(L, R, g, h_dry);
  s.f = outflow_capped(s.f, hL, hR, k4);
  split_face(s, L, R, g, toLeft, toRight);
}

/* dx times a cell's rate of change along one axis: the fluxes through its west face (as the cell
 * sees it) and its east face (as its east neighbour's west side sees it), and the centred
 * bed-slope term from its own face values cW and cE. */
inline FaceFlux rate_from_faces(FaceFlux west, FaceFlux east, FaceState cW, FaceState cE, real g)
{
  const real bW = cW.eta - cW.h, bE = cE.eta - cE.h;
  FaceFlux rate;
  rate.h = west.h - east.h;
  rate.qn = MULADD(-(g * (real)0.5 * (cW.h + cE.h)), bE - bW, west.qn - east.qn);
  rate.qt = west.qt - east.qt;
  return rate;
}

/* MUSCL-Hancock (Toro, "Riemann solvers and numerical methods for fluid dynamics", 14.4): the
 * face values of a cell advanced by half a step of the equations in primitive form, then one
 * flux solve per face and step instead of Heun's two. The increments of depth and velocity from
 * the cell's values c (along x) and its limited slopes along x (mx, un = u) and y (my, un = v),
 * with half_k = dt / (2 dx). The surface slope carries pressure and bed together, so a lake at
 * rest gets none (well-balanced), and a dry cell (no slopes, no velocity) none either. */
typedef struct
{
  real h;
  real u;
  real v;
} HalfStep;

inline HalfStep half_step(FaceState c, FaceState mx, FaceState my, real half_k, real g)
{
  HalfStep d;
  d.h = -half_k * MULADD(c.h, my.un, MULADD(c.ut, my.h, MULADD(c.h, mx.un, c.un * mx.h)));
  d.u = -half_k * MULADD(g, mx.eta, MULADD(c.ut, my.ut, c.un * mx.un));
  d.v = -half_k * MULADD(g, my.eta, MULADD(c.ut, my.un, c.un * mx.ut));
  return d;
}

/* Face value f advanced by dh and by the velocity increments along (dun) and across (dut) its
 * axis. The bed at the face stays; a depth the half step would take below zero becomes zero. */
inline FaceState advance_face(FaceState f, real dh, real dun, real dut)
{
  const real h = f.h + dh;
  const mask emptied = h < (real)0;
  f.eta = emptied ? f.eta - f.h : f.eta + dh;
  f.h = emptied ? (real)0 : h;
  f.un += dun;
  f.ut += dut;
  return f;
}

/* A cell's four face values half a step ahead: west and east seen along x, south and north along
 * y. cx and cy are the cell's values along x and along y, mx and my its slopes. */
typedef struct
{
  FaceState w;
  FaceState e;
  FaceState s;
  FaceState n;
  /* The cell's depths at the same faces before the half step (two pairs that each average to
   * its depth): what each face may take from it in a step, times 4 (outflow_capped). */
  real hw;
  real he;
  real hs;
  real hn;
} CellFaces;

inline CellFaces hancock_faces(FaceState cx,
  FaceState cy,
  FaceState mx,
  FaceState my,
  real half_k,
  real g)
{
  const HalfStep d = half_step(cx, mx, my, half_k, g);
  CellFaces f;
  f.w = at_face(cx, mx, (real)-1);
  f.e = at_face(cx, mx, (real)1);
  f.s = at_face(cy, my, (real)-1);
  f.n = at_face(cy, my, (real)1);
  f.hw = f.w.h;
  f.he = f.e.h;
  f.hs = f.s.h;
  f.hn = f.n.h;
  f.w = advance_face(f.w, d.h, d.u, d.v);
  f.e = advance_face(f.e, d.h, d.u, d.v);
  f.s = advance_face(f.s, d.h, d.v, d.u);
  f.n = advance_face(f.n, d.h, d.v, d.u);
  return f;
}

/* The Hancock faces of a cell from its values along x (xw, xc, xe: its west neighbour, itself,
 * its east neighbour) and along y (ys, yc, yn). */
inline CellFaces hancock_cell_faces(FaceState xw,
  FaceState xc,
  FaceState xe,
  FaceState ys,
  FaceState yc,
  FaceState yn,
  real half_k,
  real g,
  real h_dry)
{
  return hancock_faces(
    xc, yc, limited_slopes(xw, xc, xe, h_dry), limited_slopes(ys, yc, yn, h_dry), half_k, g);
}

/* A face of the grid's sides that carries a given mass flux (an inflow side's discharge, 0 on
 * the rest of that side: kernels/state/boundary.cl, imposed_x_face), or NaN where none is given:
 * the solved flux with that mass flux and no transverse momentum (an inflow ghost has none). */
inline FaceFlux with_imposed_mass(FaceFlux f, real mass)
{
  const mask imposed = mass == mass;
  f.h = imposed ? mass : f.h;
  f.qt = imposed ? (real)0 : f.qt;
  return f;
}

/* dx times a cell's rate of change along one axis from its face values cW and cE and the values
 * its neighbours show the same faces (west_side, east_side), each face's flux capped by the
 * depths before the half step on either side (hw_side, hw; he, he_side: CellFaces; k4 =
 * 4 dt / dx, or 0 for no cap); the mass fluxes imposed on its faces, or NaN (with_imposed_mass). */
inline FaceFlux faces_rate(FaceState west_side,
  FaceState cW,
  FaceState cE,
  FaceState east_side,
  real hw_side,
  real hw,
  real he,
  real he_side,
  real k4,
  real g,
  real h_dry,
  real west_mass,
  real east_mass)
{
  FaceFlux westL, westR, eastL, eastR;
  capped_face_fluxes(west_side, cW, hw_side, hw, k4, g, h_dry, &westL, &westR);
  capped_face_fluxes(cE, east_side, he, he_side, k4, g, h_dry, &eastL, &eastR);
  return rate_from_faces(
    with_imposed_mass(westR, west_mass), with_imposed_mass(eastL, east_mass), cW, cE, g);
}

/* dx times the rate of change of (h, normal momentum, transverse momentum) of stencil cell 2 from
 * its two faces on this axis and the centred bed-slope term; the mass fluxes imposed on its
 * faces, or NaN (with_imposed_mass). */
inline FaceFlux axis_rate(const AxisStencil* s, real g, real h_dry, real west_mass, real east_mass)
{
  const FaceState cW = reconstruct(s, 2, (real)-1, h_dry), cE = reconstruct(s, 2, (real)1, h_dry);
  FaceFlux westL, westR, eastL, eastR;
  face_fluxes(reconstruct(s, 1, (real)1, h_dry), cW, g, h_dry, &westL, &westR);
  face_fluxes(cE, reconstruct(s, 3, (real)-1, h_dry), g, h_dry, &eastL, &eastR);
  return rate_from_faces(
    with_imposed_mass(westR, west_mass), with_imposed_mass(eastL, east_mass), cW, cE, g);
}

/* The water balance (kernels/state/boundary_inflow.cl and the twin): the mass flux through a face
 * of the grid's sides, positive along the axis, as the step's update takes it. MUSCL-HLLC's, from
 * the four cells s[0..3] around the face (between cells 1 and 2). */
inline real muscl_face_mass(const AxisStencil* s, real g, real h_dry)
{
  return solve_face(reconstruct(s, 1, (real)1, h_dry), reconstruct(s, 2, (real)-1, h_dry), g, h_dry)
    .f.h;
}

/* MUSCL-Hancock's, from the half-step faces of the cells below and above the face along x (or y),
 * capped as the pass took it (k4: faces_rate). */
inline real hancock_face_mass(CellFaces below,
  CellFaces above,
  bool y_axis,
  real k4,
  real g,
  real h_dry)
{
  const FaceSolve s = solve_face(y_axis ? below.n : below.e, y_axis ? above.s : above.w, g, h_dry);
  return outflow_capped(s.f, y_axis ? below.hn : below.he, y_axis ? above.hs : above.hw, k4).h;
}

#endif
