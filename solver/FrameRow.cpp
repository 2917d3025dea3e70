#include "FrameRow.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace swe
{
namespace
{
// Surface, momentum and velocity of cell k by the formulas (a tile's last cells; every cell
// without SSE2), taken into ranges with the depth.
template<class Real>
void fillCell(const Real* h,
  const Real* hu,
  const Real* hv,
  const Real* bed,
  std::size_t k,
  Real* surface,
  Real* momentum,
  Real* velocity,
  FrameRanges& ranges)
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
  ranges.take(FrameRanges::Depth, depthHere);
  ranges.take(FrameRanges::Surface, surface[k]);
  const double x = hu[k], y = hv[k], u = velocity[3 * k], v = velocity[3 * k + 1];
  ranges.take(FrameRanges::MomentumX, x);
  ranges.take(FrameRanges::MomentumY, y);
  ranges.take(FrameRanges::VelocityX, u);
  ranges.take(FrameRanges::VelocityY, v);
  ranges.take(FrameRanges::MomentumNorm, x * x + y * y);
  ranges.take(FrameRanges::VelocityNorm, u * u + v * v);
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

// A row's ranges in SSE2 registers, one lane per cell of a group (minps/maxps with the new value
// first keep the old bound when the value is NaN, as FrameRanges::take does; NaNs are noted
// apart).
template<class Real>
struct Simd;
template<>
struct Simd<float>
{
  using Vector = __m128;
};
template<>
struct Simd<double>
{
  using Vector = __m128d;
};

template<class Real>
struct VectorRanges
{
  using Vector = typename Simd<Real>::Vector;
  static constexpr int values = FrameRanges::MomentumNorm; // quantities with the cells' type
  Vector low[values], high[values], nan;
  __m128d normLow[2], normHigh[2]; // squared norms of momentum and velocity, in double

  VectorRanges()
  {
    for (int q = 0; q < values; ++q)
    {
      low[q] = splat(std::numeric_limits<double>::infinity());
      high[q] = splat(-std::numeric_limits<double>::infinity());
    }
    nan = splat(0);
    for (int q = 0; q < 2; ++q)
    {
      normLow[q] = _mm_set1_pd(std::numeric_limits<double>::infinity());
      normHigh[q] = _mm_set1_pd(-std::numeric_limits<double>::infinity());
    }
  }

  static Vector splat(double value)
  {
    if constexpr (std::is_same_v<Real, float>)
      return _mm_set1_ps(static_cast<float>(value));
    else
      return _mm_set1_pd(value);
  }

  void take(int q, __m128 v)
  {
    low[q] = _mm_min_ps(v, low[q]);
    high[q] = _mm_max_ps(v, high[q]);
  }
  void take(int q, __m128d v)
  {
    low[q] = _mm_min_pd(v, low[q]);
    high[q] = _mm_max_pd(v, high[q]);
  }
  void noteNaN(__m128 a, __m128 b) { nan = _mm_or_ps(nan, _mm_cmpunord_ps(a, b)); }
  void noteNaN(__m128d a, __m128d b) { nan = _mm_or_pd(nan, _mm_cmpunord_pd(a, b)); }

  void takeNorm(int q, __m128d x, __m128d y)
  {
    const __m128d squared = _mm_add_pd(_mm_mul_pd(x, x), _mm_mul_pd(y, y));
    normLow[q] = _mm_min_pd(squared, normLow[q]);
    normHigh[q] = _mm_max_pd(squared, normHigh[q]);
  }
  // Four fp32 cells as two pairs of doubles.
  void takeNorm(int q, __m128 x, __m128 y)
  {
    takeNorm(q, _mm_cvtps_pd(x), _mm_cvtps_pd(y));
    takeNorm(q, _mm_cvtps_pd(_mm_movehl_ps(x, x)), _mm_cvtps_pd(_mm_movehl_ps(y, y)));
  }

  // Folds every lane into ranges.
  void addTo(FrameRanges& ranges) const
  {
    constexpr int lanes = 16 / sizeof(Real);
    alignas(16) Real lo[lanes], hi[lanes], bad[lanes];
    auto store = [](Real* out, Vector v)
    {
      if constexpr (lanes == 4)
        _mm_store_ps(out, v);
      else
        _mm_store_pd(out, v);
    };
    for (int q = 0; q < values; ++q)
    {
      store(lo, low[q]);
      store(hi, high[q]);
      for (int l = 0; l < lanes; ++l)
        ranges.widen(static_cast<FrameRanges::Quantity>(q), lo[l], hi[l]);
    }
    store(bad, nan);
    for (int l = 0; l < lanes; ++l)
      ranges.sawNaN = ranges.sawNaN || bad[l] != 0; // a lane of all bits set is a NaN
    for (int q = 0; q < 2; ++q)
    {
      alignas(16) double nlo[2], nhi[2];
      _mm_store_pd(nlo, normLow[q]);
      _mm_store_pd(nhi, normHigh[q]);
      for (int l = 0; l < 2; ++l)
        ranges.widen(
          static_cast<FrameRanges::Quantity>(FrameRanges::MomentumNorm + q), nlo[l], nhi[l]);
    }
  }
};

// Four cells (fp32) or two (fp64) from k on into tiles at j: surface, momentum and velocity.
void fillGroup(const float* h,
  const float* hu,
  const float* hv,
  const float* bed,
  std::size_t k,
  float* surface,
  float* momentum,
  float* velocity,
  VectorRanges<float>& ranges)
{
  const __m128 depthHere = _mm_loadu_ps(h + k), x = _mm_loadu_ps(hu + k), y = _mm_loadu_ps(hv + k);
  const __m128 level = _mm_add_ps(depthHere, _mm_loadu_ps(bed + k));
  _mm_store_ps(surface, level);
  storeTriples(momentum, x, y);
  // 1 / h where h > 0, else 0 (the mask also zeroes the infinity of a dry cell's division).
  const __m128 inverse =
    _mm_and_ps(_mm_cmpgt_ps(depthHere, _mm_setzero_ps()), _mm_div_ps(_mm_set1_ps(1.0f), depthHere));
  const __m128 u = _mm_mul_ps(x, inverse), v = _mm_mul_ps(y, inverse);
  storeTriples(velocity, u, v);
  ranges.take(FrameRanges::Depth, depthHere);
  ranges.take(FrameRanges::Surface, level);
  ranges.take(FrameRanges::MomentumX, x);
  ranges.take(FrameRanges::MomentumY, y);
  ranges.take(FrameRanges::VelocityX, u);
  ranges.take(FrameRanges::VelocityY, v);
  ranges.noteNaN(depthHere, level);
  ranges.noteNaN(x, y);
  ranges.noteNaN(u, v);
  ranges.takeNorm(0, x, y);
  ranges.takeNorm(1, u, v);
}

void fillGroup(const double* h,
  const double* hu,
  const double* hv,
  const double* bed,
  std::size_t k,
  double* surface,
  double* momentum,
  double* velocity,
  VectorRanges<double>& ranges)
{
  const __m128d depthHere = _mm_loadu_pd(h + k), x = _mm_loadu_pd(hu + k), y = _mm_loadu_pd(hv + k);
  const __m128d level = _mm_add_pd(depthHere, _mm_loadu_pd(bed + k));
  _mm_store_pd(surface, level);
  storeTriples(momentum, x, y);
  const __m128d inverse =
    _mm_and_pd(_mm_cmpgt_pd(depthHere, _mm_setzero_pd()), _mm_div_pd(_mm_set1_pd(1.0), depthHere));
  const __m128d u = _mm_mul_pd(x, inverse), v = _mm_mul_pd(y, inverse);
  storeTriples(velocity, u, v);
  ranges.take(FrameRanges::Depth, depthHere);
  ranges.take(FrameRanges::Surface, level);
  ranges.take(FrameRanges::MomentumX, x);
  ranges.take(FrameRanges::MomentumY, y);
  ranges.take(FrameRanges::VelocityX, u);
  ranges.take(FrameRanges::VelocityY, v);
  ranges.noteNaN(depthHere, level);
  ranges.noteNaN(x, y);
  ranges.noteNaN(u, v);
  ranges.takeNorm(0, x, y);
  ranges.takeNorm(1, u, v);
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
  Real* velocity,
  FrameRanges& ranges)
{
#if defined(__SSE2__)
  // Each output goes out in bursts of one tile, one array after the other: streaming stores to
  // four arrays at once, 16 bytes each in turn, ran slower on the H200's host than the scalar
  // version (write-combining buffers flushed half full; PERFORMANCE.md).
  constexpr std::size_t tile = 256, group = 16 / sizeof(Real);
  alignas(16) Real surfaceTile[tile], momentumTile[3 * tile], velocityTile[3 * tile];
  VectorRanges<Real> vectorRanges;
  streamOut(depth, h, n);
  for (std::size_t t = 0; t < n; t += tile)
  {
    const std::size_t m = std::min(tile, n - t);
    std::size_t j = 0;
    for (; j + group <= m; j += group)
      fillGroup(h,
        hu,
        hv,
        bed,
        t + j,
        surfaceTile + j,
        momentumTile + 3 * j,
        velocityTile + 3 * j,
        vectorRanges);
    for (; j < m; ++j)
      fillCell(h + t, hu + t, hv + t, bed + t, j, surfaceTile, momentumTile, velocityTile, ranges);
    streamOut(surface + t, surfaceTile, m);
    streamOut(momentum + 3 * t, momentumTile, 3 * m);
    streamOut(velocity + 3 * t, velocityTile, 3 * m);
  }
  vectorRanges.addTo(ranges);
#else
  std::copy(h, h + n, depth);
  for (std::size_t k = 0; k < n; ++k)
    fillCell(h, hu, hv, bed, k, surface, momentum, velocity, ranges);
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
  float*,
  FrameRanges&);
template double fillFrameRow(const double*,
  const double*,
  const double*,
  const double*,
  std::size_t,
  double*,
  double*,
  double*,
  double*,
  FrameRanges&);

FrameRanges::FrameRanges()
{
  std::fill(std::begin(min), std::end(min), std::numeric_limits<double>::infinity());
  std::fill(std::begin(max), std::end(max), -std::numeric_limits<double>::infinity());
}

void FrameRanges::take(Quantity q, double value)
{
  widen(q, value, value);
  if (std::isnan(value))
    sawNaN = true;
}

void FrameRanges::widen(Quantity q, double low, double high)
{
  // NaN compares false both ways and leaves the bounds as they were, as minps/maxps do.
  if (low < min[q])
    min[q] = low;
  if (high > max[q])
    max[q] = high;
}

void FrameRanges::merge(const FrameRanges& other)
{
  for (int q = 0; q < Count; ++q)
    widen(static_cast<Quantity>(q), other.min[q], other.max[q]);
  sawNaN = sawNaN || other.sawNaN;
}

bool FrameRanges::finite() const
{
  if (sawNaN)
    return false;
  for (int q = 0; q < Count; ++q)
    if (!std::isfinite(min[q]) || !std::isfinite(max[q]))
      return false;
  return true;
}

void streamingFence()
{
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
} // namespace swe
