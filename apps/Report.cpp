#include "Report.h"

#include <cstdio>

namespace swe::cli
{
void printSetup(double state,
  const SetupSeconds& setup,
  const NamedSeconds& more,
  const std::string& steps,
  double stepSeconds,
  const std::string& run)
{
  NamedSeconds parts{ { "state", state },
    { "device", setup.device },
    { "launch", setup.launch },
    { "checks", setup.checks },
    { "build", setup.build },
    { "upload", setup.upload } };
  parts.insert(parts.end(), more.begin(), more.end());
  double total = 0;
  std::string text;
  for (const auto& part : parts)
  {
    total += part.second;
    char item[64];
    std::snprintf(
      item, sizeof(item), "%s%s %.3f", text.empty() ? "" : ", ", part.first, part.second);
    text += item;
  }
  std::printf("SETUP total %.3f s: %s; %s %.3f s: the fixed cost is %.1f %% of %s\n",
    total,
    text.c_str(),
    steps.c_str(),
    stepSeconds,
    100 * total / (total + stepSeconds),
    run.c_str());
}
} // namespace swe::cli
