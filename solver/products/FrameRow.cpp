#include "FrameRow.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
// (GCC 12's AVX-512 headers trip its own uninitialised-value warnings)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

namespace swe
{
namespace
{
// The bounds of a row's values, gathered tile by tile: depth, surface, momentum x and y, velocity
// x and y in the cells' type, and the squared norms of momentum and velocity in double. Each
// bound is kept in a vector's lanes (64 bytes: AVX-512), so that a tile only widens them; the
// portable path uses lane 0.
template<class Real>
struct TileBounds
{
  static constexpr int values = FrameRanges::MomentumNorm, lanes = 64 / sizeof(Real);
  alignas(64) Real low[values][lanes], high[values][lanes];
  alignas(64) double normLow[2][8], normHigh[2][8];

  TileBounds()
  {
    for (int q = 0; q < values; ++q)
    {
      std::fill(std::begin(low[q]), std::end(low[q]), std::numeric_limits<Real>::infinity());
      std::fill(std::begin(high[q]), std::end(high[q]), -std::numeric_limits<Real>::infinity());
    }
    for (int q = 0; q < 2; ++q)
    {
      std::fill(
        std::begin(normLow[q]), std::end(normLow[q]), std::numeric_limits<double>::infinity());
      std::fill(
        std::begin(normHigh[q]), std::end(normHigh[q]), -std::numeric_limits<double>::infinity());
    }
  }

  void addTo(FrameRanges& ranges) const
  {
    for (int q = 0; q < values; ++q)
      for (int l = 0; l < lanes; ++l)
        ranges.widen(static_cast<FrameRanges::Quantity>(q), low[q][l], high[q][l]);
    for (int q = 0; q < 2; ++q)
      for (int l = 0; l < 8; ++l)
        ranges.widen(static_cast<FrameRanges::Quantity>(FrameRanges::MomentumNorm + q),
          normLow[q][l],
          normHigh[q][l]);
  }
};

// Widens [low, high] to a[0, m). The loops are vectorised (omp simd reductions): a NaN value may
// then be skipped or land in a bound, and FrameRanges::widen treats a NaN bound as unknown.
template<class Real>
inline void widenBy(const Real* a, std::size_t m, Real& low, Real& high)
{
  Real lo = low, hi = high;
#pragma omp simd reduction(min : lo) reduction(max : hi)
  for (std::size_t k = 0; k < m; ++k)
  {
    lo = std::min(lo, a[k]);
    hi = std::max(hi, a[k]);
  }
  low = lo;
  high = hi;
}

// The same for the squared norms x * x + y * y, in double as VTK computes a vector's L2 range.
template<class Real>
inline void widenByNorms(const Real* x, const Real* y, std::size_t m, double& low, double& high)
{
  double lo = low, hi = high;
#pragma omp simd reduction(min : lo) reduction(max : hi)
  for (std::size_t k = 0; k < m; ++k)
  {
    const double squared = static_cast<double>(x[k]) * static_cast<double>(x[k]) +
                           static_cast<double>(y[k]) * static_cast<double>(y[k]);
    lo = std::min(lo, squared);
    hi = std::max(hi, squared);
  }
  low = lo;
  high = hi;
}

template<class Real>
inline void widenTile(const Real* depth,
  const Real* surface,
  const Real* x,
  const Real* y,
  const Real* u,
  const Real* v,
  std::size_t m,
  TileBounds<Real>& b)
{
  const Real* arrays[] = { depth, surface, x, y, u, v };
  for (int q = 0; q < TileBounds<Real>::values; ++q)
    widenBy(arrays[q], m, b.low[q][0], b.high[q][0]);
  widenByNorms(x, y, m, b.normLow[0][0], b.normHigh[0][0]);
  widenByNorms(u, v, m, b.normLow[1][0], b.normHigh[1][0]);
}

#if defined(__GNUC__) && defined(__x86_64__)
// The same with AVX-512 where the CPU has it (16 floats or 8 doubles an instruction): the bounds
// cost more arithmetic than the rest of the row, and at SSE2 width they held up the frame's pass
// on a many-core GPU host (see PERFORMANCE.md, 'Decisions that stand'). Ties and NaNs as
// minps/maxps take them (the value first: a NaN value leaves the bound).
#define SWE_AVX512 __attribute__((target("avx512f")))
// Widens the lanes low[0, 64 bytes) and high by a[0, whole) (whole: a multiple of the lanes).
SWE_AVX512 inline void widenLanes(const float* a, std::size_t whole, float* low, float* high)
{
  __m512 lo = _mm512_load_ps(low), hi = _mm512_load_ps(high);
  for (std::size_t k = 0; k < whole; k += 16)
  {
    const __m512 value = _mm512_loadu_ps(a + k);
    lo = _mm512_min_ps(value, lo);
    hi = _mm512_max_ps(value, hi);
  }
  _mm512_store_ps(low, lo);
  _mm512_store_ps(high, hi);
}
SWE_AVX512 inline void widenLanes(const double* a, std::size_t whole, double* low, double* high)
{
  __m512d lo = _mm512_load_pd(low), hi = _mm512_load_pd(high);
  for (std::size_t k = 0; k < whole; k += 8)
  {
    const __m512d value = _mm512_loadu_pd(a + k);
    lo = _mm512_min_pd(value, lo);
    hi = _mm512_max_pd(value, hi);
  }
  _mm512_store_pd(low, lo);
  _mm512_store_pd(high, hi);
}
// Eight values as doubles (exact).
SWE_AVX512 inline __m512d eightAsDouble(const float* p)
{
  return _mm512_cvtps_pd(_mm256_loadu_ps(p));
}
SWE_AVX512 inline __m512d eightAsDouble(const double* p)
{
  return _mm512_loadu_pd(p);
}

template<class Real>
SWE_AVX512 void tileBoundsAvx512(const Real* depth,
  const Real* surface,
  const Real* x,
  const Real* y,
  const Real* u,
  const Real* v,
  std::size_t m,
  TileBounds<Real>& b)
{
  const std::size_t whole = m - m % TileBounds<Real>::lanes;
  const Real* arrays[] = { depth, surface, x, y, u, v };
  for (int q = 0; q < TileBounds<Real>::values; ++q)
    widenLanes(arrays[q], whole, b.low[q], b.high[q]);
  const Real* pairs[2][2] = { { x, y }, { u, v } };
  for (int q = 0; q < 2; ++q)
  {
    __m512d lo = _mm512_load_pd(b.normLow[q]), hi = _mm512_load_pd(b.normHigh[q]);
    for (std::size_t k = 0; k < whole; k += 8)
    {
      const __m512d first = eightAsDouble(pairs[q][0] + k), second = eightAsDouble(pairs[q][1] + k);
      const __m512d squared =
        _mm512_add_pd(_mm512_mul_pd(first, first), _mm512_mul_pd(second, second));
      lo = _mm512_min_pd(squared, lo);
      hi = _mm512_max_pd(squared, hi);
    }
    _mm512_store_pd(b.normLow[q], lo);
    _mm512_store_pd(b.normHigh[q], hi);
  }
  if (whole < m)
    widenTile(
      depth + whole, surface + whole, x + whole, y + whole, u + whole, v + whole, m - whole, b);
}
#endif

// The tile's bounds, with AVX-512 where the CPU has it.
template<class Real>
void tileBounds(const Real* depth,
  const Real* surface,
  const Real* x,
  const Real* y,
  const Real* u,
  const Real* v,
  std::size_t m,
  TileBounds<Real>& b)
{
#if defined(__GNUC__) && defined(__x86_64__)
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (avx512)
    return tileBoundsAvx512(depth, surface, x, y, u, v, m, b);
#endif
  widenTile(depth, surface, x, y, u, v, m, b);
}

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

// Copies n values to dst (none where dst is null: an array the output leaves out), with
// streaming stores from the first 16-byte boundary on where the CPU has them.
template<class Real>
void streamOut(Real* dst, const Real* src, std::size_t n)
{
  if (!dst)
    return;
  std::size_t k = 0;
#if defined(__SSE2__)
  constexpr std::size_t width = 16 / sizeof(Real);
  for (; k < n && reinterpret_cast<std::uintptr_t>(dst + k) % 16 != 0; ++k)
    dst[k] = src[k];
  for (; k + width <= n; k += width)
  {
    if constexpr (std::is_same_v<Real, float>)
      _mm_stream_ps(dst + k, _mm_loadu_ps(src + k));
    else
      _mm_stream_pd(dst + k, _mm_loadu_pd(src + k));
  }
#endif
  for (; k < n; ++k)
    dst[k] = src[k];
}

#if defined(__SSE2__)

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

// The SSE2 register of four floats or of two doubles.
template<class Real>
struct SseRegister;
template<>
struct SseRegister<float>
{
  using type = __m128;
};
template<>
struct SseRegister<double>
{
  using type = __m128d;
};

// Four cells (fp32) or two (fp64) from k on into tiles at j: surface, momentum and velocity (and
// its x and y apart).
template<class Real>
void fillGroup(const Real* h,
  const Real* hu,
  const Real* hv,
  const Real* bed,
  std::size_t k,
  Real* surface,
  Real* momentum,
  Real* velocity,
  Real* u,
  Real* v)
{
  // __m128 or __m128d, whose arithmetic GCC's vector extension writes as operators: the same
  // IEEE operations as the SSE2 instructions. Moved in and out by memcpy.
  using Vector = typename SseRegister<Real>::type;
  const auto load = [](const Real* from)
  {
    Vector loaded;
    std::memcpy(&loaded, from, sizeof(Vector));
    return loaded;
  };
  const auto store = [](Real* to, Vector values) { std::memcpy(to, &values, sizeof(Vector)); };
  const Vector depthHere = load(h + k), x = load(hu + k), y = load(hv + k);
  store(surface, depthHere + load(bed + k));
  storeTriples(momentum, x, y);
  // 1 / h where h > 0, else 0 (a dry cell's infinite quotient is not taken).
  const Vector inverse = depthHere > Real(0) ? Real(1) / depthHere : Vector{};
  const Vector velocityX = x * inverse, velocityY = y * inverse;
  storeTriples(velocity, velocityX, velocityY);
  store(u, velocityX); // apart too, for the tile's bounds
  store(v, velocityY);
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
  FrameRanges* ranges)
{
  TileBounds<Real> bounds;
  // Each output goes out in bursts of one tile, one array after the other: streaming stores to
  // four arrays at once, 16 bytes each in turn, flush the write-combining buffers half full
  // (see PERFORMANCE.md, 'Decisions that stand').
  constexpr std::size_t tile = 256;
  alignas(16) Real surfaceTile[tile], momentumTile[3 * tile], velocityTile[3 * tile], uTile[tile],
    vTile[tile];
  streamOut(depth, h, n);
  for (std::size_t t = 0; t < n; t += tile)
  {
    const std::size_t m = std::min(tile, n - t);
    std::size_t j = 0;
#if defined(__SSE2__)
    for (constexpr std::size_t group = 16 / sizeof(Real); j + group <= m; j += group)
      fillGroup(h,
        hu,
        hv,
        bed,
        t + j,
        surfaceTile + j,
        momentumTile + 3 * j,
        velocityTile + 3 * j,
        uTile + j,
        vTile + j);
#endif
    for (; j < m; ++j)
    {
      fillCell(h + t, hu + t, hv + t, bed + t, j, surfaceTile, momentumTile, velocityTile);
      uTile[j] = velocityTile[3 * j];
      vTile[j] = velocityTile[3 * j + 1];
    }
    if (ranges)
      tileBounds(h + t, surfaceTile, hu + t, hv + t, uTile, vTile, m, bounds);
    streamOut(offsetOrNull(surface, t), surfaceTile, m);
    streamOut(offsetOrNull(momentum, 3 * t), momentumTile, 3 * m);
    streamOut(offsetOrNull(velocity, 3 * t), velocityTile, 3 * m);
  }
  if (ranges)
    bounds.addTo(*ranges);
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
  FrameRanges*);
template double fillFrameRow(const double*,
  const double*,
  const double*,
  const double*,
  std::size_t,
  double*,
  double*,
  double*,
  double*,
  FrameRanges*);

FrameRanges::FrameRanges()
{
  std::fill(std::begin(min), std::end(min), std::numeric_limits<double>::infinity());
  std::fill(std::begin(max), std::end(max), -std::numeric_limits<double>::infinity());
}

void FrameRanges::take(Quantity q, double value)
{
  // NaN compares false both ways and leaves the bounds as they are: VTK's GetRange skips NaN.
  if (value < min[q])
    min[q] = value;
  if (value > max[q])
    max[q] = value;
}

void FrameRanges::widen(Quantity q, double low, double high)
{
  if (std::isnan(low) || std::isnan(high))
    unknown[q] = true;
  if (low < min[q])
    min[q] = low;
  if (high > max[q])
    max[q] = high;
}

void FrameRanges::merge(const FrameRanges& other)
{
  for (int q = 0; q < Count; ++q)
  {
    widen(static_cast<Quantity>(q), other.min[q], other.max[q]);
    unknown[q] = unknown[q] || other.unknown[q];
  }
}

bool FrameRanges::known(Quantity q) const
{
  return !unknown[q] && min[q] <= max[q];
}

bool FrameRanges::finite(Quantity q) const
{
  return known(q) && std::isfinite(min[q]) && std::isfinite(max[q]);
}

void streamingFence()
{
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
} // namespace swe
