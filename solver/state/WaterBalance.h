#pragma once
// The water balance of a state (SimulationParameters::waterBalance; WaterBalance in
// SimulationTypes.h): the water on the grid, from its depths, against what came in and went out
// since t = 0, from the cumulative fields the device keeps (Field::Inflow, Field::Infiltration)
// and the rain's integral, all summed here in double precision.
#include "SimulationTypes.h"

namespace swe
{
// The rain [m of depth] that has fallen on a cell from t = 0 to t: the uniform rate's, or the rain
// series' exact integral (kernels/device/forcing.h), which the steps' rain adds up to; zone >= 0:
// that rain zone's series'.
double rainDepthUntil(const SimulationParameters& params, double t, int zone = -1);

// The balance of state (a run's with params, whose fields it holds: stateFields(params)), with
// `initial` m^3 on the grid at t = 0 and rain on `rained` cells (InitialState::rainedCells: closed
// cells get none, a rain factor scales a cell's; a count a rain zone; empty: every cell). Throws
// swe::Error where params keep no water balance.
WaterBalance waterBalanceOf(const StateView& state,
  const SimulationParameters& params,
  double initial,
  const RainedCells& rained = {});

// The initial volume that closes the balance at state: for the first state a run has (at t = 0,
// the water on the grid; in a run restarted from a saved state, what the balance had until then).
double closingInitialVolume(const StateView& state,
  const SimulationParameters& params,
  const RainedCells& rained = {});
} // namespace swe
