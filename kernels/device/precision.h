/* The precision: `real` is float, or double where the host builds with -DSWE_DOUBLE (the same
 * source for both), with the vector types of the CPU-shaped kernels; reciprocals and square roots
 * as fp64 on GPUs takes them; no contraction into fused multiply-adds. */
#ifndef SWE_PRECISION_H
#define SWE_PRECISION_H

#ifdef SWE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
#define REAL_MAX DBL_MAX
#else
typedef float real;
typedef float2 real2;
#define REAL_MAX FLT_MAX
#endif

/* The CPU-shaped Lax-Friedrichs kernel's types: 8 cells at a time; speeds as bit patterns. */
#ifdef SWE_DOUBLE
typedef double8 realv;
typedef long8 maskv;
typedef ulong real_bits;
typedef ulong8 real_bitsv;
#define REAL_BITS(x) as_ulong(x)
#define REAL_BITSV(x) as_ulong8(x)
#define BITS_REAL(x) as_double(x)
#else
typedef float8 realv;
typedef int8 maskv;
typedef uint real_bits;
typedef uint8 real_bitsv;
#define REAL_BITS(x) as_uint(x)
#define REAL_BITSV(x) as_uint8(x)
#define BITS_REAL(x) as_float(x)
#endif

/* The CPU-shaped second-order kernels' types (muscl_lanes.cl): MUSCL_LANES cells at a time, 16
 * where the device prefers vectors that wide in the precision (AVX-512 in fp32), else 8. */
#if MUSCL_LANES == 16
#ifdef SWE_DOUBLE
typedef double16 realm;
typedef long16 maskm;
#else
typedef float16 realm;
typedef int16 maskm;
#endif
#define VLOADM vload16
#define VSTOREM vstore16
#define LANE_INDEX ((realm)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
typedef uint16 uintm;
#define LANE_UINDEX ((uintm)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#define CONVERT_FLOATM convert_float16
#elif MUSCL_LANES == 8
typedef realv realm;
typedef maskv maskm;
#define VLOADM vload8
#define VSTOREM vstore8
#define LANE_INDEX ((realm)(0, 1, 2, 3, 4, 5, 6, 7))
typedef uint8 uintm;
#define LANE_UINDEX ((uintm)(0, 1, 2, 3, 4, 5, 6, 7))
#define CONVERT_FLOATM convert_float8
#elif defined(MUSCL_LANES)
#error "MUSCL_LANES must be 8 or 16"
#endif

/* 1 / x and sqrt(x) in fp64 on GPUs (the host builds with -DNEWTON_FP64=1 for GPU devices):
 * NVIDIA's fp64 division and square root are long software sequences with slow-path branches.
 * - real_recip: float's native estimate (2^-23 on NVIDIA's), then two Newton steps (about
 *   2^-46, then before its last rounding within about 2^-88 of 1 / x).
 * - real_sqrt (the second order's celerities): float's 1 / sqrt(x) (within 2 ulp by OpenCL's
 *   rules), one Newton step (about 2^-44), then x times that, corrected once: within about
 *   2^-84 of the root before its last rounding.
 * Both are faster than NVIDIA's sequences (see PERFORMANCE.md, 'Decisions that stand').
 * So both give the correctly rounded result but where it lies that close to a halfway point:
 * the same bits as dividing and sqrt() in practice (the twin divides and takes std::sqrt).
 * Every kernel of a program uses the same functions, so all launch shapes give the same bits.
 * They hold for x from about 1.2e-38 to 3.4e38 (float's range): below, the reciprocal is not
 * finite, which the blow-up check stops, and the root less exact (of a depth far below H_DRY,
 * which HLLC does not use; 0 gives 0); above, 0 (no flood is that deep). CPU devices divide and
 * take sqrt: their hardware beats the reciprocals there (PERFORMANCE.md, as above). realv: 8 cells,
 * realm: MUSCL_LANES cells. fp32 always divides and takes sqrt. */
#if defined(SWE_DOUBLE) && NEWTON_FP64
#define NEWTON_STEP(T, x, y) fma(y, fma(-(x), y, (T)1), y)
#define DEFINE_NEWTON_RECIP(name, T, estimate)                                                     \
  inline T name(T x)                                                                               \
  {                                                                                                \
    T y = estimate;                                                                                \
    y = NEWTON_STEP(T, x, y);                                                                      \
    return NEWTON_STEP(T, x, y);                                                                   \
  }
#define DEFINE_NEWTON_SQRT(name, T, estimate)                                                      \
  inline T name(T x)                                                                               \
  {                                                                                                \
    T y = estimate;                                                                                \
    y = y * fma(-((real)0.5 * x) * y, y, (T)1.5);                                                  \
    const T s = x * y;                                                                             \
    return fma(fma(-s, s, x), (real)0.5 * y, s);                                                   \
  }
DEFINE_NEWTON_RECIP(real_recip, real, (real)native_recip((float)x))
DEFINE_NEWTON_RECIP(realv_recip, realv, convert_double8(native_recip(convert_float8(x))))
DEFINE_NEWTON_SQRT(real_sqrt, real, (real)rsqrt(fmax((float)x, FLT_MIN)))
#if MUSCL_LANES == 16
DEFINE_NEWTON_SQRT(realm_sqrt, realm, convert_double16(rsqrt(fmax(convert_float16(x), FLT_MIN))))
#elif MUSCL_LANES == 8
DEFINE_NEWTON_SQRT(realm_sqrt, realm, convert_double8(rsqrt(fmax(convert_float8(x), FLT_MIN))))
#endif
#else
#define real_recip(x) ((real)1 / (x))
#define realv_recip(x) ((real)1 / (x))
#define real_sqrt(x) sqrt(x)
#define realm_sqrt(x) sqrt(x)
#endif

/* The run's uniform rain rate [m/s] (RAIN_RATE, from SimulationParameters::rainfall), or its
 * series' rate over the step (RAIN_SERIES: choose_dt sets it; every step kernel has the clock's
 * ctrl); 0 without rain, which euler_update (kernels/schemes/muscl_hllc.h) then leaves out. */
#if defined(RAIN_SERIES)
#define RAIN (ctrl[CTRL_RAIN])
#elif defined(RAIN_RATE)
#define RAIN ((real)RAIN_RATE)
#else
#define RAIN ((real)0)
#endif
/* The same for the constant loss rate (LOSS_RATE, SimulationParameters::lossRate). */
#ifdef LOSS_RATE
#define LOSS ((real)LOSS_RATE)
#else
#define LOSS ((real)0)
#endif

/* No fused multiply-add contraction: the C++ twin (the test oracle) rounds every operation, and
 * FMAs would buy little here but disagreement. */
#pragma OPENCL FP_CONTRACT OFF

#endif
