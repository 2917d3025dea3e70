/* Running totals that fp32 keeps to about 2^-48 over any number of steps (the water balance's
 * Inflow field): a total grows far past what each step adds, and rounding every sum to the total's
 * precision biases it, by 1e-4 relative after 10^5 steps of a steady inflow. Each total keeps a
 * low part, what its rounding left out (TwoSum, then Fast2Sum so that the total is the correctly
 * rounded sum): the total alone, as outputs read it, is within half an ulp of the exact sum. fp64
 * adds plainly, its bits as before. Shared by the kernels and the twin (ReferenceBalance.cpp). */
#ifndef SWE_COMPENSATED_H
#define SWE_COMPENSATED_H

#ifdef __cplusplus
#define SWE_TOTAL_SPACE
#else
#define SWE_TOTAL_SPACE __global
#endif

/* Adds x to the running total *total whose low part is *low. */
inline void add_to_total(SWE_TOTAL_SPACE real* total, SWE_TOTAL_SPACE real* low, real x)
{
#ifdef SWE_DOUBLE
  (void)low;
  *total += x;
#else
  const real a = *total, sum = a + x, b = sum - a;
  const real rounded_off = (a - (sum - b)) + (x - b); /* sum + rounded_off == a + x exactly */
  const real kept_low = *low + rounded_off;
  const real renormalized = sum + kept_low;
  *low = kept_low - (renormalized - sum);
  *total = renormalized;
#endif
}

#endif
