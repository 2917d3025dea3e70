#include "MpiRankExchange.h"

#include "Error.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <chrono>
#include <functional>
#include <thread>

namespace swe
{
namespace
{
using Blocks = std::vector<std::vector<unsigned char>>;

[[noreturn]] void fail(int code, const std::string& operation)
{
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = std::snprintf(text, sizeof text, "MPI error code %d", code);
  throw Error(operation + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

void check(int code, const std::string& operation)
{
  if (code != MPI_SUCCESS)
    fail(code, operation);
}

// MPI counts are ints: a larger message would need a derived datatype, which no caller needs.
int byteCount(unsigned long long bytes, const char* operation)
{
  if (bytes > static_cast<unsigned long long>(INT_MAX))
    throw Error(std::string(operation) + " of " + std::to_string(bytes) +
                " bytes exceeds MPI's limit of " + std::to_string(INT_MAX) +
                " bytes per message; send the data in smaller parts");
  return static_cast<int>(bytes);
}

void checkRoot(int root, int ranks, const char* operation)
{
  if (root < 0 || root >= ranks)
    throw Error(std::string(operation) + " from root rank " + std::to_string(root) +
                ": the root must be a rank in [0, " + std::to_string(ranks - 1) + "]");
}

// The maximum under a total order (-0 below +0, every NaN above every number, NaNs by their bits):
// commutative and associative, so every rank gets the same bits whatever order MPI reduces in.
// MPI_MAX leaves -0 against +0, and NaN against a number, to the order of its operands.
bool below(double a, double b)
{
  const bool aNan = std::isnan(a), bNan = std::isnan(b);
  if (aNan || bNan)
  {
    if (!aNan || !bNan)
      return bNan;
    std::uint64_t aBits, bBits;
    std::memcpy(&aBits, &a, sizeof a);
    std::memcpy(&bBits, &b, sizeof b);
    return aBits < bBits;
  }
  if (a == b)
    return std::signbit(a) && !std::signbit(b);
  return a < b;
}

void totalOrderMax(void* in, void* inout, int* count, MPI_Datatype*)
{
  const double* a = static_cast<const double*>(in);
  double* b = static_cast<double*>(inout);
  for (int i = 0; i < *count; ++i)
    if (below(b[i], a[i]))
      b[i] = a[i];
}

// How long a rank waits for the others in one exchange or reduction before it gives up: a rank
// that stopped on an error of its own must not leave the others waiting for ever (a step's
// exchange takes microseconds to seconds; SWE_MPI_WAIT_SECONDS overrides it, for tests).
double peerWaitSeconds()
{
  const char* text = std::getenv("SWE_MPI_WAIT_SECONDS");
  const double seconds = text ? std::atof(text) : 0.0;
  return seconds > 0 ? seconds : 600.0;
}

// Tests the requests until all are done, or throws once peerWaitSeconds() have passed: spinning
// for the first milliseconds (a step's exchange), then sleeping between tests. Returns
// MPI_Testall's code once done.
int waitAll(std::vector<MPI_Request>& requests,
  std::vector<MPI_Status>& statuses,
  const std::string& operation,
  const std::function<void()>& onTimeout)
{
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const double limit = peerWaitSeconds();
  for (;;)
  {
    int done = 0;
    const int code =
      MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, statuses.data());
    if (code != MPI_SUCCESS || done)
      return code;
    const double waited = std::chrono::duration<double>(Clock::now() - start).count();
    if (waited > limit)
    {
      onTimeout();
      throw Error(operation + ": the other ranks did not answer within " +
                  std::to_string(static_cast<int>(limit)) +
                  " s; one of them stopped (its own error says why), or its device is far slower");
    }
    if (waited > 0.01)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void allReduce(MPI_Comm comm, double* values, int count, MPI_Op op, const char* operation)
{
  if (count < 0)
    throw Error(
      std::string(operation) + " of " + std::to_string(count) + " values: the count must be >= 0");
  // Into memory of its own, which a reduction given up on may still write into (it is then
  // left to it: a collective cannot be cancelled).
  auto* buffer = new std::vector<double>(values, values + count);
  std::vector<MPI_Request> request(1, MPI_REQUEST_NULL);
  std::vector<MPI_Status> status(1);
  const int code =
    MPI_Iallreduce(MPI_IN_PLACE, buffer->data(), count, MPI_DOUBLE, op, comm, &request[0]);
  if (code != MPI_SUCCESS)
  {
    delete buffer;
    fail(code, operation);
  }
  const int waited = waitAll(request, status, operation, [] {});
  std::copy(buffer->begin(), buffer->end(), values);
  delete buffer;
  check(waited, operation);
}

// Every rank's bytes at root, or on every rank when root is -1. The sizes go to every rank
// either way, so that a total past MPI's int counts fails on every rank, not on root alone
// while the others wait in MPI_Gatherv.
Blocks collect(MPI_Comm comm,
  int rank,
  int ranks,
  const std::vector<unsigned char>& bytes,
  int root)
{
  const char* operation = root < 0 ? "MPI_Allgatherv" : "MPI_Gatherv";
  unsigned long long size = bytes.size();
  std::vector<unsigned long long> sizes(static_cast<std::size_t>(ranks));
  check(
    MPI_Allgather(&size, 1, MPI_UNSIGNED_LONG_LONG, sizes.data(), 1, MPI_UNSIGNED_LONG_LONG, comm),
    std::string("MPI_Allgather of the sizes for ") + operation);
  unsigned long long total = 0;
  for (unsigned long long s : sizes)
    total += s;
  byteCount(total, operation);

  std::vector<int> counts, offsets;
  int offset = 0;
  for (unsigned long long s : sizes)
  {
    counts.push_back(static_cast<int>(s));
    offsets.push_back(offset);
    offset += static_cast<int>(s);
  }
  const bool receives = root < 0 || rank == root;
  std::vector<unsigned char> all(receives ? static_cast<std::size_t>(total) : 0);
  const int count = static_cast<int>(size);
  if (root < 0)
    check(
      MPI_Allgatherv(
        bytes.data(), count, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, comm),
      operation);
  else
    check(MPI_Gatherv(bytes.data(),
            count,
            MPI_BYTE,
            all.data(),
            counts.data(),
            offsets.data(),
            MPI_BYTE,
            root,
            comm),
      operation);

  Blocks blocks;
  if (receives)
    for (int r = 0; r < ranks; ++r)
      blocks.emplace_back(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  return blocks;
}

std::string describe(const RankExchange::Message& message, bool send)
{
  return std::string(send ? "MPI_Isend of " : "MPI_Irecv of ") + std::to_string(message.bytes) +
         (send ? " bytes to rank " : " bytes from rank ") + std::to_string(message.peer) +
         " (tag " + std::to_string(message.tag) + ")";
}

// A peer of -1 or a negative tag would be MPI_ANY_SOURCE or MPI_ANY_TAG to MPI_Irecv: refused,
// as is a message MPI cannot count, before anything is posted.
void validate(const RankExchange::Message& message, bool send, int ranks)
{
  if (message.bytes == 0)
    return;
  if (message.peer < 0 || message.peer >= ranks)
    throw Error(describe(message, send) + ": the peer must be a rank in [0, " +
                std::to_string(ranks - 1) + "]");
  if (message.tag < 0)
    throw Error(describe(message, send) + ": the tag must be >= 0");
  if (!message.data)
    throw Error(describe(message, send) + ": the data pointer is null");
  byteCount(message.bytes, send ? "MPI_Isend" : "MPI_Irecv");
}

// After a failure, the requests still pending are cancelled and completed, so that none writes
// into, or reads from, the caller's buffers after exchange() has thrown.
void abandon(std::vector<MPI_Request>& requests)
{
  for (MPI_Request& request : requests)
    if (request != MPI_REQUEST_NULL)
    {
      MPI_Cancel(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
}

bool startedByLauncher()
{
  for (const char* name : { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS" })
    if (std::getenv(name))
      return true;
  return false;
}

bool mpiFinalised()
{
  int finalised = 0;
  return MPI_Finalized(&finalised) == MPI_SUCCESS && finalised;
}
} // namespace

MpiRankExchange::MpiRankExchange(MPI_Comm comm)
{
  int initialised = 0;
  check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (!initialised || mpiFinalised())
    throw Error("MpiRankExchange needs MPI initialised (MPI_Init, or MpiRuntime under mpirun), "
                "and not yet finalised");
  if (comm == MPI_COMM_NULL)
    throw Error("MpiRankExchange needs a communicator, got MPI_COMM_NULL");
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  try
  {
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &ranks_), "MPI_Comm_size");
    check(MPI_Op_create(&totalOrderMax, 1, &max_), "MPI_Op_create");
  }
  catch (...)
  {
    MPI_Comm_free(&comm_);
    throw;
  }
}

MpiRankExchange::~MpiRankExchange()
{
  // After MPI_Finalize nothing may be freed (and nothing needs to be).
  if (mpiFinalised())
    return;
  if (max_ != MPI_OP_NULL)
    MPI_Op_free(&max_);
  if (comm_ != MPI_COMM_NULL)
    MPI_Comm_free(&comm_);
}

void MpiRankExchange::exchange(const std::vector<Message>& sends,
  const std::vector<Message>& receives)
{
  for (const Message& message : receives)
    validate(message, false, ranks_);
  for (const Message& message : sends)
    validate(message, true, ranks_);

  // Receives first, so that the peers' messages land in posted buffers, not in MPI's queue of
  // unexpected messages.
  std::vector<MPI_Request> requests;
  std::vector<std::pair<const Message*, bool>> posted;
  const auto post = [&](const Message& message, bool send)
  {
    if (message.bytes == 0)
      return;
    requests.push_back(MPI_REQUEST_NULL);
    const int count = static_cast<int>(message.bytes);
    const int code =
      send ? MPI_Isend(
               message.data, count, MPI_BYTE, message.peer, message.tag, comm_, &requests.back())
           : MPI_Irecv(
               message.data, count, MPI_BYTE, message.peer, message.tag, comm_, &requests.back());
    if (code != MPI_SUCCESS)
    {
      requests.pop_back();
      abandon(requests);
      fail(code, describe(message, send));
    }
    posted.emplace_back(&message, send);
  };
  for (const Message& message : receives)
    post(message, false);
  for (const Message& message : sends)
    post(message, true);

  std::vector<MPI_Status> statuses(requests.size());
  // Given up on: the receives are cancelled (nothing then writes into the caller's buffers), the
  // sends let go (a peer that never receives never reads them).
  const auto giveUp = [&]
  {
    for (std::size_t i = 0; i < requests.size(); ++i)
      if (requests[i] != MPI_REQUEST_NULL)
      {
        if (posted[i].second)
          MPI_Request_free(&requests[i]);
        else
        {
          MPI_Cancel(&requests[i]);
          MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
        }
      }
  };
  const int code =
    waitAll(requests, statuses, "the halo exchange of rank " + std::to_string(rank_), giveUp);
  if (code == MPI_SUCCESS)
    return;
  // MPI_ERR_IN_STATUS: the first message that failed (the others may just be pending).
  std::string what = "MPI_Testall";
  int reason = code;
  if (code == MPI_ERR_IN_STATUS)
    for (std::size_t i = 0; i < statuses.size(); ++i)
    {
      const int error = statuses[i].MPI_ERROR;
      if (error != MPI_SUCCESS && error != MPI_ERR_PENDING)
      {
        what += " for the " + describe(*posted[i].first, posted[i].second);
        reason = error;
        break;
      }
    }
  abandon(requests);
  fail(reason, what);
}

void MpiRankExchange::maxOverRanks(double* values, int count)
{
  allReduce(comm_, values, count, max_, "MPI_Allreduce (maximum over the ranks)");
}

void MpiRankExchange::sumOverRanks(double* values, int count)
{
  allReduce(comm_, values, count, MPI_SUM, "MPI_Allreduce (sum over the ranks)");
}

Blocks MpiRankExchange::gather(const std::vector<unsigned char>& bytes, int root)
{
  checkRoot(root, ranks_, "MPI_Gatherv");
  return collect(comm_, rank_, ranks_, bytes, root);
}

Blocks MpiRankExchange::allGather(const std::vector<unsigned char>& bytes)
{
  return collect(comm_, rank_, ranks_, bytes, -1);
}

void MpiRankExchange::broadcast(std::string& text, int root)
{
  checkRoot(root, ranks_, "MPI_Bcast");
  unsigned long long size = text.size();
  check(MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, root, comm_), "MPI_Bcast of the text's size");
  // Every rank has root's size now, so a text too long fails on every rank alike.
  const int count = byteCount(size, "MPI_Bcast");
  text.resize(static_cast<std::size_t>(size));
  if (count > 0)
    check(MPI_Bcast(text.data(), count, MPI_BYTE, root, comm_), "MPI_Bcast of the text");
}

int nodeLocalRank(MPI_Comm comm)
{
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
    "MPI_Comm_split_type (the ranks sharing this node)");
  int rank = 0;
  const int code = MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  check(code, "MPI_Comm_rank of the node's communicator");
  return rank;
}

MpiRuntime::MpiRuntime(int* argc, char*** argv)
{
  int initialised = 0;
  check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (initialised)
  {
    active_ = !mpiFinalised();
    return;
  }
  if (!startedByLauncher())
    return;
  // Funneled: only the main thread calls MPI; the OpenCL runtime's threads never do.
  int provided = MPI_THREAD_SINGLE;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  initialised_ = active_ = true;
}

MpiRuntime::~MpiRuntime()
{
  if (initialised_ && !mpiFinalised())
    MPI_Finalize();
}
} // namespace swe
