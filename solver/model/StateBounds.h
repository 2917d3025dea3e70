#pragma once
// The bounds within which a run's clock and state mean something: the times a run is asked to
// reach (end times, output intervals, requested times) and the states it starts from (initial
// states, restart frames) are checked against them before a step is taken. Outside them the
// device's clock stops short of its target (a run that never ends), or a state the equations
// cannot describe runs on to a blow-up far from its cause. StateBounds.cpp says why each bound
// is where it is.
#include "SimulationTypes.h"

#include <cmath>
#include <string>

namespace swe
{
// A positive simulated time below this [s] is refused: its steps would underflow.
constexpr double kMinPositiveTime = 1e-30;
// A simulated time above this [s] (31.7 years) is refused: no flood runs that long.
constexpr double kMaxSimulatedTime = 1e9;
// The fastest flow a state may hold [m/s], max(|u|, |v|) of a wet cell.
constexpr double kMaxFlowSpeed = 1000;

// Throws swe::Error unless t is 0 or in [kMinPositiveTime, kMaxSimulatedTime] (finite, >= 0);
// what names it ("end time", "EndTime", "the requested time").
void requireSimulatedTime(double t, const std::string& what);
// Throws swe::Error unless target is a time the clock reaches (requireSimulatedTime) at or after
// now (a simulation's advance to it).
void requireTargetAhead(double now, double target);
// Throws swe::Error for a clock at now that stopped short of target: its batch took no step (the
// time left rounds to nothing in the run's precision), and every next one would repeat it.
[[noreturn]] void refuseStoppedClock(double now, double target);
// Throws swe::Error unless span (an output interval) is finite and at least kMinPositiveTime:
// the first time it spaces must be one the clock reaches. (Any longer span is fine: the times a
// run reaches are bounded themselves.)
void requireTimeSpan(double span, const std::string& what);

// Whether a cell's flow is faster than kMaxFlowSpeed: a wet cell's (h > kDryDepth, where the
// kernels give it a velocity; dry cells have none to check). No division, as the kernels'
// speed_at_most.
inline bool flowTooFast(double h, double hu, double hv)
{
  return h > kDryDepth && std::fmax(std::fabs(hu), std::fabs(hv)) > kMaxFlowSpeed * h;
}
// Throws swe::Error for that cell's flow, naming `where` (a cell) and the bound.
[[noreturn]] void refuseFlowSpeed(double h, double hu, double hv, const std::string& where);

// A restart frame's clock, as its field data holds it: the time (requireSimulatedTime) and the
// step count (a whole number in [0, INT_MAX], the device's counter); what names the frame.
void requireRestartClock(double time, double steps, const std::string& what);
// A restart state's values (h, hu, hv of s, on the host): depths finite and >= 0, momenta
// finite, flows within kMaxFlowSpeed, and the wave speed its next dt is chosen from
// (Snapshot::waveSpeed) one such a state can have; the first that is not is named by frame
// (what), cell (i, j) and value. One pass over the fields, before the state is uploaded.
void requireRestartState(const Snapshot& s, const std::string& what);
} // namespace swe
