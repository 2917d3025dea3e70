#include "Partition.h"

#include "Error.h"
#include "GridLayout.h"
#include "RankExchange.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace swe
{
namespace
{
// A rectangle in grid coordinates, [x0, x1) x [y0, y1).
struct Span
{
  int x0, y0, x1, y1;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

Span intersect(const Span& a, const Span& b)
{
  return { std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1) };
}

// The cells whose values a rank's step leaves right: its block, and past each side that is the
// grid's the ghosts its boundary conditions give (corners of the grid included).
Span provided(const Partition& p, int rank)
{
  const Block& b = p.blocks[static_cast<std::size_t>(rank)];
  return { b.x0 == 0 ? -kGhost : b.x0,
    b.y0 == 0 ? -kGhost : b.y0,
    b.x0 + b.nx == p.gridNx ? p.gridNx + kGhost : b.x0 + b.nx,
    b.y0 + b.ny == p.gridNy ? p.gridNy + kGhost : b.y0 + b.ny };
}

// A rank's block with its ghost layers.
Span ghosted(const Block& b)
{
  return { b.x0 - kGhost, b.y0 - kGhost, b.x0 + b.nx + kGhost, b.y0 + b.ny + kGhost };
}

Span span(const Block& b)
{
  return { b.x0, b.y0, b.x0 + b.nx, b.y0 + b.ny };
}

CellRect local(const Span& s, const Block& b)
{
  return { s.x0 - b.x0, s.y0 - b.y0, s.x1 - s.x0, s.y1 - s.y0 };
}

std::string text(const Block& b)
{
  return "[" + std::to_string(b.x0) + ", " + std::to_string(b.x0 + b.nx) + ") x [" +
         std::to_string(b.y0) + ", " + std::to_string(b.y0 + b.ny) + ")";
}

// The sizes of `parts` runs that split n cells, the first n % parts one cell longer.
std::vector<int> splitCells(int n, int parts)
{
  std::vector<int> sizes(static_cast<std::size_t>(parts), n / parts);
  for (int k = 0; k < n % parts; ++k)
    ++sizes[static_cast<std::size_t>(k)];
  return sizes;
}
} // namespace

Block Partition::computeBlock(int r) const
{
  const Block& b = blocks.at(static_cast<std::size_t>(r));
  const int x0 = std::max(b.x0 - overlap, 0), y0 = std::max(b.y0 - overlap, 0);
  const int x1 = std::min(b.x0 + b.nx + overlap, gridNx),
            y1 = std::min(b.y0 + b.ny + overlap, gridNy);
  return { x0, y0, x1 - x0, y1 - y0 };
}

namespace
{
// The links of a rank whose peers each send it `wanted(peer's cells, its needs)`: what each
// provides (`provides`) within what the other needs (`needs`), in coordinates of `origin`.
template<class Provides, class Needs>
std::vector<HaloLink> linksOf(const Partition& p,
  const Block& origin,
  const Provides& provides,
  const Needs& needs)
{
  std::vector<HaloLink> links;
  for (int peer = 0; peer < p.ranks(); ++peer)
  {
    if (peer == p.rank)
      continue;
    // (A block's own cells are never another's to give.)
    const Span send = intersect(provides(p.rank), needs(peer));
    const Span receive = intersect(provides(peer), needs(p.rank));
    if (send.empty() && receive.empty())
      continue;
    HaloLink link;
    link.peer = peer;
    if (!send.empty())
      link.send.push_back(local(send, origin));
    if (!receive.empty())
      link.receive.push_back(local(receive, origin));
    links.push_back(link);
  }
  return links;
}
} // namespace

std::vector<HaloLink> Partition::haloLinks() const
{
  // The cells one provides within the other's ghost layers and overlap.
  return linksOf(
    *this,
    computeBlock(),
    [&](int r) { return provided(*this, r); },
    [&](int r) { return ghosted(computeBlock(r)); });
}

std::vector<HaloLink> Partition::overlapLinks() const
{
  return linksOf(
    *this,
    block(),
    [&](int r) { return span(blocks[static_cast<std::size_t>(r)]); },
    [&](int r) { return span(computeBlock(r)); });
}

void Partition::validate() const
{
  if (blocks.empty() || rank < 0 || rank >= ranks())
    throw Error("rank " + std::to_string(rank) + " is not one of the partition's " +
                std::to_string(ranks()) + " ranks");
  std::uint64_t cells = 0;
  for (std::size_t r = 0; r < blocks.size(); ++r)
  {
    const Block& b = blocks[r];
    if (b.nx < kGhost || b.ny < kGhost)
      throw Error("rank " + std::to_string(r) + "'s block " + text(b) + " is " +
                  std::to_string(b.nx) + " x " + std::to_string(b.ny) +
                  " cells; each rank needs at least " + std::to_string(kGhost) + " x " +
                  std::to_string(kGhost) + ": use fewer ranks or a larger grid");
    if (b.x0 < 0 || b.y0 < 0 || b.x0 + b.nx > gridNx || b.y0 + b.ny > gridNy)
      throw Error("rank " + std::to_string(r) + "'s block " + text(b) + " lies outside the " +
                  std::to_string(gridNx) + " x " + std::to_string(gridNy) + " grid");
    for (std::size_t q = 0; q < r; ++q)
      if (!intersect({ b.x0, b.y0, b.x0 + b.nx, b.y0 + b.ny },
            { blocks[q].x0,
              blocks[q].y0,
              blocks[q].x0 + blocks[q].nx,
              blocks[q].y0 + blocks[q].ny })
             .empty())
        throw Error("the blocks of ranks " + std::to_string(q) + " and " + std::to_string(r) +
                    " overlap: " + text(blocks[q]) + " and " + text(b));
    cells += static_cast<std::uint64_t>(b.nx) * static_cast<std::uint64_t>(b.ny);
  }
  if (cells != static_cast<std::uint64_t>(gridNx) * static_cast<std::uint64_t>(gridNy))
    throw Error("the ranks' blocks cover " + std::to_string(cells) + " cells of the " +
                std::to_string(gridNx) + " x " + std::to_string(gridNy) + " grid, not all of them");
}

Partition splitGrid(int gridNx, int gridNy, int ranks, int rank)
{
  if (ranks < 1)
    throw Error("cannot split a grid among " + std::to_string(ranks) + " ranks");
  int bestPx = 1;
  std::int64_t bestCut = -1;
  for (int px = 1; px <= ranks; ++px)
  {
    if (ranks % px != 0)
      continue;
    const int py = ranks / px;
    const std::int64_t cut =
      static_cast<std::int64_t>(px - 1) * gridNy + static_cast<std::int64_t>(py - 1) * gridNx;
    if (bestCut < 0 || cut < bestCut)
    {
      bestCut = cut;
      bestPx = px;
    }
  }
  const int px = bestPx, py = ranks / px;
  const std::vector<int> widths = splitCells(gridNx, px), heights = splitCells(gridNy, py);
  Partition p;
  p.gridNx = gridNx;
  p.gridNy = gridNy;
  p.rank = rank;
  int y0 = 0;
  for (int by = 0; by < py; ++by)
  {
    int x0 = 0;
    for (int bx = 0; bx < px; ++bx)
    {
      p.blocks.push_back(
        { x0, y0, widths[static_cast<std::size_t>(bx)], heights[static_cast<std::size_t>(by)] });
      x0 += widths[static_cast<std::size_t>(bx)];
    }
    y0 += heights[static_cast<std::size_t>(by)];
  }
  p.validate();
  return p;
}

InitialState blockOf(const InitialState& whole, const Block& b)
{
  InitialState part(b.nx, b.ny);
  part.x0 = whole.x0 + b.x0;
  part.y0 = whole.y0 + b.y0;
  const auto copy = [&](const std::vector<double>& from, std::vector<double>& to)
  {
    if (from.empty())
    {
      to.clear();
      return;
    }
    to.resize(part.cells());
    for (int j = 0; j < b.ny; ++j)
      std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(whole.index(b.x0, b.y0 + j)),
        b.nx,
        to.begin() + static_cast<std::ptrdiff_t>(part.index(0, j)));
  };
  copy(whole.h, part.h);
  copy(whole.hu, part.hu);
  copy(whole.hv, part.hv);
  copy(whole.bed, part.bed);
  copy(whole.manning, part.manning);
  copy(whole.rain, part.rain);
  copy(whole.conductivity, part.conductivity);
  copy(whole.suction, part.suction);
  copy(whole.deficit, part.deficit);
  return part;
}

namespace
{
// The per-cell fields of an initial state (an empty one: a uniform value), const where it is.
template<class State>
auto cellFields(State& s)
{
  return std::array{
    &s.h, &s.hu, &s.hv, &s.bed, &s.manning, &s.rain, &s.conductivity, &s.suction, &s.deficit
  };
}
} // namespace

InitialState extendToComputeBlock(const InitialState& owned,
  const Partition& partition,
  RankExchange& exchange)
{
  const Block& b = partition.block();
  const Block c = partition.computeBlock();
  if (c == b)
    return owned;
  InitialState out(c.nx, c.ny);
  out.x0 = owned.x0 - (b.x0 - c.x0);
  out.y0 = owned.y0 - (b.y0 - c.y0);
  const auto from = cellFields(owned);
  const auto to = cellFields(out);
  // Every rank trades the fields any rank has per cell (the pipeline gives every piece the same
  // arrays; a piece without one would leave its neighbours' overlap unknown).
  std::vector<double> present(from.size());
  for (std::size_t f = 0; f < from.size(); ++f)
    present[f] = from[f]->empty() ? 0 : 1;
  exchange.maxOverRanks(present.data(), static_cast<int>(present.size()));
  std::vector<std::size_t> traded;
  std::optional<std::string> error;
  for (std::size_t f = 0; f < from.size(); ++f)
    if (present[f] > 0)
    {
      if (from[f]->empty())
        error = "this rank's piece lacks a per-cell array its neighbours have: give every "
                "piece the same arrays";
      traded.push_back(f);
    }
  exchange.agreeOnError(error);
  // The block's own cells.
  const int di = b.x0 - c.x0, dj = b.y0 - c.y0;
  for (std::size_t f : traded)
  {
    to[f]->assign(out.cells(), 0.0);
    for (int j = 0; j < b.ny; ++j)
      std::copy_n(from[f]->begin() + static_cast<std::ptrdiff_t>(owned.index(0, j)),
        b.nx,
        to[f]->begin() + static_cast<std::ptrdiff_t>(out.index(di, dj + j)));
  }
  // The overlap's, rectangle by rectangle, field after field.
  const std::vector<HaloLink> links = partition.overlapLinks();
  std::vector<std::vector<double>> sent(links.size()), received(links.size());
  std::vector<RankExchange::Message> sends, receives;
  for (std::size_t l = 0; l < links.size(); ++l)
  {
    for (const CellRect& r : links[l].send)
      for (std::size_t f : traded)
        for (int j = r.j0; j < r.j0 + r.ny; ++j)
          for (int i = r.i0; i < r.i0 + r.nx; ++i)
            sent[l].push_back((*from[f])[owned.index(i, j)]);
    std::size_t cells = 0;
    for (const CellRect& r : links[l].receive)
      cells += r.cells() * traded.size();
    received[l].resize(cells);
    sends.push_back({ links[l].peer, 1, sent[l].data(), sent[l].size() * sizeof(double) });
    receives.push_back(
      { links[l].peer, 1, received[l].data(), received[l].size() * sizeof(double) });
  }
  exchange.exchange(sends, receives);
  for (std::size_t l = 0; l < links.size(); ++l)
  {
    std::size_t k = 0;
    for (const CellRect& r : links[l].receive)
      for (std::size_t f : traded)
        for (int j = r.j0; j < r.j0 + r.ny; ++j)
          for (int i = r.i0; i < r.i0 + r.nx; ++i)
            (*to[f])[out.index(i + di, j + dj)] = received[l][k++];
  }
  return out;
}

Partition gatherPartition(int gridNx, int gridNy, const Block& mine, RankExchange& exchange)
{
  std::vector<unsigned char> bytes(sizeof(Block));
  std::memcpy(bytes.data(), &mine, sizeof(Block));
  Partition p;
  p.gridNx = gridNx;
  p.gridNy = gridNy;
  p.rank = exchange.rank();
  for (const std::vector<unsigned char>& theirs : exchange.allGather(bytes))
  {
    Block b;
    std::memcpy(&b, theirs.data(), sizeof(Block));
    p.blocks.push_back(b);
  }
  p.validate();
  return p;
}
} // namespace swe
