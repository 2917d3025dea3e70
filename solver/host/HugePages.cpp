#include "HugePages.h"

#include <cstdint>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace swe
{
void adviseHugePages(void* data, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t page = std::uintptr_t(1) << 21;
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(page - 1);
  if (end > begin)
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

void resizeOnHugePages(std::vector<unsigned char>& memory, std::size_t bytes)
{
  if (memory.capacity() < bytes)
  {
    memory = std::vector<unsigned char>();
    memory.reserve(bytes);
    adviseHugePages(memory.data(), bytes);
  }
  memory.resize(bytes);
}
} // namespace swe
