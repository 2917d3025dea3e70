#pragma once
// The run's scalar parameters, each declared once: its name in messages, the proxies' property,
// swe's option, its key in the run settings, unit, default, the range a run takes and the words
// that explain it. Validation, the run settings, the filters' properties and swe's options are
// read off this table (ARCHITECTURE.md, "How to add a parameter").
#include "Parameters.h"

#include <array>
#include <cstddef>
#include <limits>
#include <string>

namespace swe
{
enum class ScalarId
{
  Gravity,
  Manning,
  Rainfall,
  LossRate,
  Conductivity,
  Suction,
  Deficit,
  ArrivalDepth,
  GaugeInterval,
  CourantNumber,
  FixedTimeStep,
  ExchangeInterval,
  Count
};
constexpr std::size_t kScalarCount = static_cast<std::size_t>(ScalarId::Count);

struct ScalarParameter
{
  ScalarId id;
  const char* name;     // in messages: "Manning coefficient"
  const char* property; // the source's and solver's property: "ManningCoefficient"
  const char* flag;     // swe run's option ("--manning"); "" where a combined option sets it
  // Its key in a frame's RunSettings ("Manning"), which a restart compares; "" where written
  // with others (Green-Ampt's). Frames on disk hold these names: keep them.
  const char* setting;
  const char* unit;    // "s/m^(1/3)"; "" for a number without unit
  double defaultValue; // the engine's and the properties' (the solver's Manning: 0.03)
  double least, most;  // the range a run takes; most = infinity: no upper bound
  bool zeroIsOff;      // 0 is taken too, meaning "none" (a fixed dt of 0: CFL-adaptive)
  bool whole;          // a whole number (steps)
  // Checked with others rather than alone (Green-Ampt's three values: validateInfiltration).
  bool checkedTogether;
  const char* hint; // what values mean, after the range in a message: "(rivers: 0.01 to 0.2)"
  const char* doc;  // what it does, for swe --help
  double (*get)(const SimulationParameters&);
  void (*set)(SimulationParameters&, double);
};

const std::array<ScalarParameter, kScalarCount>& scalarParameters();
const ScalarParameter& scalarParameter(ScalarId id);
// The entry of a property name ("ManningCoefficient"); throws swe::Error for another name.
const ScalarParameter& scalarParameterOfProperty(const std::string& property);

// The values of the scalar parameters, indexed by ScalarId; each at its default.
using ScalarValues = std::array<double, kScalarCount>;
ScalarValues defaultScalarValues();

// Throws swe::Error unless value is finite and in the parameter's range: the message names the
// parameter, the value, the range and the hint.
void requireInRange(const ScalarParameter& parameter, double value);
// The range in words: "in [0, 1] s/m^(1/3)", "at least 1e-06 s, or 0 (CFL-adaptive)".
std::string rangeText(const ScalarParameter& parameter);
} // namespace swe
