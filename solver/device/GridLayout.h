#pragma once
// How a field lies in device memory: the nx x ny interior cells with kGhost ghost layers on every
// side (room for a second-order stencil), x fastest; rows lie pitch() cells apart and every row's
// interior starts on a 128-byte boundary (whole memory transactions for the aligned loads and
// stores of a row), after an offset that holds the left ghost layers. The kernels are built with
// the same numbers (-DGHOST, -DPITCH, -DOFFSET: kernels/device/grid.h). No OpenCL here: the size
// checks use it before a device is opened.
#include "Parameters.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace swe
{
constexpr int kGhost = 2; // ghost layers: wide enough for a second-order stencil

// Bytes of one value in the precision.
inline std::size_t realBytes(Precision precision)
{
  return precision == Precision::Double ? 8 : 4;
}

std::uint64_t roundUp(std::uint64_t value, std::uint64_t multiple);

// Cells before a row's interior (its left ghost layers and the alignment).
std::uint64_t rowOffsetCells(std::uint64_t realSize);
// Cells from one row to the next.
std::uint64_t rowPitchCells(std::uint64_t nx, std::uint64_t realSize);
// Cells of a whole buffer: every row, ghost rows included.
std::uint64_t paddedCells(std::uint64_t nx, std::uint64_t ny, std::uint64_t realSize);

struct GridLayout
{
  int nx = 0, ny = 0;
  std::size_t realSize = 4;
  // The cells this rank owns within the nx x ny it updates (SimulationParameters::ownedI0):
  // what "the interior" below means to copies, downloads and snapshots. Whole by default.
  int ownedI0 = 0, ownedJ0 = 0, ownedNx = 0, ownedNy = 0;

  static GridLayout of(const SimulationParameters& params)
  {
    GridLayout layout{ params.nx, params.ny, realBytes(params.precision) };
    if (!params.ownsWholeBlock())
    {
      layout.ownedI0 = params.ownedI0;
      layout.ownedJ0 = params.ownedJ0;
      layout.ownedNx = params.ownedNx;
      layout.ownedNy = params.ownedNy;
    }
    return layout;
  }
  int ownedColumns() const { return ownedNx > 0 ? ownedNx : nx; }
  int ownedRows() const { return ownedNx > 0 ? ownedNy : ny; }

  std::size_t pitch() const { return rowPitchCells(nx, realSize); }
  std::size_t offset() const { return rowOffsetCells(realSize); }
  std::size_t paddedCells() const { return swe::paddedCells(nx, ny, realSize); }
  std::size_t bufferBytes() const { return paddedCells() * realSize; }
  // The owned cells, and one field of them packed row after row: as the host and snapshots
  // hold them.
  std::size_t cells() const
  {
    return static_cast<std::size_t>(ownedColumns()) * static_cast<std::size_t>(ownedRows());
  }
  std::size_t fieldBytes() const { return cells() * realSize; }
  // The ghost cells fill_ghosts writes: full ghost rows at the bottom and top, ghost columns
  // beside every interior row (kernels/state/boundary.cl).
  std::size_t ghostCells() const
  {
    return 2 * kGhost * (static_cast<std::size_t>(nx) + 2 * kGhost) +
           2 * kGhost * static_cast<std::size_t>(ny);
  }
  // The interior cells on the grid's sides (kernels/state/boundary_inflow.cl).
  std::size_t boundaryCells() const
  {
    const std::size_t rows = ny > 1 ? 2 : 1, columns = nx > 1 ? 2 : 1;
    return rows * static_cast<std::size_t>(nx) +
           columns * static_cast<std::size_t>(std::max(ny - 2, 0));
  }
  // The interior as rectangle copies take it: the origin in a buffer (bytes, rows, 0), the
  // region (bytes of a row, rows, 1), a buffer's row pitch and a packed row's, in bytes.
  std::array<std::size_t, 3> interiorOrigin() const
  {
    return { (offset() + static_cast<std::size_t>(ownedI0)) * realSize,
      static_cast<std::size_t>(kGhost + ownedJ0),
      0 };
  }
  std::array<std::size_t, 3> interiorRegion() const
  {
    return {
      static_cast<std::size_t>(ownedColumns()) * realSize, static_cast<std::size_t>(ownedRows()), 1
    };
  }
  std::size_t rowPitchBytes() const { return pitch() * realSize; }
  std::size_t packedRowBytes() const { return static_cast<std::size_t>(ownedColumns()) * realSize; }
  // Where interior cell (i, j) lies in a buffer, in bytes.
  std::size_t cellOffsetBytes(int i, int j) const
  {
    return ((static_cast<std::size_t>(j) + kGhost) * pitch() + i + offset()) * realSize;
  }
};
} // namespace swe
