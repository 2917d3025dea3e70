#include "StreamingCopy.h"

#include <algorithm>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace swe
{
namespace
{
#if defined(__SSE2__)
void store(float* dst, const float* src)
{
  _mm_stream_ps(dst, _mm_loadu_ps(src));
}
void store(double* dst, const double* src)
{
  _mm_stream_pd(dst, _mm_loadu_pd(src));
}
#endif

template<class Real>
void copy(Real* dst, const Real* src, std::size_t n)
{
#if defined(__SSE2__)
  constexpr std::size_t width = 16 / sizeof(Real); // values a 16-byte store takes
  // Ordinary stores up to the first 16-byte boundary (streaming stores must be aligned).
  std::size_t head = 0;
  while (head < n && reinterpret_cast<std::uintptr_t>(dst + head) % 16 != 0)
    ++head;
  std::copy(src, src + head, dst);
  std::size_t k = head;
  for (; k + width <= n; k += width)
    store(dst + k, src + k);
  std::copy(src + k, src + n, dst + k);
#else
  std::copy(src, src + n, dst);
#endif
}
} // namespace

void streamingCopy(float* dst, const float* src, std::size_t n)
{
  copy(dst, src, n);
}

void streamingCopy(double* dst, const double* src, std::size_t n)
{
  copy(dst, src, n);
}

void streamingFence()
{
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
} // namespace swe
