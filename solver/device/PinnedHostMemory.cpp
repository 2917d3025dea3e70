#include "PinnedHostMemory.h"

namespace swe
{
PinnedHostMemory::~PinnedHostMemory()
{
  release();
}

void PinnedHostMemory::release()
{
  if (buffer_() && queue_)
  {
    try
    {
      queue_->enqueueUnmapMemObject(buffer_, data_);
      queue_->finish();
    }
    catch (const cl::Error&)
    {
      // Releasing the buffer frees the memory anyway; a destructor must not throw.
    }
  }
  buffer_ = cl::Buffer();
  fallback_.clear();
  data_ = nullptr;
}

void PinnedHostMemory::allocate(const cl::Context& context,
  cl::CommandQueue& queue,
  std::size_t bytes)
{
  release();
  queue_ = &queue;
  try
  {
    buffer_ = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes);
    data_ = static_cast<unsigned char*>(
      queue.enqueueMapBuffer(buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes));
  }
  catch (const cl::Error&)
  {
    // No host buffer of that size from this driver: ordinary memory, a slower bus copy.
    buffer_ = cl::Buffer();
    fallback_.resize(bytes);
    data_ = fallback_.data();
  }
}
} // namespace swe
