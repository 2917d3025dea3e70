#pragma once
// How much host memory a run may take, so that a grid too large is refused with the numbers
// before anything is allocated (an allocation past it wakes the OOM killer, or fails inside the
// OpenCL driver, which may then abort or never return).
#include <cstdint>

namespace swe
{
// Bytes of host memory this process can count on: what the machine and this process's memory
// cgroup (v2 memory.max, v1 limit_in_bytes) and address-space limit (ulimit -v) leave available,
// plus what the process holds now (an earlier run it is about to replace). Never more than the
// machine's or the cgroup's total.
// 0 where none of it can be read (then nothing is refused on its account).
std::uint64_t availableHostMemory();

// What the process's address-space limit (ulimit -v) leaves beside the address space in use, in
// bytes; the largest std::uint64_t where there is no limit.
std::uint64_t addressSpaceRoom();
} // namespace swe
