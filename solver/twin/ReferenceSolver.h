#pragma once
// The plain C++ twin of the OpenCL Lax-Friedrichs scheme: same layout (ghost layers, x fastest),
// same boundary filling, same dt rule, sequential loops. It is the oracle the tests compare the
// device against, and the one-core baseline of the benchmarks.
#include "HostFloodMaps.h"
#include "InitialState.h"
#include "Parameters.h"

#include <cstdint>
#include <limits>
#include <array>
#include <optional>
#include <vector>

namespace swe
{
template<class Real>
class ReferenceSolver
{
public:
  static constexpr int kGhost = 2;

  ReferenceSolver(const SimulationParameters& params, const InitialState& initial);

  // One step: fill ghosts, choose dt (fixed, or CFL from the current state) without passing
  // target, update. Returns the dt taken (0 when already at target).
  Real step(double target = std::numeric_limits<double>::infinity());
  // Two steps as a two-step launch takes them (Lax-Friedrichs, launch shapes ...s2): the second
  // with the CFL dt of the first state's wave speed times kPairSpeedMargin, unless a cell of the
  // state between them is faster than that (then, as when the first lands on target, one
  // step). Returns the steps taken (0, 1 or 2).
  int stepPair(double target = std::numeric_limits<double>::infinity());
  void advanceTo(double target);
  // n steps with no target, as Simulation::step(n) takes them (pairs, the last alone if n is odd,
  // once takeStepsInPairs(true)).
  void takeSteps(int n);
  // Whether advanceTo and takeSteps take pairs (stepPair), as the device does with a two-step
  // launch shape: with the adaptive dt the second steps' dts then differ.
  void takeStepsInPairs(bool pairs) { pairs_ = pairs; }

  double time() const { return time_; }
  std::int64_t steps() const { return steps_; }
  // MUSCL-Hancock steps taken again with the outflow cap (Simulation::redoneSteps).
  std::int64_t redoneSteps() const { return redone_; }
  double mass() const;
  // A flood map (Field::MaxDepth ... Field::Duration), cell after cell (x fastest), where
  // params.floodMaps: folded after every step as the device does.
  std::vector<Real> floodMap(Field field) const;
  // The cumulative Green-Ampt infiltration [m], cell after cell; empty without it.
  const std::vector<Real>& infiltration() const { return infiltrated_; }
  // The cumulative inflow [m] (Field::Inflow), cell after cell; empty without the water balance.
  const std::vector<Real>& inflow() const { return inflow_; }

  // Interior values.
  Real h(int i, int j) const { return h_[index(i, j)]; }
  Real hu(int i, int j) const { return hu_[index(i, j)]; }
  Real hv(int i, int j) const { return hv_[index(i, j)]; }

  // Largest max(|u| + c, |v| + c) over the interior's wet cells (h > the dry depth, 1e-6 m).
  Real maxWaveSpeed() const;
  // Whether every wet interior cell's max(|u|, |v|) + c is at most speed.
  bool speedsAtMost(Real speed) const;
  void fillGhosts();

private:
  std::size_t index(int i, int j) const
  {
    return static_cast<std::size_t>(j + kGhost) * pitch_ + static_cast<std::size_t>(i + kGhost);
  }

  SimulationParameters params_;
  // The dt rule: fixed, or the Courant number's from wave speed `speed` (split evenly over the
  // last two steps before a target `remaining` ahead); not yet clipped to the target.
  Real chooseDt(double remaining, Real speed) const;
  // One step of dt, clipped to land on target.
  Real stepWith(Real dt, double target);
  std::size_t pitch_;
  void stepLaxFriedrichs(Real dt);
  void stepMusclHllc(Real dt);
  // MUSCL-Hancock: every face solved once from face values half a step ahead; taken again with
  // the outflow cap if a depth went below zero without it, as the device does.
  void stepMusclHancock(Real dt);
  // What every cell of a step of dt shares, rounded as the kernels round it: dt, gravity, the
  // dry depth, the uniform Manning coefficient, the step's rain and loss rates, 1 / dx and
  // k = dt * (1 / dx).
  struct StepConstants
  {
    Real dt, g, hDry, manning, rain, loss, invDx, k;
  };
  StepConstants stepConstants(Real dt) const;
  // One pass of it into the *New vectors, with the outflow cap or without (k4 = 0); returns
  // whether a depth went below zero before finish_stage.
  bool musclHancockPass(Real dt, bool capped);
  // The pass's half-step faces of row j, cells -1 .. nx, into faces[-1 .. nx] (Faces:
  // TwinArithmetic.h's Muscl<Real>::Faces).
  template<class Faces>
  void hancockFacesOfRow(int j, Real halfK, const StepConstants& constants, Faces* faces) const;
  // The faces of a row and of the rows south and north of it.
  template<class Faces>
  struct FaceRows
  {
    const Faces *south, *here, *north;
  };
  // The pass's update of cell (i, j) from the faces of its rows, into the *New vectors; returns
  // whether its depth went below zero before finish_stage.
  template<class Faces>
  bool hancockCell(int i, int j, FaceRows<Faces> rows, Real k4, const StepConstants& constants);
  // u_, v_ from a state (ghosts included), once a stage: the second-order schemes' velocities.
  void computeVelocities(const std::vector<Real>& h,
    const std::vector<Real>& hu,
    const std::vector<Real>& hv);
  // The *New vectors become the state (the one-pass schemes' ping-pong).
  void takeNewState();
  // The point sources' water over the step of dt that has just been taken (as
  // kernels/state/sources.cl), and the Green-Ampt infiltration (kernels/state/infiltration.cl).
  void addSources(Real dt);
  void infiltrate(Real dt);
  // Adds depth to cell k's cumulative inflow, compensated in fp32 (kernels/device/compensated.h).
  void addInflow(std::size_t k, Real depth);
  // The water balance: the depth a step of dt from state (h, hu, hv) moves through the grid's
  // sides, times weight, into inflow_ (ReferenceBalance.cpp, as kernels/state/boundary_inflow.cl);
  // k4: MUSCL-Hancock's cap (0 for none), negative for MUSCL-HLLC.
  void foldBoundaryInflow(const std::vector<Real>& h,
    const std::vector<Real>& hu,
    const std::vector<Real>& hv,
    Real dt,
    Real weight,
    Real k4 = -1);
  // A side's value (discharge or level relative to the datum) at ghostTime_: its series', else
  // its constant.
  Real sideValue(int side) const;
  // The rain rate [m/s] of a step of dt from the present time: the uniform rate, or the rain
  // series' mean over the step (as choose_dt sets it on the device).
  Real rainOver(Real dt) const;
  // Each rain zone's series' mean over a step of dt from the present time into zoneRain_ (left
  // as it was where dt is 0, as on the device).
  void zoneRainOver(Real dt);
  // Each inflow side's discharge over a step of dt from the present time into stepDischarge_:
  // its constant, or its series' mean (as choose_dt's CTRL_SIDE_DISCHARGE).
  void sideDischargeOver(Real dt);
  // The mass flux imposed on face i - 1/2 of row j (along x) or j - 1/2 of column i (along y),
  // or NaN where the solved flux stands (kernels/state/boundary.cl, imposed_x_face).
  Real imposedFace(bool yAxis, int i, int j) const;
  // Every interior cell's state at the present time into maps, with the dt of the step that
  // brought it (0 at t = 0).
  void foldFloodMaps(HostFloodMaps<Real>& maps, Real dt) const;
  // One Heun stage: out = in + dt L(in) (then averaged with the state when final).
  void musclStage(const std::vector<Real>& h,
    const std::vector<Real>& hu,
    const std::vector<Real>& hv,
    std::vector<Real>& hOut,
    std::vector<Real>& huOut,
    std::vector<Real>& hvOut,
    Real dt,
    bool final);
  void fillGhosts(std::vector<Real>& h, std::vector<Real>& hu, std::vector<Real>& hv);

  Real manningAt(std::size_t c, Real uniform) const
  {
    return manning_.empty() ? uniform : manning_[c];
  }
  // The rain rate on cell c (as RAIN_AT, kernels/device/grid.h): the uniform rate, times the cell's
  // factor, or its zone's rate.
  Real rainAt(std::size_t c, Real rate) const
  {
    if (rain_.empty())
      return rate;
    return zoneRain_.empty() ? rate * rain_[c] : zoneRain_[static_cast<std::size_t>(rain_[c])];
  }

  std::vector<Real> h_, hu_, hv_, hNew_, huNew_, hvNew_, b_;
  std::vector<Real> u_, v_;   // second order: the velocities of the state being stepped
  std::vector<Real> manning_; // per cell, or empty for the uniform coefficient
  std::vector<Real> rain_;    // the rain's factor per cell, or empty
  double datum_ = 0;          // b_ and fixed levels are relative to it (LocalDatum.h)
  double speedFloor_ = 0;     // the wave speed dt never counts below (waveSpeedFloor)
  Real hFilm_ = 0;            // films below this depth have their velocity damped
  double time_ = 0.0;
  std::int64_t steps_ = 0;
  std::int64_t redone_ = 0;
  bool pairs_ = false;
  std::optional<HostFloodMaps<Real>> maps_;
  // A forcing series as the device's program constants hold it: in its precision, scaled.
  struct RealSeries
  {
    std::vector<Real> time, value;
    RealSeries() = default;
    RealSeries(const Series& series, double scale);
  };
  RealSeries rainSeries_;                // rates [m/s]; empty without a rain series
  std::array<RealSeries, 4> sideSeries_; // levels relative to the datum; empty: a constant
  std::vector<RealSeries> sourceSeries_; // each point source's [m^3/s]
  double ghostTime_ = 0;                 // the time the ghosts are filled at
  Real stepRain_ = 0;                    // the rain rate of the step being taken
  std::vector<RealSeries> zoneSeries_;   // each rain zone's rates [m/s]; empty without zones
  std::vector<Real> zoneRain_;           // each zone's rate over the step being taken
  std::array<Real, 4> stepDischarge_{};  // each side's discharge over the step being taken
  std::vector<Real> infiltrated_;        // Green-Ampt's cumulative infiltration, a cell each
  std::vector<Real> soilK_, soilP_;      // a soil map's K [m/s] and P [m], a cell each; or empty
  std::vector<Real> inflow_;             // the water balance's cumulative inflow, a cell each
  std::vector<Real> inflowLow_;          // its low parts (addInflow)
  // The wave speed of the last step's state before its sources and infiltration, which the
  // next step's dt comes from (as on the device); none: take the state's.
  std::optional<Real> speedBeforeAfterStep_;
};

extern template class ReferenceSolver<float>;
extern template class ReferenceSolver<double>;
} // namespace swe
