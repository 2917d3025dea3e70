/* The numbers fp32 depths are rounded at random with (depth_rounded_at_random, cell_update.h):
 * one uniform draw in [0, 1) a cell, step and stage, a hash of the cell's place in the whole grid
 * and of the step's count. Nothing is kept between steps, so a run split among ranks, a member of
 * an ensemble, a restarted run, every launch shape and the C++ twin draw the same numbers. The
 * hash is lowbias32 (C. Wellons' hash prospector) of a linear mix of the three: draws repeat only
 * for cells or steps about 1600 apart. Shared by the kernels and the twin (ReferenceSolver.cpp). */
#ifndef SWE_RANDOM_ROUNDING_H
#define SWE_RANDOM_ROUNDING_H

/* Depths below 2^-100 m round to nearest: their neighbours could be denormal, which fp32 kernels
 * flush to zero and the twin does not. */
#define ROUNDING_FLOOR 7.8886090522101181e-31

/* name(gi, gj, stage_count) (ROUNDING_STAGE): U, the type of the cell's column and row in the whole
 * grid (uint, or a vector of them for cells side by side), F its float type, TO_F U's conversion to
 * F. */
#define DEFINE_ROUNDING_DRAW(name, U, F, TO_F)                                                     \
  inline F name(U gi, U gj, uint stage_count)                                                      \
  {                                                                                                \
    U x = gi * 0x9E3779B1u + gj * 0x85EBCA77u + (U)(stage_count * 0xC2B2AE3Du);                    \
    x ^= x >> 16;                                                                                  \
    x *= 0x7FEB352Du;                                                                              \
    x ^= x >> 15;                                                                                  \
    x *= 0x846CA68Bu;                                                                              \
    x ^= x >> 16;                                                                                  \
    return TO_F(x >> 8) * (F)5.9604644775390625e-8f; /* 24 bits times 2^-24: exact */              \
  }

/* The draws' count: four a step, the step's count (with the one being taken: the clock commits a
 * second-order step before it runs, reductions.cl) times four plus the rounding's slot: 0 for
 * MUSCL-Hancock's step and MUSCL-HLLC's first stage, 1 for HLLC's second stage, 2 for its Heun
 * average. */
#define ROUNDING_STAGE(steps, slot) ((uint)(steps)*4u + (uint)(slot))

#define SWE_TO_FLOAT(x) ((float)(x))
DEFINE_ROUNDING_DRAW(rounding_draw, uint, float, SWE_TO_FLOAT)
#undef SWE_TO_FLOAT

#endif
