#pragma once
// Private to the twin (ReferenceSolver*.cpp): the kernels' second-order and boundary arithmetic
// (kernels/schemes/muscl_hllc.h and cell_update.h, kernels/state/boundaries.h) compiled once per
// precision, and Muscl<T> to call it in precision T. Each file that includes it gets its own copy
// (an unnamed namespace).
#include <cmath>
#include <cstdint>

namespace swe
{
namespace
{
using uint = std::uint32_t; // (OpenCL C's, in the kernels' headers)
// fmin and fmax as C defines them (one NaN argument gives the other), but inline: std::fmin and
// std::fmax are calls into libm here (GCC inlines them only when NaNs and signed zeros may be
// ignored), and the fp32 minmod takes three a slope (the calls slowed the one-core baseline:
// see PERFORMANCE.md, 'Decisions that stand').
template<class T>
T fmin(T a, T b)
{
  return (a <= b || b != b) ? a : b;
}
template<class T>
T fmax(T a, T b)
{
  return (a >= b || b != b) ? a : b;
}

// The celerities' square root. On GPUs the fp64 kernels refine float's estimate
// (kernels/device/precision.h, real_sqrt), which lands on the correctly rounded root but where it
// lies within about 2^-84 of a halfway point: the twin takes std::sqrt, for the same bits and a
// baseline no slower than need be.
template<class T>
T real_sqrt(T x)
{
  return std::sqrt(x);
}

// The second-order and boundary arithmetic, compiled from the kernels' own headers once per
// precision.
// Its unqualified math calls resolve to the std overloads of the precision at hand (fmin and
// fmax to the ones above).
namespace fp32
{
using real = float;
using std::cbrt, std::copysign, std::fabs, std::fma, std::nextafter, std::sqrt;
#include "random_rounding.h"
#include "muscl_hllc.h"
#include "cell_update.h"
#include "boundaries.h"
}
#undef SWE_MUSCL_HLLC_H
#undef SWE_CELL_UPDATE_H
#undef SWE_BOUNDARIES_H
namespace fp64
{
using real = double;
using std::cbrt, std::copysign, std::fabs, std::fma, std::sqrt;
#define SWE_DOUBLE // (as the kernels are built in double precision)
#include "muscl_hllc.h"
#include "cell_update.h"
#include "boundaries.h"
#undef SWE_DOUBLE
}

template<class Real>
struct Muscl;

// Muscl<T>: the kernels' arithmetic in precision T, from namespace NS (one struct a precision).
#define SWE_TWIN_ARITHMETIC(NS, T)                                                                 \
  template<>                                                                                       \
  struct Muscl<T>                                                                                  \
  {                                                                                                \
    using Stencil = NS::AxisStencil;                                                               \
    using State = NS::FaceState;                                                                   \
    using Faces = NS::CellFaces;                                                                   \
    using Flux = NS::FaceFlux;                                                                     \
    using Ghost = NS::GhostCell;                                                                   \
    static Faces                                                                                   \
    hancockFaces(State xw, State xc, State xe, State ys, State yc, State yn, T halfK, T g, T hDry) \
    {                                                                                              \
      return NS::hancock_cell_faces(xw, xc, xe, ys, yc, yn, halfK, g, hDry);                       \
    }                                                                                              \
    static Flux facesRate(State westSide,                                                          \
      State w,                                                                                     \
      State e,                                                                                     \
      State eastSide,                                                                              \
      T hwSide,                                                                                    \
      T hw,                                                                                        \
      T he,                                                                                        \
      T heSide,                                                                                    \
      T k4,                                                                                        \
      T g,                                                                                         \
      T hDry,                                                                                      \
      T westMass,                                                                                  \
      T eastMass)                                                                                  \
    {                                                                                              \
      return NS::faces_rate(                                                                       \
        westSide, w, e, eastSide, hwSide, hw, he, heSide, k4, g, hDry, westMass, eastMass);        \
    }                                                                                              \
    static Flux rate(const Stencil* s, T g, T hDry, T westMass, T eastMass)                        \
    {                                                                                              \
      return NS::axis_rate(s, g, hDry, westMass, eastMass);                                        \
    }                                                                                              \
    static T velocity(T h, T q, T hDry) { return NS::cell_velocity(h, q, hDry); }                  \
    static Ghost ghost(int kind, T value, bool normalX, T inward, Ghost m, Ghost n, T hDry, T g)   \
    {                                                                                              \
      return NS::ghost_state(kind, value, normalX, inward, m, n, hDry, g);                         \
    }                                                                                              \
    static T depthAfter(T h, Flux rx, Flux ry, T kdt) { return NS::depth_after(h, rx, ry, kdt); }  \
    static T heunDepth(T base, T h, T u) { return NS::heun_depth(base, h, u); }                    \
    static void takeLoss(T* h, T* hu, T* hv, T depth, T hDry)                                      \
    {                                                                                              \
      NS::take_loss(h, hu, hv, depth, hDry);                                                       \
    }                                                                                              \
    static T faceMass(const Stencil* s, T g, T hDry) { return NS::muscl_face_mass(s, g, hDry); }   \
    static T hancockFaceMass(Faces below, Faces above, bool yAxis, T k4, T g, T hDry)              \
    {                                                                                              \
      return NS::hancock_face_mass(below, above, yAxis, k4, g, hDry);                              \
    }                                                                                              \
    static T laxFriedrichsFaceMass(T hL, T qL, T hR, T qR, T r)                                    \
    {                                                                                              \
      return NS::lax_friedrichs_face_mass(hL, qL, hR, qR, r);                                      \
    }                                                                                              \
    static bool update(T* h,                                                                       \
      T* hu,                                                                                       \
      T* hv,                                                                                       \
      Flux rx,                                                                                     \
      Flux ry,                                                                                     \
      T kdt,                                                                                       \
      T dt,                                                                                        \
      T n,                                                                                         \
      T rain,                                                                                      \
      T g,                                                                                         \
      T hDry,                                                                                      \
      T hFilm,                                                                                     \
      T u)                                                                                         \
    {                                                                                              \
      return NS::euler_update(h, hu, hv, rx, ry, kdt, dt, n, rain, g, hDry, hFilm, u);             \
    }                                                                                              \
  };
SWE_TWIN_ARITHMETIC(fp32, float)
SWE_TWIN_ARITHMETIC(fp64, double)
#undef SWE_TWIN_ARITHMETIC

// Cell (gi, gj) of the whole grid's draw for rounding its depth at random in a step's stage
// (kernels/device/random_rounding.h: `steps` counts the step being taken); fp64 rounds to nearest.
template<class T>
T roundingDraw(int gi, int gj, std::int64_t steps, int stage);
template<>
inline float roundingDraw<float>(int gi, int gj, std::int64_t steps, int stage)
{
  return fp32::rounding_draw(
    static_cast<uint>(gi), static_cast<uint>(gj), ROUNDING_STAGE(steps, stage));
}
template<>
inline double roundingDraw<double>(int, int, std::int64_t, int)
{
  return 0;
}
} // namespace
} // namespace swe
