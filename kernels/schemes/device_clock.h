/* The device clock: dt chosen from the largest wave speed (or fixed), landed on the host's target,
 * committed by Kahan summation; two steps a launch; the fused clock of the Lax-Friedrichs step
 * kernels. The slots of its buffers: clock_slots.h. */
#ifndef SWE_DEVICE_CLOCK_H
#define SWE_DEVICE_CLOCK_H

#ifndef IMPOSED_SERIES /* inflow sides whose discharge is a series (kernels/state/boundary.cl) */
#define IMPOSED_SERIES 0
#endif
#ifndef INFLOW_WAVE_SPEED
#define INFLOW_WAVE_SPEED 0
#endif

/* The clock (seed 001): dt is chosen for a step, then the step is committed to the clock after it
 * ran. compute_dt does both before a step (MUSCL-HLLC), or only the choice (Lax-Friedrichs, whose
 * step kernel commits and chooses the next dt itself in its last work-group: no launch between
 * steps). Once the target is reached, or a non-physical cell was reported, dt is 0, which makes
 * the launches the host queued beyond it harmless no-ops. fixed_dt > 0 is the fixed-step mode;
 * otherwise dt = cfl * dx / max wave speed. */

/* The dt the largest wave speed m allows (or the fixed dt), before any cut to land on the
 * target; 0 when nothing moves. */
inline real uncut_dt(real m, real cfl_dx, real fixed_dt)
{
  if (fixed_dt > (real)0)
    return fixed_dt;
  /* (never slower than the waves an inflow side sends in: Parameters.h, inflowWaveSpeed) */
  m = fmax(m, (real)INFLOW_WAVE_SPEED);
  return m > (real)0 ? cfl_dx / m : (real)0;
}

/* The dt of a step with `remaining` time left before the target (> 0), from the largest wave
 * speed m; *landing: the step lands exactly on the target. */
inline real dt_for(real remaining, real m, real cfl_dx, real fixed_dt, bool* landing)
{
  real dt = uncut_dt(m, cfl_dx, fixed_dt);
  if (!(fixed_dt > (real)0))
  {
    if (!(dt > (real)0))
      dt = remaining;
    /* Split the last two steps evenly rather than leave a sliver of a step. */
    if (remaining < (real)2 * dt && remaining > dt)
      dt = (real)0.5 * remaining;
  }
  *landing = dt >= remaining;
  return *landing ? remaining : dt;
}

/* Adds dt to the clock (t, comp) by Kahan summation, so fp32 clocks do not drift. */
inline void clock_add(real* t, real* comp, real dt)
{
  const real y = dt - *comp;
  const real sum = *t + y;
  *comp = (sum - *t) - y;
  *t = sum;
}

#if defined(RAIN_SERIES) || IMPOSED_SERIES || defined(RAIN_ZONES)
#define STEP_FORCING 1
/* The forcing series' mean values over a step of dt from the state's time, into the control
 * buffer: the rain's (the twin: ReferenceSolver::rainOver), each inflow side's hydrograph's
 * (kernels/state/boundary.cl, imposed_x_face; the twin: ReferenceSolver::sideDischargeOver) and
 * each rain zone's (the twin: ReferenceSolver::zoneRainOver). */
inline void set_step_forcing(__global real* ctrl, real dt)
{
  const real t = ctrl[CTRL_TIME] - ctrl[CTRL_TIME_COMP];
#ifdef RAIN_SERIES
  ctrl[CTRL_RAIN] = series_mean(RAIN_SERIES_T, RAIN_SERIES_V, RAIN_SERIES_N, t, t + dt);
#endif
#if IMPOSED_SERIES & 1
  ctrl[CTRL_SIDE_DISCHARGE] = series_mean(BCS_WEST_T, BCS_WEST_V, BCS_WEST_N, t, t + dt);
#endif
#if IMPOSED_SERIES & 2
  ctrl[CTRL_SIDE_DISCHARGE + 1] = series_mean(BCS_EAST_T, BCS_EAST_V, BCS_EAST_N, t, t + dt);
#endif
#if IMPOSED_SERIES & 4
  ctrl[CTRL_SIDE_DISCHARGE + 2] = series_mean(BCS_SOUTH_T, BCS_SOUTH_V, BCS_SOUTH_N, t, t + dt);
#endif
#if IMPOSED_SERIES & 8
  ctrl[CTRL_SIDE_DISCHARGE + 3] = series_mean(BCS_NORTH_T, BCS_NORTH_V, BCS_NORTH_N, t, t + dt);
#endif
#ifdef RAIN_ZONES
  for (int z = 0; z < RAIN_ZONES; ++z)
    ctrl[CTRL_ZONE_RAIN + z] = series_mean(RAIN_ZONES_T + RAIN_ZONE_FIRST[z],
      RAIN_ZONES_V + RAIN_ZONE_FIRST[z],
      RAIN_ZONE_POINTS[z],
      t,
      t + dt);
#endif
}
#else
#define STEP_FORCING 0
#endif

/* bad_cell: status[STATUS_BAD_CELL] as the caller read it. held: dt is held over an exchange
 * interval (solver/Parameters.h, exchangeInterval), chosen from the speed the last dt was (the
 * interval's first); m, the state's own, must then keep within the Courant limit, as with a
 * fixed dt. */
inline void choose_dt(__global real* ctrl,
  __global int* status,
  int bad_cell,
  real m,
  real cfl_dx,
  real fixed_dt,
  bool held)
{
  real dt = (real)0;
  bool landing = false;
  const real m_dt = held ? ctrl[CTRL_MAX_SPEED] : m;
  if (bad_cell != INT_MAX)
  {
    if (status[STATUS_BAD_STEP] < 0)
      status[STATUS_BAD_STEP] = status[STATUS_STEPS];
  }
  else if (status[STATUS_TOO_FAST] >= 0)
  {
    /* stopped before a step a fixed dt would have taken past the Courant limit */
  }
  else if ((fixed_dt > (real)0 || held) &&
           uncut_dt(m_dt, cfl_dx, fixed_dt) * m > (real)COURANT_LIMIT_DX)
  {
    /* A fixed dt beyond the scheme's Courant limit: the run stops before the step, and the host
     * names it (a capped or clamped scheme would otherwise run on to nonsense speeds). */
    status[STATUS_TOO_FAST] = status[STATUS_STEPS];
    ctrl[CTRL_TOO_FAST] = m;
  }
  else
  {
    const real remaining = ctrl[CTRL_TARGET] - (ctrl[CTRL_TIME] - ctrl[CTRL_TIME_COMP]);
    /* Not the cut dt: after a landing the host would size the next batch by a sliver (the
     * surplus launches are no-ops, but second-order ones still cost a pass each). */
    const real uncut = uncut_dt(m_dt, cfl_dx, fixed_dt);
    /* Where nothing moves a step goes to the target; with none (DeviceClock::unboundedTarget,
     * Simulation::step) it would span the whole range of the reals, so none is taken. */
    const bool boundless = !(uncut > (real)0) && ctrl[CTRL_TARGET] >= REAL_MAX;
    if (remaining > (real)0 && status[STATUS_STEPS] < status[STATUS_STEP_LIMIT] && !boundless)
    {
      dt = dt_for(remaining, m_dt, cfl_dx, fixed_dt, &landing);
      if (uncut > (real)0)
        ctrl[CTRL_LAST_DT] = uncut;
    }
  }
  ctrl[CTRL_DT] = dt;
  ctrl[CTRL_LANDING] = landing ? (real)1 : (real)0;
  ctrl[CTRL_MAX_SPEED] = m_dt;
#if STEP_FORCING
  if (dt > (real)0)
    set_step_forcing(ctrl, dt);
#endif
}

/* Before a step is committed: the time of the state it reads and the dt of the step that made
 * it, for the flood maps' fold of that state in the step (flood_maps.h). */
inline void keep_fold_clock(__global real* ctrl)
{
  if (!(ctrl[CTRL_DT] > (real)0))
    return;
  ctrl[CTRL_FOLD_TIME] = ctrl[CTRL_TIME];
  ctrl[CTRL_FOLD_DT] = ctrl[CTRL_STATE_DT];
  ctrl[CTRL_STATE_DT] = ctrl[CTRL_DT];
}

/* Adds the step just taken (ctrl[CTRL_DT]) to the clock: exactly onto the target when it lands
 * there, else by Kahan summation. */
inline void commit_dt(__global real* ctrl, __global int* status)
{
  const real dt = ctrl[CTRL_DT];
  if (!(dt > (real)0))
    return;
  if (ctrl[CTRL_LANDING] != (real)0)
  {
    ctrl[CTRL_TIME] = ctrl[CTRL_TARGET];
    ctrl[CTRL_TIME_COMP] = (real)0;
  }
  else
  {
    real t = ctrl[CTRL_TIME], comp = ctrl[CTRL_TIME_COMP];
    clock_add(&t, &comp, dt);
    ctrl[CTRL_TIME_COMP] = comp;
    ctrl[CTRL_TIME] = t;
  }
  status[STATUS_STEPS] += 1;
}

/* Two steps a launch (temporal blocking). A group cannot know the global wave-speed maximum of
 * the state between the two steps, so the second step's dt is chosen before the launch, from the
 * first state's maximum times PAIR_SPEED_MARGIN (1 + a little). Every cell of the state between
 * the steps is checked against that predicted speed (speed_at_most: no division, no square
 * root); if one is faster, the last group refuses the launch (nothing committed, the copies not
 * flipped) and the next launch takes only the first step. So a second step is never taken with
 * a Courant number above the one asked for. With a fixed dt both steps take it, and the state
 * between them is checked against the Courant limit instead. */
inline real pair_predicted_speed(__global const real* ctrl, real fixed_dt)
{
  /* A fixed dt: the fastest wave it may meet without passing the Courant limit, so that a state
   * between the steps beyond it is caught as any other (choose_dt). */
  if (fixed_dt > (real)0)
    return (real)COURANT_LIMIT_DX / fixed_dt;
  /* (never below the inflow's waves, which dt_for counts on anyway: no refusal for cells the
   * second dt suits) */
  return fmax(ctrl[CTRL_MAX_SPEED] * (real)PAIR_SPEED_MARGIN, (real)INFLOW_WAVE_SPEED);
}

/* Whether max(|u|, |v|) + sqrt(g h) <= s for a cell with h > 0, without dividing by h or taking
 * a root: q + h sqrt(g h) <= s h with q = max(|hu|, |hv|), i.e. r = s h - q >= 0 and
 * g h^3 <= r^2, tested at once as g h^3 <= r |r| (negative where r is; g h^3 > 0 for a wet
 * cell), and with | for ||: no branch (see PERFORMANCE.md, 'Decisions that stand'). A
 * dry cell (h <= H_DRY) passes: the wave-speed maximum counts it as still. s = INFINITY passes
 * every wet cell.
 * (ReferenceSolver::speedsAtMost does the same operations.) */
inline bool speed_at_most(real h, real hu, real hv, real s)
{
  const real r = s * h - fmax(fabs(hu), fabs(hv));
  return (h <= (real)H_DRY) | ((real)GRAVITY * h * h * h <= r * fabs(r));
}

/* The time left before the target once the pending step is committed (0 when it lands): the
 * operations commit_dt and choose_dt do, so the same bits. */
inline real remaining_after_pending(__global const real* ctrl)
{
  if (ctrl[CTRL_LANDING] != (real)0)
    return (real)0;
  real t = ctrl[CTRL_TIME], comp = ctrl[CTRL_TIME_COMP];
  clock_add(&t, &comp, ctrl[CTRL_DT]);
  return ctrl[CTRL_TARGET] - (t - comp);
}

/* The dt of the step after the pending one in the same launch, and whether it lands on the
 * target: 0 when the pending one is a no-op or lands on the target, when the step limit comes
 * first, or when a launch with this first dt was refused. */
inline real pair_second_dt(__global const real* ctrl,
  __global const int* status,
  real cfl_dx,
  real fixed_dt,
  bool* landing)
{
  *landing = false;
  if (!(ctrl[CTRL_DT] > (real)0) || status[STATUS_STEPS] + 1 >= status[STATUS_STEP_LIMIT] ||
      ctrl[CTRL_CUT_DT] == ctrl[CTRL_DT])
    return (real)0;
  const real remaining = remaining_after_pending(ctrl);
  return remaining > (real)0
           ? dt_for(remaining, pair_predicted_speed(ctrl, fixed_dt), cfl_dx, fixed_dt, landing)
           : (real)0;
}

/* The clock kept by the Lax-Friedrichs step kernels themselves (FUSED_CLOCK). */
#if FUSED_CLOCK

/* The end of a Lax-Friedrichs update kernel that took `steps` steps (1, or 2 with the second of
 * dt2, 0 when it took one): the last group to finish commits them and chooses the next dt, so
 * the clock and the status end as after that many one-step kernels with those dts. Two: it
 * refuses the launch instead when a cell between the steps outran the prediction (see
 * pair_predicted_speed), and flips the copies when it commits; a blow-up between the steps is
 * the one reported (cell and step), as it would have stopped the run there, and the second step
 * then counts for nothing. */
inline void finish_steps_if_last(__global real* partial_max,
  __global real* ctrl,
  __global int* status,
  real cfl_dx,
  real fixed_dt,
  int num_groups,
  int steps,
  real dt2,
  bool landing2)
{
  if (!last_group_to_finish(status, num_groups))
    return;
  const real m = TAKE_MAX_SPEED(partial_max);
  if (steps == 2)
  {
    const int bad_mid = atomic_min(&status[STATUS_BAD_MID], INT_MAX);
    const bool fast = atomic_xchg(&status[STATUS_MID_FAST], 0) != 0;
    if (fast && bad_mid == INT_MAX && dt2 > (real)0)
    {
      /* Refused: the final state's reports are void; the next launch takes one step. */
      atomic_xchg(&status[STATUS_BAD_CELL], INT_MAX);
      ctrl[CTRL_CUT_DT] = ctrl[CTRL_DT];
      status[STATUS_REFUSED] += 1;
      return;
    }
    commit_dt(ctrl, status); /* the first step */
    ctrl[CTRL_CUT_DT] = (real)0;
    status[STATUS_PARITY] ^= 1;
    if (bad_mid != INT_MAX)
    {
      atomic_xchg(&status[STATUS_BAD_CELL], bad_mid);
      choose_dt(ctrl, status, bad_mid, m, cfl_dx, fixed_dt, false); /* dt 0, the bad step */
      return;
    }
    /* The second step, committed below as a single one is (dt 0: none). */
    ctrl[CTRL_DT] = dt2;
    ctrl[CTRL_LANDING] = landing2 ? (real)1 : (real)0;
  }
  commit_dt(ctrl, status);
  choose_dt(
    ctrl, status, atomic_min(&status[STATUS_BAD_CELL], INT_MAX), m, cfl_dx, fixed_dt, false);
}
#endif

#endif
