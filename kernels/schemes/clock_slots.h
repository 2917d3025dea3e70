/* The slots of the device clock's two buffers, one definition for the kernels (OpenCL C: this
 * file is embedded ahead of the others) and the host (C++: solver/schemes/DeviceClock.cpp and
 * solver/state/FloodMaps.cpp include it, in namespace swe). ctrl holds reals of the device
 * precision, status 32-bit integers; the host writes them when a state is loaded, sets the target
 * and the step limit, and reads them once per batch of launches. */
#ifndef SWE_CLOCK_SLOTS_H
#define SWE_CLOCK_SLOTS_H

#ifdef __cplusplus
namespace swe
{
#endif

/* The control buffer: the clock on the device (no per-step host read). */
enum ClockSlot
{
  CTRL_TIME = 0,      /* simulated time t */
  CTRL_TIME_COMP = 1, /* Kahan compensation of t, so fp32 clocks do not drift */
  CTRL_DT = 2,        /* dt of the step being taken (0: the step is a no-op) */
  CTRL_TARGET = 3,    /* time the host asked to reach; steps never pass it */
  CTRL_LAST_DT = 4,   /* the last step's dt before landing cuts: the host's step estimate */
  CTRL_LANDING = 5,   /* 1 when ctrl[CTRL_DT] lands the clock exactly on the target */
  CTRL_MAX_SPEED = 6, /* the largest wave speed that ctrl[CTRL_DT] was chosen from */
  CTRL_CUT_DT = 7,    /* a two-step launch with this first dt was refused: take one step */
  CTRL_TOO_FAST = 8,  /* the wave speed that took a fixed dt past the Courant limit */
  CTRL_RAIN = 9,      /* a rain series' rate [m/s] over the step being taken (RAIN_SERIES) */
  /* The flood maps' fold of a step's input (kernels/state/flood_maps.h), kept by compute_dt before
   * it commits the step: the input's time and the dt of the step that made it; and the dt of the
   * newest state's step (0 for a state at t = 0, a loaded one, or one the maps hold already). */
  CTRL_FOLD_TIME = 10,
  CTRL_FOLD_DT = 11,
  CTRL_STATE_DT = 12,
  /* An inflow side's discharge series' mean [m^2/s] over the step being taken, one slot a side
   * (west, east, south, north), set by choose_dt (IMPOSED_SIDES: kernels/state/boundary.cl). */
  CTRL_SIDE_DISCHARGE = 13,
  CTRL_SIZE = 17,
  /* Rain zones (RAIN_ZONES): zone z's rate [m/s] over the step at CTRL_ZONE_RAIN + z, set by
   * choose_dt; the buffer holds CTRL_SIZE + RAIN_ZONE_SLOTS reals. */
  CTRL_ZONE_RAIN = CTRL_SIZE,
  RAIN_ZONE_SLOTS = 32
};

/* The integer status buffer. */
enum StatusSlot
{
  STATUS_STEPS = 0,    /* steps taken since t = 0 */
  STATUS_BAD_CELL = 1, /* smallest linear interior index of a non-physical cell, INT_MAX if none */
  STATUS_BAD_STEP = 2, /* step at which it was seen, -1 if none */
  STATUS_GROUPS_DONE = 3, /* groups of the running step kernel that have finished */
  STATUS_BAD_MID = 4,     /* as STATUS_BAD_CELL, for the state between a two-step kernel's steps */
  STATUS_PARITY = 5,      /* two-step kernels: which copy holds the state (they flip it) */
  STATUS_STEP_LIMIT = 6,  /* steps are no-ops once STATUS_STEPS reaches it (INT_MAX: none) */
  STATUS_REFUSED = 7,     /* two-step launches refused (adaptive dt) */
  STATUS_MID_FAST = 8,    /* 1: the state between a launch's two steps outran the prediction */
  STATUS_REDO = 9,        /* MUSCL-Hancock: 1 while the running step is to be taken again, capped */
  STATUS_REDONE = 10,     /* MUSCL-Hancock steps taken again with the outflow cap */
  STATUS_TOO_FAST = 11,   /* steps taken when a fixed dt met the Courant limit; -1: never */
  STATUS_SIZE = 12
};

#ifdef __cplusplus
} // namespace swe
#endif

#endif
