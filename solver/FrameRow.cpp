#include "FrameRow.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace swe
{
namespace
{
// Surface, momentum and velocity of cell k by the formulas (a tile's last cells; every cell
// without SSE2).
template<class Real>
void fillCell(const Real* h,
  const Real* hu,
  const Real* hv,
  const Real* bed,
  std::size_t k,
  Real* surface,
  Real* momentum,
  Real* velocity)
{
  const Real depthHere = h[k];
  surface[k] = depthHere + bed[k];
  momentum[3 * k] = hu[k];
  momentum[3 * k + 1] = hv[k];
  momentum[3 * k + 2] = 0;
  const Real inverse = depthHere > 0 ? Real(1) / depthHere : Real(0);
  velocity[3 * k] = hu[k] * inverse;
  velocity[3 * k + 1] = hv[k] * inverse;
  velocity[3 * k + 2] = 0;
}

#if defined(__SSE2__)
// Copies n values to dst with streaming stores from the first 16-byte boundary on.
template<class Real>
void streamOut(Real* dst, const Real* src, std::size_t n)
{
  constexpr std::size_t width = 16 / sizeof(Real);
  std::size_t k = 0;
  for (; k < n && reinterpret_cast<std::uintptr_t>(dst + k) % 16 != 0; ++k)
    dst[k] = src[k];
  for (; k + width <= n; k += width)
  {
    if constexpr (std::is_same_v<Real, float>)
      _mm_stream_ps(dst + k, _mm_loadu_ps(src + k));
    else
      _mm_stream_pd(dst + k, _mm_loadu_pd(src + k));
  }
  for (; k < n; ++k)
    dst[k] = src[k];
}

// (x, y, 0) of four cells as three 16-byte stores into an aligned tile.
void storeTriples(float* out, __m128 x, __m128 y)
{
  const __m128 zero = _mm_setzero_ps();
  const __m128 xy01 = _mm_unpacklo_ps(x, y), xy23 = _mm_unpackhi_ps(x, y);
  const __m128 x0 = _mm_unpacklo_ps(x, zero), y0 = _mm_unpacklo_ps(y, zero);
  const __m128 x2 = _mm_unpackhi_ps(x, zero), y2 = _mm_unpackhi_ps(y, zero);
  _mm_store_ps(out, _mm_shuffle_ps(xy01, x0, _MM_SHUFFLE(2, 1, 1, 0)));     // x0 y0 0 x1
  _mm_store_ps(out + 4, _mm_shuffle_ps(y0, xy23, _MM_SHUFFLE(1, 0, 3, 2))); // y1 0 x2 y2
  _mm_store_ps(out + 8, _mm_shuffle_ps(x2, y2, _MM_SHUFFLE(3, 2, 2, 1)));   // 0 x3 y3 0
}

// The same for two cells of doubles.
void storeTriples(double* out, __m128d x, __m128d y)
{
  const __m128d zero = _mm_setzero_pd();
  _mm_store_pd(out, _mm_unpacklo_pd(x, y));        // x0 y0
  _mm_store_pd(out + 2, _mm_unpackhi_pd(zero, x)); // 0 x1
  _mm_store_pd(out + 4, _mm_unpackhi_pd(y, zero)); // y1 0
}

// Four cells (fp32) or two (fp64) from k on into tiles at j: surface, momentum and velocity.
void fillGroup(const float* h,
  const float* hu,
  const float* hv,
  const float* bed,
  std::size_t k,
  float* surface,
  float* momentum,
  float* velocity)
{
  const __m128 depthHere = _mm_loadu_ps(h + k), x = _mm_loadu_ps(hu + k), y = _mm_loadu_ps(hv + k);
  _mm_store_ps(surface, _mm_add_ps(depthHere, _mm_loadu_ps(bed + k)));
  storeTriples(momentum, x, y);
  // 1 / h where h > 0, else 0 (the mask also zeroes the infinity of a dry cell's division).
  const __m128 inverse =
    _mm_and_ps(_mm_cmpgt_ps(depthHere, _mm_setzero_ps()), _mm_div_ps(_mm_set1_ps(1.0f), depthHere));
  storeTriples(velocity, _mm_mul_ps(x, inverse), _mm_mul_ps(y, inverse));
}

void fillGroup(const double* h,
  const double* hu,
  const double* hv,
  const double* bed,
  std::size_t k,
  double* surface,
  double* momentum,
  double* velocity)
{
  const __m128d depthHere = _mm_loadu_pd(h + k), x = _mm_loadu_pd(hu + k), y = _mm_loadu_pd(hv + k);
  _mm_store_pd(surface, _mm_add_pd(depthHere, _mm_loadu_pd(bed + k)));
  storeTriples(momentum, x, y);
  const __m128d inverse =
    _mm_and_pd(_mm_cmpgt_pd(depthHere, _mm_setzero_pd()), _mm_div_pd(_mm_set1_pd(1.0), depthHere));
  storeTriples(velocity, _mm_mul_pd(x, inverse), _mm_mul_pd(y, inverse));
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

} // namespace

template<class Real>
double fillFrameRow(const Real* h,
  const Real* hu,
  const Real* hv,
  const Real* bed,
  std::size_t n,
  Real* depth,
  Real* surface,
  Real* momentum,
  Real* velocity)
{
#if defined(__SSE2__)
  // Each output goes out in bursts of one tile, one array after the other: streaming stores to
  // four arrays at once, 16 bytes each in turn, ran slower on the H200's host than the scalar
  // version (write-combining buffers flushed half full; PERFORMANCE.md).
  constexpr std::size_t tile = 256, group = 16 / sizeof(Real);
  alignas(16) Real surfaceTile[tile], momentumTile[3 * tile], velocityTile[3 * tile];
  streamOut(depth, h, n);
  for (std::size_t t = 0; t < n; t += tile)
  {
    const std::size_t m = std::min(tile, n - t);
    std::size_t j = 0;
    for (; j + group <= m; j += group)
      fillGroup(h, hu, hv, bed, t + j, surfaceTile + j, momentumTile + 3 * j, velocityTile + 3 * j);
    for (; j < m; ++j)
      fillCell(h + t, hu + t, hv + t, bed + t, j, surfaceTile, momentumTile, velocityTile);
    streamOut(surface + t, surfaceTile, m);
    streamOut(momentum + 3 * t, momentumTile, 3 * m);
    streamOut(velocity + 3 * t, velocityTile, 3 * m);
  }
#else
  std::copy(h, h + n, depth);
  for (std::size_t k = 0; k < n; ++k)
    fillCell(h, hu, hv, bed, k, surface, momentum, velocity);
#endif
  return rowSum(h, n); // the row is in cache now
}

template double fillFrameRow(const float*,
  const float*,
  const float*,
  const float*,
  std::size_t,
  float*,
  float*,
  float*,
  float*);
template double fillFrameRow(const double*,
  const double*,
  const double*,
  const double*,
  std::size_t,
  double*,
  double*,
  double*,
  double*);

void streamingFence()
{
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
} // namespace swe
