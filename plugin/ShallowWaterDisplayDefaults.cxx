#include "ShallowWaterDisplayDefaults.h"

#include "FloodClasses.h"

#include <vtkSMSettings.h>

#include <string>
#include <vector>

namespace
{
// Settings at priority 0.5: above ParaView's own defaults (0), below a site's (1) and the user's
// own settings, which still win. ParaView 5.11's XML hints cannot choose a colour map or a legend
// title; its settings can, per array name, when the array's colour map is first made. A map's
// control points scale with the data range, and its range starts at the data's and grows at
// every time step (a flood that starts dry would keep a legend of 0 to 1 m otherwise).

// Depth and MaxDepth: grey at 0 (dry land reads as terrain, the flood extent at a glance), then
// light to dark blue, most of the change in the shallow tenth of the range.
constexpr const char* kDepthBlues = "0.0, 0.60, 0.60, 0.60,  0.001, 0.75, 0.87, 0.97,  "
                                    "0.1, 0.42, 0.68, 0.88,  0.3, 0.13, 0.44, 0.71,  "
                                    "1.0, 0.03, 0.19, 0.42";
// The sequential maps below blend in Lab (ColorSpace 2), not through white as ParaView's default
// diverging blend would. MaxSpeed and MaxHazard: pale to dark red (the hazard's classes cannot be
// pinned here, as the points scale with the data). ArrivalTime and Duration: dark to light, and
// cells never reached (NaN ArrivalTime) in the land colour of FloodExtent, over their relief.
constexpr const char* kLab = "\"ColorSpace\": 2, ";
constexpr const char* kLand = "\"NanColor\": [0.90, 0.88, 0.82], \"NanOpacity\": 1.0, ";
constexpr const char* kPaleToDarkRed =
  "0.0, 1.00, 0.98, 0.80,  0.5, 0.99, 0.55, 0.24,  1.0, 0.50, 0.00, 0.15";
constexpr const char* kHazard = "0.0, 0.40, 0.74, 0.39,  0.3, 1.00, 0.85, 0.20,  "
                                "0.6, 0.96, 0.45, 0.13,  1.0, 0.60, 0.00, 0.10";
constexpr const char* kDarkToLight =
  "0.0, 0.27, 0.00, 0.33,  0.5, 0.13, 0.57, 0.55,  1.0, 0.99, 0.91, 0.14";
constexpr const char* kLightToDark =
  "0.0, 0.99, 0.91, 0.14,  0.5, 0.13, 0.57, 0.55,  1.0, 0.27, 0.00, 0.33";

// FloodExtent and HazardClass: one colour a class, the class named in the legend. Land never
// flooded is pale (its relief shows through the lighting); flooded water blue; the hazard classes
// in FD2320's usual green, yellow, orange and red.
constexpr const char* kExtentColours = "0.90, 0.88, 0.82,  0.13, 0.44, 0.71";
constexpr const char* kHazardColours = "0.90, 0.88, 0.82,  0.40, 0.74, 0.39,  1.00, 0.85, 0.20,  "
                                       "0.96, 0.45, 0.13,  0.70, 0.05, 0.10";

// The settings of a map by classes: their values, names (from the engine's) and colours.
std::string categories(const char* const* names, int count, const char* colours)
{
  std::string annotations;
  for (int k = 0; k < count; ++k)
    annotations += (k ? ", \"" : "\"") + std::to_string(k) + "\", \"" + names[k] + "\"";
  return std::string("\"IndexedLookup\": 1, \"Annotations\": [") + annotations +
         "], \"IndexedColors\": [" + colours + "], ";
}

// ProbabilityFlooded (an ensemble's share of members that flood a cell): pale to dark blue over
// the whole range of a share, 0 to 1, whatever the data's (a map that grew with it would call the
// likeliest cell of a first frame certain).
constexpr const char* kShareBlues =
  "0.0, 0.94, 0.96, 0.99,  0.5, 0.42, 0.68, 0.88,  1.0, 0.03, 0.19, 0.42";
constexpr const char* kWholeShare = "\"AutomaticRescaleRangeMode\": -1, ";

struct ArrayDefaults
{
  std::string array;
  std::string settings;
};

// One array's settings: its legend title and, with points, its colour map (and extra settings).
ArrayDefaults entry(const char* array,
  const char* title,
  const char* points = nullptr,
  const std::string& extra = "")
{
  std::string text = std::string("\"") + array + "\": { \"Title\": \"" + title + "\"";
  // (the range grows with the data unless extra says otherwise)
  const bool fixedRange = extra.find("AutomaticRescaleRangeMode") != std::string::npos;
  if (points || !extra.empty())
    text += std::string(", \"PVLookupTable\": { ") +
            (points ? std::string("\"RGBPoints\": [") + points + "], " : std::string()) + extra +
            "\"ScalarRangeInitialized\": 1" +
            (fixedRange ? " }" : ", \"AutomaticRescaleRangeMode\": 1 }");
  return { array, text + " }" };
}

const std::vector<ArrayDefaults>& arrayDefaults()
{
  static const std::vector<ArrayDefaults> entries = { entry("Depth", "Depth (m)", kDepthBlues),
    entry("MaxDepth", "Maximum depth (m)", kDepthBlues),
    entry("MaxSpeed", "Maximum speed (m/s)", kPaleToDarkRed, kLab),
    entry("MaxHazard", "Maximum hazard, h (v + 0.5) (m^2/s)", kHazard, kLab),
    entry("ArrivalTime", "Arrival time (s)", kDarkToLight, std::string(kLand) + kLab),
    entry("Duration", "Time flooded (s)", kLightToDark, kLab),
    entry("FloodExtent",
      "Flood extent",
      nullptr,
      categories(swe::kFloodExtentNames, 2, kExtentColours)),
    entry("HazardClass",
      "Highest hazard class, h (v + 0.5)",
      nullptr,
      categories(swe::kHazardClassNames, swe::kHazardClassCount, kHazardColours)),
    entry("Infiltration", "Infiltration (m)"),
    entry("FreeSurface", "Water surface elevation (m)"),
    entry("Bed", "Bed elevation (m)"),
    entry("Velocity", "Velocity (m/s)"),
    entry("Momentum", "Discharge per unit width (m^2/s)"),
    // An ensemble's statistics (swe ensemble's series).
    entry(
      "ProbabilityFlooded", "Probability flooded", kShareBlues, std::string(kLab) + kWholeShare),
    entry("MaxDepthMean", "Maximum depth, mean of the members (m)", kDepthBlues),
    entry("MaxDepthP10", "Maximum depth, 10 % of the members below (m)", kDepthBlues),
    entry("MaxDepthP50", "Maximum depth, median of the members (m)", kDepthBlues),
    entry("MaxDepthP90", "Maximum depth, 90 % of the members below (m)", kDepthBlues),
    entry("ArrivalTimeEarliest",
      "Arrival time, earliest member (s)",
      kDarkToLight,
      std::string(kLand) + kLab),
    entry("ArrivalTimeMedian",
      "Arrival time, median of the members (s)",
      kDarkToLight,
      std::string(kLand) + kLab) };
  return entries;
}

std::string displayDefaults()
{
  std::string json = "{ \"array_lookup_tables\": { ";
  for (const ArrayDefaults& entry : arrayDefaults())
    json += (&entry == &arrayDefaults().front() ? "" : ", ") + entry.settings;
  return json + " } }";
}
} // namespace

void shallow_water_display_defaults()
{
  vtkSMSettings::GetInstance()->AddCollectionFromString(displayDefaults(), 0.5);
}

bool shallow_water_has_display_defaults(const std::string& array)
{
  for (const ArrayDefaults& entry : arrayDefaults())
    if (entry.array == array)
      return true;
  return false;
}
