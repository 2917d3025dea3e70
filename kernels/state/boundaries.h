/* Side boundary conditions through ghost cells, written once for the OpenCL kernel
 * (boundary.cl) and the C++ twin. Kinds are numbered as swe::BoundaryType. */
#ifndef SWE_BOUNDARIES_H
#define SWE_BOUNDARIES_H

#define BOUNDARY_WALL 0
#define BOUNDARY_OPEN 1
#define BOUNDARY_INFLOW 2
#define BOUNDARY_LEVEL 3

typedef struct
{
  real h;
  real hu;
  real hv;
  real b;
} GhostCell;

/* The state of a ghost cell on a side of the given kind, from the interior cell mirrored across
 * the side and the nearest interior cell. normal_x: a west or east side; inward: +1 on the west
 * and south sides, -1 on the east and north sides; value: discharge per unit width into the
 * domain [m^2/s] (inflow) or water-surface elevation [m] (level); gravity [m/s^2]. */
inline GhostCell ghost_state(int kind,
  real value,
  bool normal_x,
  real inward,
  GhostCell mirror,
  GhostCell nearest,
  real h_dry,
  real gravity)
{
  GhostCell g = nearest;
  switch (kind)
  {
    case BOUNDARY_WALL: /* reflective: mirror, normal momentum reversed */
      g = mirror;
      if (normal_x)
        g.hu = -g.hu;
      else
        g.hv = -g.hv;
      break;
    case BOUNDARY_INFLOW:
      /* Given discharge across the side, no tangential flow. The ghost is at least as deep as
       * the discharge's critical depth (q^2 / g)^(1/3): a ghost as shallow as dry or almost dry
       * cells next to the side would carry no water in (dry) or carry it at an unbounded speed
       * (almost dry: the run blew up). */
      g.h = fmax(nearest.h, cbrt(value * value / gravity));
      if (normal_x)
      {
        g.hu = inward * value;
        g.hv = (real)0;
      }
      else
      {
        g.hv = inward * value;
        g.hu = (real)0;
      }
      break;
    case BOUNDARY_LEVEL: /* given surface elevation, velocity carried over from inside */
    {
      g.h = fmax((real)0, value - nearest.b);
      const bool wet = nearest.h > h_dry && g.h > h_dry;
      g.hu = wet ? g.h * (nearest.hu / nearest.h) : (real)0;
      g.hv = wet ? g.h * (nearest.hv / nearest.h) : (real)0;
      break;
    }
    default: /* open (transmissive): zero gradient */
      break;
  }
  return g;
}

/* The water balance (kernels/state/boundary_inflow.cl and the twin): the depth that a
 * Lax-Friedrichs step of r = dt / (2 dx) moves through the face between two cells along an axis
 * (depths hL, hR, momenta along the axis qL, qR), positive along it. The step's update of a cell is
 * a quarter of its neighbours' depths less r times their momenta's differences, so summed over the
 * grid it keeps what each face of the sides gives: this. */
inline real lax_friedrichs_face_mass(real hL, real qL, real hR, real qR, real r)
{
  return r * (qL + qR) + (real)0.25 * (hL - hR);
}

#endif
