#pragma once
// The plugin's arrays for one row of a frame, derived from h, hu, hv and the bed in one pass
// over the row. The derived values are made four (fp32) or two (fp64) cells at a time in SSE2
// registers, into tiles of 256 cells in cache; each tile then leaves in one burst per array with
// non-temporal (streaming) stores: the arrays are written once and read later by someone else,
// and such stores skip the read of each destination cache line that an ordinary store costs
// first (PERFORMANCE.md).
#include <cstddef>

namespace swe
{
// For cells [0, n) of a row: depth = h, surface = h + bed, momentum = (hu, hv, 0), velocity =
// (hu, hv, 0) * (h > 0 ? 1 / h : 0), the same bits as those formulas in the precision of the
// values (Real: float or double). Returns the sum of h over the row in double, in an order fixed
// by n alone (eight partial sums over the cells' index modulo 8, then added pairwise), so the
// same values give the same sum wherever the row lies in memory. The stores are weakly ordered:
// call streamingFence() before another thread may read the output.
template<class Real>
double fillFrameRow(const Real* h,
  const Real* hu,
  const Real* hv,
  const Real* bed,
  std::size_t n,
  Real* depth,
  Real* surface,
  Real* momentum,
  Real* velocity);
void streamingFence();
} // namespace swe
