#pragma once
// A digest of a run's state for comparing runs bit for bit without writing files (swe run
// --digest): for h, hu and hv as the device holds them, the wrapping sum over the whole grid's
// cells of a mix of each cell's index in the grid and its value's bits. A sum does not depend on
// the order of its terms, so the blocks of a run split among ranks add up to one rank's digest.
#include "Partition.h"
#include "RankExchange.h"
#include "Simulation.h"

#include <array>
#include <cstdint>

namespace swe
{
// The digests of h, hu and hv; block: this rank's cells in the whole grid of nx columns (ranks:
// the other ranks, null on one). Collective; the sums are whole at rank 0.
std::array<std::uint64_t, 3> stateDigest(const Simulation& simulation,
  const Block& block,
  int nx,
  RankExchange* ranks);
} // namespace swe
