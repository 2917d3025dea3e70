/* Forcing that varies in time: a series of values at increasing times, linear between them and 0
 * outside its first and last time (a storm's hyetograph: the rain stops when the series ends).
 * Shared by the kernels, whose series are program constants (DeviceProgram's forcingSource), and
 * the twin (solver/twin/ReferenceSolver.cpp), so that both take the same value for a step. */
#ifndef SWE_FORCING_H
#define SWE_FORCING_H

#ifdef __cplusplus
#define SWE_SERIES_SPACE
#else
#define SWE_SERIES_SPACE __constant
#endif

/* The value at time x of the series of n >= 2 points (times t, values v). */
inline real series_at(SWE_SERIES_SPACE const real* t, SWE_SERIES_SPACE const real* v, int n, real x)
{
  if (!(x >= t[0]) || x > t[n - 1])
    return (real)0;
  int k = 0;
  while (k + 2 < n && t[k + 1] < x)
    ++k;
  return v[k] + (v[k + 1] - v[k]) * ((x - t[k]) / (t[k + 1] - t[k]));
}

/* The same held at its first and last values outside its times: a water level's (a tide that
 * ends stays where it ended; 0 m would drain a grid above the datum through its side). */
inline real series_held(SWE_SERIES_SPACE const real* t,
  SWE_SERIES_SPACE const real* v,
  int n,
  real x)
{
  return series_at(t, v, n, x < t[0] ? t[0] : (x > t[n - 1] ? t[n - 1] : x));
}

/* The mean over [a, b] (a < b) of the series of n >= 2 points (times t, values v): the exact
 * integral of its linear pieces, each piece's part by its middle value, so that a step's forcing
 * adds what the series says over the step, also across its breakpoints. Defined for series in
 * program constants (series_mean) and, in the kernels, in a buffer (series_mean_global: the point
 * sources', too many for constants), one body for both. The binary search finds the first piece
 * that ends after a: a step touches one or two pieces. */
#define SWE_SERIES_MEAN(name, space)                                                               \
  inline real name(space const real* t, space const real* v, int n, real a, real b)                \
  {                                                                                                \
    int lo = 0, hi = n - 2;                                                                        \
    while (lo < hi)                                                                                \
    {                                                                                              \
      const int mid = (lo + hi) / 2;                                                               \
      if (t[mid + 1] <= a)                                                                         \
        lo = mid + 1;                                                                              \
      else                                                                                         \
        hi = mid;                                                                                  \
    }                                                                                              \
    real sum = (real)0;                                                                            \
    for (int k = lo; k < n - 1 && t[k] < b; ++k)                                                   \
    {                                                                                              \
      const real from = a > t[k] ? a : t[k], to = b < t[k + 1] ? b : t[k + 1];                     \
      if (to > from)                                                                               \
      {                                                                                            \
        const real middle = (real)0.5 * (from + to);                                               \
        sum += (to - from) * (v[k] + (v[k + 1] - v[k]) * ((middle - t[k]) / (t[k + 1] - t[k])));   \
      }                                                                                            \
    }                                                                                              \
    return sum / (b - a);                                                                          \
  }
SWE_SERIES_MEAN(series_mean, SWE_SERIES_SPACE)
#ifndef __cplusplus
SWE_SERIES_MEAN(series_mean_global, __global)
#endif

/* A point source's depth `added` (< 0: a sink's) into a cell (h, hu, hv): a sink takes no more
 * than the cell holds, and scales its momentum with its depth so that its velocity stays. */
inline void take_source(real* h, real* hu, real* hv, real added)
{
  if (added >= (real)0)
  {
    *h += added;
    return;
  }
  const real kept = *h + added > (real)0 ? *h + added : (real)0;
  const real scale = *h > (real)0 ? kept / *h : (real)0;
  *hu *= scale;
  *hv *= scale;
  *h = kept;
}

#endif
