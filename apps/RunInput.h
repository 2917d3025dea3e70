#pragma once
// The grid and the initial state of swe run: from a .vti image (--input, with VTK), or the
// scenario on the --nx/--ny/--dx grid.
#include "CommonOptions.h"
#include "InitialState.h"

#include <array>
#include <string>

namespace swe::cli
{
struct InputOptions
{
  std::string file; // .vti with the terrain; empty: a scenario
  std::string bed = "Bed", depth, surface, velocity, manning;
  double waterLevel = 0;
  std::array<double, 3> origin{ 0, 0, 0 }; // set from --input: where the image's cells start
};

// The initial state; from --input, also the grid, into params (checked) and input.origin.
InitialState initialState(const CommonOptions& options,
  InputOptions& input,
  SimulationParameters& params);
} // namespace swe::cli
