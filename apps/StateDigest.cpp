#include "StateDigest.h"

#include "Error.h"

#include <cstring>
#include <string>
#include <vector>

namespace swe
{
namespace
{
// SplitMix64's finaliser: every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t x)
{
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

template<class Real>
std::uint64_t fieldDigest(const Simulation& simulation, Field field, const Block& block, int nx)
{
  std::vector<Real> values(static_cast<std::size_t>(block.nx) * block.ny);
  simulation.download(field, values.data());
  std::uint64_t sum = 0;
  for (int j = 0; j < block.ny; ++j)
    for (int i = 0; i < block.nx; ++i)
    {
      const Real v = values[static_cast<std::size_t>(j) * block.nx + i];
      std::uint64_t bits = 0;
      std::memcpy(&bits, &v, sizeof(v));
      const std::uint64_t cell =
        static_cast<std::uint64_t>(block.y0 + j) * static_cast<std::uint64_t>(nx) + block.x0 + i;
      sum += mix(mix(cell) ^ bits);
    }
  return sum;
}
} // namespace

std::array<std::uint64_t, 3> stateDigest(const Simulation& simulation,
  const Block& block,
  int nx,
  RankExchange* ranks)
{
  const SimulationParameters& owned = simulation.parameters();
  if (owned.nx != block.nx || owned.ny != block.ny)
    throw Error("the state digest's block is " + std::to_string(block.nx) + " x " +
                std::to_string(block.ny) + " cells, the simulation's " + std::to_string(owned.nx) +
                " x " + std::to_string(owned.ny));
  std::array<std::uint64_t, 3> digest{};
  const Field fields[3] = { Field::Depth, Field::MomentumX, Field::MomentumY };
  for (int f = 0; f < 3; ++f)
    digest[f] = simulation.parameters().precision == Precision::Double
                  ? fieldDigest<double>(simulation, fields[f], block, nx)
                  : fieldDigest<float>(simulation, fields[f], block, nx);
  if (!ranks)
    return digest;
  std::vector<unsigned char> mine(sizeof(digest));
  std::memcpy(mine.data(), digest.data(), sizeof(digest));
  const std::vector<std::vector<unsigned char>> all = ranks->gather(mine, 0);
  if (ranks->rank() != 0)
    return digest;
  digest = {};
  for (const std::vector<unsigned char>& theirs : all)
  {
    std::array<std::uint64_t, 3> part{};
    std::memcpy(part.data(), theirs.data(), sizeof(part));
    for (int f = 0; f < 3; ++f)
      digest[f] += part[f];
  }
  return digest;
}
} // namespace swe
