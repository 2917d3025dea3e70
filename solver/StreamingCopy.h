#pragma once
// Copies into large output buffers that are written once and read later by someone else (a
// frame's VTK arrays): non-temporal stores skip the read of each destination cache line that an
// ordinary store costs first, a third less memory traffic for a pass that only writes its output.
#include <cstddef>

namespace swe
{
// Copies n values from src to dst with streaming stores where the CPU has them (x86-64: SSE2),
// else as std::copy. The stores are weakly ordered: call streamingFence() before another thread
// may read dst.
void streamingCopy(float* dst, const float* src, std::size_t n);
void streamingCopy(double* dst, const double* src, std::size_t n);
void streamingFence();
} // namespace swe
