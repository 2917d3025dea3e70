#include "RankExchange.h"

#include "Error.h"

namespace swe
{
void RankExchange::agreeOnError(const std::optional<std::string>& localError)
{
  // The lowest failing rank as the largest of ranks() - rank.
  double failing = localError ? static_cast<double>(ranks() - rank()) : 0.0;
  maxOverRanks(&failing, 1);
  if (failing == 0.0)
    return;
  const int root = ranks() - static_cast<int>(failing);
  std::string message = localError ? *localError : std::string();
  broadcast(message, root);
  throw Error(ranks() > 1 ? "rank " + std::to_string(root) + ": " + message : message);
}

bool RankExchange::allAgree(bool yes)
{
  double no = yes ? 0.0 : 1.0;
  maxOverRanks(&no, 1);
  return no == 0.0;
}
} // namespace swe
