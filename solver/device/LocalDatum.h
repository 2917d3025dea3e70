#pragma once
// Elevations as the device holds them. A DEM sits tens to thousands of metres above its datum,
// where fp32 resolves only a few micrometres to a tenth of a millimetre of surface (2^-23 of the
// elevation), so a film of water thinner than that is noise in h = eta - b. The device therefore
// keeps every elevation (bed, fixed surface levels) relative to a local datum, the lowest bed
// cell rounded down to a whole metre, and damps the velocity of films within a few such
// resolutions of dry (Kurganov and
// Petrova's desingularisation, kernels/schemes/muscl_hllc.h finish_stage), so their noise cannot
// become a 100 m/s speed that shrinks every time step. Outputs add the datum back.
#include "InitialState.h"
#include "Parameters.h"
#include "RankExchange.h"

namespace swe
{
struct LocalDatum
{
  double datum = 0;     // subtracted from every elevation on the device [m]
  double filmDepth = 0; // depths below this have their velocity damped [m]; 0: none
  // The wave speed of the water a level side holds above the cells along it, sqrt(g H), H its
  // highest level above their initial surface (or bed, where dry) [m/s]: a still cell that deep
  // has it, as a dam break inside the grid counts its deep side; 0 where no level side stands
  // above them. Without it, a level beside dry land took its first step from the still interior:
  // one step across a whole output interval. (The floor holds for every step; it costs nothing
  // once the water beside the side is that deep.)
  double levelWaveSpeed = 0;
};

// LocalDatum::levelWaveSpeed of one block alone (no agreement over ranks).
double levelWaveSpeed(const SimulationParameters& params, const InitialState& block);

// The floor under the fastest wave speed dt is chosen from (kernels/schemes/device_clock.h): the
// waves inflow sides, point sources and rain send in (inflowWaveSpeed), and a level side's.
double waveSpeedFloor(const SimulationParameters& params, const LocalDatum& local);

// The datum and film depth of a run: the datum is the lowest bed elevation rounded down to a
// whole metre (for a bed below zero everywhere the highest rounded up; 0 where the bed crosses
// zero; a flat bed's own elevation, and then no film depth: with the bed at zero on the device
// there is no round-off in h = eta - b to damp); the film depth is
// 16 times the precision's resolution (its epsilon) of the highest surface or bed above the
// datum, where that is deeper than the dry depth (kDryDepth), else 0 (so fp64 runs, and fp32
// runs on low terrain with shallow water, are untouched); and the level sides' wave speed.
// In a run split among ranks (ranks given; initial is this rank's block), the whole grid's
// (collective).
LocalDatum localDatum(const SimulationParameters& params,
  const InitialState& initial,
  RankExchange* ranks = nullptr);
} // namespace swe
