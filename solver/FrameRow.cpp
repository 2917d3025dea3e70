#include "FrameRow.h"

#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace swe
{
namespace
{
// One cell by the formulas, with ordinary stores (a row's unaligned ends; every cell without
// SSE2).
template<class Real>
void fillCell(const Real* h,
  const Real* hu,
  const Real* hv,
  const Real* bed,
  std::size_t k,
  Real* depth,
  Real* surface,
  Real* momentum,
  Real* velocity)
{
  const Real depthHere = h[k];
  depth[k] = depthHere;
  surface[k] = depthHere + bed[k];
  momentum[3 * k] = hu[k];
  momentum[3 * k + 1] = hv[k];
  momentum[3 * k + 2] = 0;
  const Real inverse = depthHere > 0 ? Real(1) / depthHere : Real(0);
  velocity[3 * k] = hu[k] * inverse;
  velocity[3 * k + 1] = hv[k] * inverse;
  velocity[3 * k + 2] = 0;
}

bool aligned16(const void* p)
{
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// The first cell from which every output of a group of cells starts on a 16-byte boundary, as
// streaming stores need; n if there is none (arrays not aligned to their values' size).
template<class Real>
std::size_t alignedStart(std::size_t n, Real* depth, Real* surface, Real* momentum, Real* velocity)
{
  constexpr std::size_t group = 16 / sizeof(Real);
  for (std::size_t k = 0; k < group && k < n; ++k)
    if (aligned16(depth + k) && aligned16(surface + k) && aligned16(momentum + 3 * k) &&
        aligned16(velocity + 3 * k))
      return k;
  return n;
}

#if defined(__SSE2__)
// (x, y, 0) of four cells as three aligned 16-byte streaming stores.
void streamTriples(float* out, __m128 x, __m128 y)
{
  const __m128 zero = _mm_setzero_ps();
  const __m128 xy01 = _mm_unpacklo_ps(x, y), xy23 = _mm_unpackhi_ps(x, y);
  const __m128 x0 = _mm_unpacklo_ps(x, zero), y0 = _mm_unpacklo_ps(y, zero);
  const __m128 x2 = _mm_unpackhi_ps(x, zero), y2 = _mm_unpackhi_ps(y, zero);
  _mm_stream_ps(out, _mm_shuffle_ps(xy01, x0, _MM_SHUFFLE(2, 1, 1, 0)));     // x0 y0 0 x1
  _mm_stream_ps(out + 4, _mm_shuffle_ps(y0, xy23, _MM_SHUFFLE(1, 0, 3, 2))); // y1 0 x2 y2
  _mm_stream_ps(out + 8, _mm_shuffle_ps(x2, y2, _MM_SHUFFLE(3, 2, 2, 1)));   // 0 x3 y3 0
}

// The same for two cells of doubles.
void streamTriples(double* out, __m128d x, __m128d y)
{
  const __m128d zero = _mm_setzero_pd();
  _mm_stream_pd(out, _mm_unpacklo_pd(x, y));        // x0 y0
  _mm_stream_pd(out + 2, _mm_unpackhi_pd(zero, x)); // 0 x1
  _mm_stream_pd(out + 4, _mm_unpackhi_pd(y, zero)); // y1 0
}

// Four cells (fp32) or two (fp64) from k on, which alignedStart has aligned.
void fillGroup(const float* h,
  const float* hu,
  const float* hv,
  const float* bed,
  std::size_t k,
  float* depth,
  float* surface,
  float* momentum,
  float* velocity)
{
  const __m128 depthHere = _mm_loadu_ps(h + k), x = _mm_loadu_ps(hu + k), y = _mm_loadu_ps(hv + k);
  _mm_stream_ps(depth + k, depthHere);
  _mm_stream_ps(surface + k, _mm_add_ps(depthHere, _mm_loadu_ps(bed + k)));
  streamTriples(momentum + 3 * k, x, y);
  // 1 / h where h > 0, else 0 (the mask also zeroes the infinity of a dry cell's division).
  const __m128 inverse =
    _mm_and_ps(_mm_cmpgt_ps(depthHere, _mm_setzero_ps()), _mm_div_ps(_mm_set1_ps(1.0f), depthHere));
  streamTriples(velocity + 3 * k, _mm_mul_ps(x, inverse), _mm_mul_ps(y, inverse));
}

void fillGroup(const double* h,
  const double* hu,
  const double* hv,
  const double* bed,
  std::size_t k,
  double* depth,
  double* surface,
  double* momentum,
  double* velocity)
{
  const __m128d depthHere = _mm_loadu_pd(h + k), x = _mm_loadu_pd(hu + k), y = _mm_loadu_pd(hv + k);
  _mm_stream_pd(depth + k, depthHere);
  _mm_stream_pd(surface + k, _mm_add_pd(depthHere, _mm_loadu_pd(bed + k)));
  streamTriples(momentum + 3 * k, x, y);
  const __m128d inverse =
    _mm_and_pd(_mm_cmpgt_pd(depthHere, _mm_setzero_pd()), _mm_div_pd(_mm_set1_pd(1.0), depthHere));
  streamTriples(velocity + 3 * k, _mm_mul_pd(x, inverse), _mm_mul_pd(y, inverse));
}

// Eight cells' depths added to the partial sums of their index modulo 8 (sums[0] holds 0 and 1,
// sums[1] 2 and 3, ...).
void addEight(const float* h, __m128d (&sums)[4])
{
  const __m128 low = _mm_loadu_ps(h), high = _mm_loadu_ps(h + 4);
  sums[0] = _mm_add_pd(sums[0], _mm_cvtps_pd(low));
  sums[1] = _mm_add_pd(sums[1], _mm_cvtps_pd(_mm_movehl_ps(low, low)));
  sums[2] = _mm_add_pd(sums[2], _mm_cvtps_pd(high));
  sums[3] = _mm_add_pd(sums[3], _mm_cvtps_pd(_mm_movehl_ps(high, high)));
}

void addEight(const double* h, __m128d (&sums)[4])
{
  for (int q = 0; q < 4; ++q)
    sums[q] = _mm_add_pd(sums[q], _mm_loadu_pd(h + 2 * q));
}
#endif

// The sum of h[0, n) in double: eight partial sums over the index modulo 8, in index order
// each, then added pairwise.
template<class Real>
double rowSum(const Real* h, std::size_t n)
{
  double sums[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
  std::size_t k = 0;
#if defined(__SSE2__)
  __m128d vector[4] = { _mm_setzero_pd(), _mm_setzero_pd(), _mm_setzero_pd(), _mm_setzero_pd() };
  for (; k + 8 <= n; k += 8)
    addEight(h + k, vector);
  for (int q = 0; q < 4; ++q)
    _mm_storeu_pd(sums + 2 * q, vector[q]);
#endif
  for (; k < n; ++k)
    sums[k % 8] += static_cast<double>(h[k]);
  return ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (sums[6] + sums[7]));
}

template<class Real>
double fillRow(const Real* h,
  const Real* hu,
  const Real* hv,
  const Real* bed,
  std::size_t n,
  Real* depth,
  Real* surface,
  Real* momentum,
  Real* velocity)
{
  std::size_t k = 0;
#if defined(__SSE2__)
  constexpr std::size_t group = 16 / sizeof(Real);
  for (const std::size_t start = alignedStart(n, depth, surface, momentum, velocity); k < start;
       ++k)
    fillCell(h, hu, hv, bed, k, depth, surface, momentum, velocity);
  for (; k + group <= n; k += group)
    fillGroup(h, hu, hv, bed, k, depth, surface, momentum, velocity);
#endif
  for (; k < n; ++k)
    fillCell(h, hu, hv, bed, k, depth, surface, momentum, velocity);
  return rowSum(h, n); // the row is in cache now
}
} // namespace

double fillFrameRow(const float* h,
  const float* hu,
  const float* hv,
  const float* bed,
  std::size_t n,
  float* depth,
  float* surface,
  float* momentum,
  float* velocity)
{
  return fillRow(h, hu, hv, bed, n, depth, surface, momentum, velocity);
}

double fillFrameRow(const double* h,
  const double* hu,
  const double* hv,
  const double* bed,
  std::size_t n,
  double* depth,
  double* surface,
  double* momentum,
  double* velocity)
{
  return fillRow(h, hu, hv, bed, n, depth, surface, momentum, velocity);
}

void streamingFence()
{
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
} // namespace swe
