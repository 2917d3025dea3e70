#pragma once
// A hint for large buffers that are about to be filled for the first time.
#include <cstddef>
#include <vector>

namespace swe
{
// Asks for transparent huge pages on the 2 MiB pages inside [data, data + bytes) before first
// touch: each fault then maps 2 MiB instead of 4 KiB, so fresh memory takes fewer faults to fill
// (see PERFORMANCE.md, 'Decisions that stand').
// Only a hint: Linux with THP in "madvise" mode (Debian's default) honours it; elsewhere a no-op.
void adviseHugePages(void* data, std::size_t bytes);

// memory resized to bytes, in fresh memory asked for huge pages first when its capacity is short
// (the resize is the first touch), else in place.
void resizeOnHugePages(std::vector<unsigned char>& memory, std::size_t bytes);
} // namespace swe
