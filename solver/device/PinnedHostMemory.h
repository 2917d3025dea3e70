#pragma once
// Host memory the device copies to and from at the bus's speed. A buffer the driver allocates in
// host memory (CL_MEM_ALLOC_HOST_PTR: page-locked on GPU drivers), mapped for the holder's life and
// never used in a kernel; where the driver gives none of that size, ordinary memory, which it
// copies through a staging buffer of its own at a fraction of the speed (PERFORMANCE.md: frames,
// split runs' halos).
#include "OpenCL.h"

#include <cstddef>
#include <vector>

namespace swe
{
class PinnedHostMemory
{
public:
  PinnedHostMemory() = default;
  // Unmaps the buffer (after the queue's work, which may still copy into it).
  ~PinnedHostMemory();
  PinnedHostMemory(const PinnedHostMemory&) = delete;
  PinnedHostMemory& operator=(const PinnedHostMemory&) = delete;

  // bytes of it, mapped on queue (any held before is released first).
  void allocate(const cl::Context& context, cl::CommandQueue& queue, std::size_t bytes);
  unsigned char* data() const { return data_; }
  bool allocated() const { return data_ != nullptr; }

private:
  void release();

  cl::CommandQueue* queue_ = nullptr;
  cl::Buffer buffer_;
  std::vector<unsigned char> fallback_;
  unsigned char* data_ = nullptr;
};
} // namespace swe
