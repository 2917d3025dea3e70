#pragma once
// A grid split among ranks: each rank simulates one rectangular block of cells, with ghost
// layers that its neighbours' cells fill (the halo) where its side lies inside the grid, and that
// its own boundary conditions fill where its side is the grid's. Any layout of blocks that tiles
// the grid works (a 2D block split, or the pipeline's extents); blocks that meet at a corner or
// along part of a side exchange exactly the cells they share.
//
// Why every rank gives the bits of a single-rank run: each cell's update reads only cells within
// kGhost of it, which the halo holds as the single-rank run's grid does (corners included); the
// ghosts a grid side gives, the rank whose block reaches that side computes from the same cells
// a single rank does; and dt, the one value every cell shares, comes from the largest wave speed
// of the whole grid (RankExchange::maxOverRanks, exact).
#include "InitialState.h"

#include <array>
#include <string>
#include <vector>

namespace swe
{
class RankExchange;

// Cells [x0, x0 + nx) x [y0, y0 + ny) of the grid.
struct Block
{
  int x0 = 0, y0 = 0, nx = 0, ny = 0;
  bool operator==(const Block& o) const
  {
    return x0 == o.x0 && y0 == o.y0 && nx == o.nx && ny == o.ny;
  }
};

// A rectangle of cells in a block's own coordinates (ghosts at -kGhost.. and n..n + kGhost - 1).
struct CellRect
{
  int i0 = 0, j0 = 0, nx = 0, ny = 0;
  std::size_t cells() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny); }
};

// What one rank sends to, and receives from, one other rank in a halo exchange.
struct HaloLink
{
  int peer = -1;
  std::vector<CellRect> send, receive; // in this rank's coordinates
};

struct Partition
{
  int gridNx = 0, gridNy = 0;
  std::vector<Block> blocks; // by rank
  int rank = 0;
  // Cells each block reaches past its sides inside the grid into its neighbours' blocks
  // (overlapCells: an exchange interval above 1), which it updates too between exchanges.
  int overlap = 0;

  const Block& block() const { return blocks.at(static_cast<std::size_t>(rank)); }
  int ranks() const { return static_cast<int>(blocks.size()); }
  // The cells a rank updates: its block and the overlap past its sides inside the grid.
  Block computeBlock(int r) const;
  Block computeBlock() const { return computeBlock(rank); }
  // The halo exchange of this rank, peer by peer in rank order: every cell of its compute
  // block's ghost layers and overlap that another rank owns, in compute-block coordinates.
  std::vector<HaloLink> haloLinks() const;
  // The same without the ghost layers, in block coordinates: what another rank owns of this
  // rank's compute block (extendToComputeBlock).
  std::vector<HaloLink> overlapLinks() const;
  // Throws swe::Error unless the blocks tile the grid exactly and each is at least kGhost cells
  // wide and tall (a ghost layer comes from one neighbour).
  void validate() const;
};

// The grid split into `ranks` blocks of px x py, px * py = ranks, chosen for the shortest halo
// (the least cut length); the cells of a row (column) of blocks differ by at most one.
Partition splitGrid(int gridNx, int gridNy, int ranks, int rank);

// The cells of block b of a whole grid's initial state.
InitialState blockOf(const InitialState& whole, const Block& b);

// This rank's initial state of its compute block, from its block's (`owned`): the overlap's
// cells from the ranks that own them (collective; owned itself where there is no overlap).
InitialState extendToComputeBlock(const InitialState& owned,
  const Partition& partition,
  RankExchange& exchange);

// The partition whose block of this rank is `mine`, the others' learnt from every rank
// (collective).
Partition gatherPartition(int gridNx, int gridNy, const Block& mine, RankExchange& exchange);
} // namespace swe
