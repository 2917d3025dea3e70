#pragma once
// The plugin's arrays for one row of a frame, derived from h, hu, hv and the bed in one pass
// over the row. The derived values are made four (fp32) or two (fp64) cells at a time in SSE2
// registers, into tiles of 256 cells in cache; each tile then leaves in one burst per array with
// non-temporal (streaming) stores: the arrays are written once and read later by someone else,
// and such stores skip the read of each destination cache line that an ordinary store costs
// first (PERFORMANCE.md). The tile's bounds are taken from cache before it leaves.
#include <cstddef>

namespace swe
{
// The bounds of a frame's derived values, gathered in the pass that makes them: a viewer asks for
// every array's range after each frame (ParaView's data information, colour maps), and VTK's own
// pass over the arrays to answer takes far longer than a frame's steps (see PERFORMANCE.md,
// 'Decisions that stand').
struct FrameRanges
{
  enum Quantity
  {
    Depth,
    Surface,
    MomentumX,
    MomentumY,
    VelocityX,
    VelocityY,
    MomentumNorm, // the squared norm x * x + y * y in double, as VTK takes a vector's L2 range
    VelocityNorm, // before its square root
    Count
  };
  // Empty: every minimum +infinity, every maximum -infinity.
  FrameRanges();
  // Takes one value (NaN skipped, as VTK's GetRange skips it).
  void take(Quantity q, double value);
  // Widens q's bounds to [low, high]; a NaN bound makes them unknown (a vectorised reduction may
  // carry a NaN value into a bound instead of skipping it).
  void widen(Quantity q, double low, double high);
  void merge(const FrameRanges& other);
  // q's bounds are VTK's GetRange of its values (NaN skipped, infinities kept)...
  bool known(Quantity q) const;
  // ... and also its GetFiniteRange (infinities skipped too): known, and both finite.
  bool finite(Quantity q) const;

  double min[Count], max[Count];
  bool unknown[Count] = {};
};

// For cells [0, n) of a row: depth = h, surface = h + bed, momentum = (hu, hv, 0), velocity =
// (hu, hv, 0) * (h > 0 ? 1 / h : 0), the same bits as those formulas in the precision of the
// values (Real: float or double). Returns the sum of h over the row in double, in an order fixed
// by n alone (eight partial sums over the cells' index modulo 8, then added pairwise), so the
// same values give the same sum wherever the row lies in memory. The stores are weakly ordered:
// call streamingFence() before another thread may read the output. An output that is null is left
// out (its values still widen the ranges). The row's values widen ranges unless it is null
// (momentum and velocity by their x and y: their z is 0).
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
  FrameRanges* ranges);
void streamingFence();

// p + k, or null where p is null (an output left out): the row's outputs for fillFrameRow.
template<class Real>
Real* offsetOrNull(Real* p, std::size_t k)
{
  return p ? p + k : nullptr;
}
} // namespace swe
