// MpiRankExchange under mpirun, on 2 and 3 ranks (testing/CMakeLists.txt). Every rank runs every
// test in the same order and checks its own side; a fatal failure on any rank aborts the whole
// run (main), since the other ranks would otherwise wait in a collective for ever.
#include "Error.h"
#include "MpiRankExchange.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace
{
using Bytes = std::vector<unsigned char>;
using swe::MpiRankExchange;
using Message = swe::RankExchange::Message;

// What rank from sends to rank to under tag: sizes and contents differ by all three, so that a
// message matched to the wrong receive shows.
Bytes payload(int from, int to, int tag)
{
  Bytes bytes(static_cast<std::size_t>(100 + 37 * from + 5 * tag));
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<unsigned char>(from * 31 + to * 7 + tag * 3 + static_cast<int>(i));
  return bytes;
}

std::uint64_t bits(double value)
{
  std::uint64_t b;
  std::memcpy(&b, &value, sizeof b);
  return b;
}

Bytes asBytes(const std::vector<double>& values)
{
  Bytes bytes(values.size() * sizeof(double));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST(RankExchangeMpi, RingExchangeOfDistinctPayloads)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const int rank = exchange.rank(), ranks = exchange.ranks();
  ASSERT_GE(ranks, 2);
  const int next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
  // On 2 ranks next and previous are the same rank: the tags tell the two messages apart.
  Bytes toNext = payload(rank, next, 1), toPrevious = payload(rank, previous, 2);
  Bytes fromPrevious(payload(previous, rank, 1).size()), fromNext(payload(next, rank, 2).size());
  exchange.exchange({ { next, 1, toNext.data(), toNext.size() },
                      { previous, 2, toPrevious.data(), toPrevious.size() } },
    { { previous, 1, fromPrevious.data(), fromPrevious.size() },
      { next, 2, fromNext.data(), fromNext.size() } });
  EXPECT_EQ(fromPrevious, payload(previous, rank, 1));
  EXPECT_EQ(fromNext, payload(next, rank, 2));
  // What was sent is untouched.
  EXPECT_EQ(toNext, payload(rank, next, 1));
}

TEST(RankExchangeMpi, EmptyMessagesAreSkipped)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const int rank = exchange.rank(), ranks = exchange.ranks();
  const int next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
  // Nothing at all, and messages of 0 bytes: no data, not even a valid peer, and no receive
  // on the other side. Were the 0-byte send posted, it would match the tag-5 receive below.
  exchange.exchange({}, {});
  exchange.exchange({ { next, 5, nullptr, 0 }, { -1, -1, nullptr, 0 } }, { { -1, 5, nullptr, 0 } });
  double sent = 1.5 + rank, received = -1.0;
  exchange.exchange(
    { { next, 5, &sent, sizeof sent } }, { { previous, 5, &received, sizeof received } });
  EXPECT_EQ(received, 1.5 + previous);
}

TEST(RankExchangeMpi, InvalidMessagesAreRefusedBeforeAnythingIsPosted)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  double value = 0.0;
  // Each rank refuses on its own: no message is posted, so no other rank is involved.
  try
  {
    exchange.exchange({}, { { -1, 0, &value, sizeof value } });
    FAIL() << "a receive from rank -1 (MPI_ANY_SOURCE) was accepted";
  }
  catch (const swe::Error& e)
  {
    EXPECT_NE(
      std::string(e.what()).find("MPI_Irecv of 8 bytes from rank -1 (tag 0)"), std::string::npos)
      << e.what();
  }
  EXPECT_THROW(
    exchange.exchange({ { exchange.ranks(), 0, &value, sizeof value } }, {}), swe::Error);
  EXPECT_THROW(exchange.exchange({ { 0, -1, &value, sizeof value } }, {}), swe::Error);
  EXPECT_THROW(exchange.exchange({ { 0, 0, nullptr, 8 } }, {}), swe::Error);
}

TEST(RankExchangeMpi, MpiFailureIsAnErrorNamingTheOperation)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  // Rank 0 sends 16 bytes to rank 1, which has room for 8: MPI reports the truncation on rank 1.
  unsigned char data[16] = {};
  if (exchange.rank() == 0)
    exchange.exchange({ { 1, 9, data, 16 } }, {});
  else if (exchange.rank() == 1)
  {
    try
    {
      exchange.exchange({}, { { 0, 9, data, 8 } });
      FAIL() << "a truncated message was accepted";
    }
    catch (const swe::Error& e)
    {
      const std::string what = e.what();
      EXPECT_NE(what.find("MPI_Testall for the MPI_Irecv of 8 bytes from rank 0 (tag 9) failed: "),
        std::string::npos)
        << what;
      EXPECT_NE(what.find("truncated"), std::string::npos) << what;
    }
  }
  // The communicator still works afterwards.
  EXPECT_TRUE(exchange.allAgree(true));
}

// A rank whose peer never sends gives up after SWE_MPI_WAIT_SECONDS with an error, instead of
// waiting for ever, and its communicator still works.
TEST(RankExchangeMpi, AnExchangeNobodyAnswersEndsInAnError)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  setenv("SWE_MPI_WAIT_SECONDS", "1", 1);
  double value = 0;
  if (exchange.rank() == 0)
  {
    try
    {
      exchange.exchange({}, { { 1, 77, &value, sizeof value } });
      FAIL() << "an exchange with a silent peer returned";
    }
    catch (const swe::Error& e)
    {
      EXPECT_NE(std::string(e.what()).find("did not answer within 1 s"), std::string::npos)
        << e.what();
    }
  }
  unsetenv("SWE_MPI_WAIT_SECONDS");
  EXPECT_TRUE(exchange.allAgree(true));
}

TEST(RankExchangeMpi, MaximumIsBitExactOnEveryRank)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const int rank = exchange.rank(), ranks = exchange.ranks();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto valuesOf = [&](int r)
  {
    // Values that differ by rank in their last bits, signs, zeros of either sign, a NaN on
    // the last rank only.
    return std::vector<double>{ 0.1 * (r + 1) + 0.2,
      -1.0 - r,
      1e-300 * (r + 1),
      r == 0 ? 0.0 : -0.0,
      r == 0 ? -0.0 : 0.0,
      r == ranks - 1 ? nan : 1.0,
      -0.0 };
  };
  std::vector<double> values = valuesOf(rank);
  exchange.maxOverRanks(values.data(), static_cast<int>(values.size()));

  std::vector<double> expected = valuesOf(0);
  for (int r = 1; r < ranks; ++r)
    for (std::size_t i = 0; i < expected.size(); ++i)
      expected[i] = std::max(expected[i], valuesOf(r)[i]);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(bits(values[i]), bits(expected[i])) << "value " << i;
  EXPECT_EQ(bits(values[3]), bits(0.0)) << "+0 is above -0";
  EXPECT_EQ(bits(values[4]), bits(0.0)) << "+0 is above -0";
  EXPECT_TRUE(std::isnan(values[5])) << "a NaN on one rank is the maximum";
  EXPECT_EQ(bits(values[6]), bits(-0.0));
  // The same bits on every rank.
  for (const Bytes& other : exchange.allGather(asBytes(values)))
    EXPECT_EQ(other, asBytes(values));
  exchange.maxOverRanks(nullptr, 0);
}

TEST(RankExchangeMpi, SumOverRanks)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const int rank = exchange.rank(), ranks = exchange.ranks();
  std::vector<double> values = { 1.0 + rank, 0.1 * (rank + 1), -2.0 * rank };
  exchange.sumOverRanks(values.data(), static_cast<int>(values.size()));
  EXPECT_EQ(values[0], ranks * (ranks + 1) / 2.0);
  EXPECT_DOUBLE_EQ(values[1], 0.1 * ranks * (ranks + 1) / 2.0);
  EXPECT_EQ(values[2], -1.0 * ranks * (ranks - 1));
  EXPECT_THROW(exchange.sumOverRanks(values.data(), -1), swe::Error);
}

// Rank r's bytes for the gathers: 3 r of them (none on rank 0).
Bytes gathered(int r)
{
  Bytes bytes(static_cast<std::size_t>(3 * r));
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<unsigned char>(r * 16 + static_cast<int>(i));
  return bytes;
}

TEST(RankExchangeMpi, GatherOfDifferentSizes)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const int rank = exchange.rank(), ranks = exchange.ranks();
  const int root = ranks - 1;
  const std::vector<Bytes> blocks = exchange.gather(gathered(rank), root);
  if (rank == root)
  {
    ASSERT_EQ(blocks.size(), static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
      EXPECT_EQ(blocks[r], gathered(r)) << "rank " << r;
  }
  else
    EXPECT_TRUE(blocks.empty());
  EXPECT_THROW(exchange.gather({}, ranks), swe::Error);
}

TEST(RankExchangeMpi, AllGatherOfDifferentSizes)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const std::vector<Bytes> blocks = exchange.allGather(gathered(exchange.rank()));
  ASSERT_EQ(blocks.size(), static_cast<std::size_t>(exchange.ranks()));
  for (int r = 0; r < exchange.ranks(); ++r)
    EXPECT_EQ(blocks[r], gathered(r)) << "rank " << r;
}

TEST(RankExchangeMpi, BroadcastFromANonZeroRoot)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const int rank = exchange.rank();
  const std::string sent("from rank 1, with a \0 inside", 28);
  std::string text = rank == 1 ? sent : std::string(100, 'x');
  exchange.broadcast(text, 1);
  EXPECT_EQ(text, sent);
  // An empty text empties the others'.
  text = rank == 1 ? std::string() : std::string("left over");
  exchange.broadcast(text, 1);
  EXPECT_EQ(text, "");
  EXPECT_THROW(exchange.broadcast(text, -1), swe::Error);
}

TEST(RankExchangeMpi, AgreeOnError)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  const int rank = exchange.rank();
  EXPECT_NO_THROW(exchange.agreeOnError(std::nullopt));
  try
  {
    exchange.agreeOnError(
      rank == 1 ? std::optional<std::string>("the depth went negative") : std::nullopt);
    FAIL() << "rank 1's error was not thrown on rank " << rank;
  }
  catch (const swe::Error& e)
  {
    EXPECT_EQ(std::string(e.what()), "rank 1: the depth went negative");
  }
  // Of several failing ranks, the lowest one's message.
  try
  {
    exchange.agreeOnError(
      rank >= 1 ? std::optional<std::string>("failed on " + std::to_string(rank)) : std::nullopt);
    FAIL() << "no error thrown on rank " << rank;
  }
  catch (const swe::Error& e)
  {
    EXPECT_EQ(std::string(e.what()), "rank 1: failed on 1");
  }
}

TEST(RankExchangeMpi, AllAgree)
{
  MpiRankExchange exchange(MPI_COMM_WORLD);
  EXPECT_TRUE(exchange.allAgree(true));
  EXPECT_FALSE(exchange.allAgree(exchange.rank() != exchange.ranks() - 1));
  EXPECT_FALSE(exchange.allAgree(false));
}

TEST(RankExchangeMpi, NodeLocalRankAndRuntime)
{
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // mpirun starts every rank of the test on this one node.
  EXPECT_EQ(swe::nodeLocalRank(MPI_COMM_WORLD), rank);
  {
    // MPI is initialised already (main): the runtime object uses it and leaves it initialised.
    swe::MpiRuntime runtime;
    EXPECT_TRUE(runtime.active());
    EXPECT_EQ(runtime.world(), MPI_COMM_WORLD);
  }
  int finalised = 1;
  MPI_Finalized(&finalised);
  EXPECT_FALSE(finalised);
}

// Prints the failures of the ranks other than 0 (whose output gtest's printer has), and aborts
// every rank at a fatal failure or an exception on any.
class RankFailures : public testing::EmptyTestEventListener
{
public:
  explicit RankFailures(int rank)
    : rank_(rank)
  {
  }
  void OnTestPartResult(const testing::TestPartResult& result) override
  {
    if (!result.failed())
      return;
    if (rank_ != 0)
      std::fprintf(stderr,
        "rank %d: %s:%d: Failure\n%s\n",
        rank_,
        result.file_name() ? result.file_name() : "?",
        result.line_number(),
        result.message());
    if (result.fatally_failed())
    {
      std::fprintf(stderr, "rank %d: fatal failure, aborting every rank\n", rank_);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }

private:
  int rank_;
};
} // namespace

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  testing::TestEventListeners& listeners = testing::UnitTest::GetInstance()->listeners();
  if (rank != 0)
    delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new RankFailures(rank));
  // Every rank fails if any did, and rank 0, whose output is the full report, says which.
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0, failedRanks = 0;
  MPI_Allreduce(&failed, &failedRanks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && failedRanks > 0)
    std::fprintf(stderr, "%d rank(s) had failures, reported above\n", failedRanks);
  MPI_Finalize();
  return failedRanks > 0 ? 1 : 0;
}
