#pragma once
// The one exception type the engine throws. Messages are written for the person running the
// simulation: they name the bad value and say what would be accepted.
#include <stdexcept>
#include <string>

namespace swe
{
class Error : public std::runtime_error
{
public:
  explicit Error(const std::string& message)
    : std::runtime_error(message)
  {
  }
};
} // namespace swe
