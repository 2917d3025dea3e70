#include "ShallowWaterDisplayDefaults.h"

#include <vtkSMSettings.h>

namespace
{
// Settings at priority 0.5: above ParaView's own defaults (0), below a site's (1) and the user's
// own settings, which still win. ParaView 5.11's XML hints cannot choose a colour map or a legend
// title; its settings can, per array name, when the array's colour map is first made.
// Depth and MaxDepth: grey at 0 (dry land reads as terrain, the flood extent at a glance), then
// light to dark blue, most of the change in the shallow tenth of the range; the control points
// scale with the data range, and the range starts at 0 m.
// MaxSpeed and MaxHazard: sequential, pale to dark red (the hazard's classes cannot be pinned
// here: ParaView scales a colour map's points to the data range when it first colours by it).
// ArrivalTime and Duration: sequential (early dark, late light); cells never reached (NaN
// ArrivalTime) are left unpainted. The sequential maps blend in Lab (ColorSpace 2), not through
// white as ParaView's default diverging blend would.
constexpr const char* kDisplayDefaults = R"json({
  "array_lookup_tables": {
    "Depth": {
      "Title": "Depth (m)",
      "PVLookupTable": {
        "RGBPoints": [0.0, 0.60, 0.60, 0.60,  0.001, 0.75, 0.87, 0.97,  0.1, 0.42, 0.68, 0.88,
                      0.3, 0.13, 0.44, 0.71,  1.0, 0.03, 0.19, 0.42],
        "ScalarRangeInitialized": 1,
        "AutomaticRescaleRangeMode": 0
      }
    },
    "MaxDepth": {
      "Title": "Maximum depth (m)",
      "PVLookupTable": {
        "RGBPoints": [0.0, 0.60, 0.60, 0.60,  0.001, 0.75, 0.87, 0.97,  0.1, 0.42, 0.68, 0.88,
                      0.3, 0.13, 0.44, 0.71,  1.0, 0.03, 0.19, 0.42],
        "ScalarRangeInitialized": 1,
        "AutomaticRescaleRangeMode": 0
      }
    },
    "MaxSpeed": {
      "Title": "Maximum speed (m/s)",
      "PVLookupTable": {
        "RGBPoints": [0.0, 1.00, 0.98, 0.80,  0.5, 0.99, 0.55, 0.24,  1.0, 0.50, 0.00, 0.15],
        "ColorSpace": 2,
        "ScalarRangeInitialized": 1,
        "AutomaticRescaleRangeMode": 0
      }
    },
    "MaxHazard": {
      "Title": "Maximum hazard, h (v + 0.5) (m^2/s)",
      "PVLookupTable": {
        "RGBPoints": [0.0, 0.40, 0.74, 0.39,  0.3, 1.00, 0.85, 0.20,  0.6, 0.96, 0.45, 0.13,
                      1.0, 0.60, 0.00, 0.10],
        "ColorSpace": 2,
        "ScalarRangeInitialized": 1,
        "AutomaticRescaleRangeMode": 0
      }
    },
    "ArrivalTime": {
      "Title": "Arrival time (s)",
      "PVLookupTable": {
        "RGBPoints": [0.0, 0.27, 0.00, 0.33,  0.5, 0.13, 0.57, 0.55,  1.0, 0.99, 0.91, 0.14],
        "NanOpacity": 0.0,
        "ColorSpace": 2,
        "ScalarRangeInitialized": 1,
        "AutomaticRescaleRangeMode": 0
      }
    },
    "Duration": {
      "Title": "Time flooded (s)",
      "PVLookupTable": {
        "RGBPoints": [0.0, 0.99, 0.91, 0.14,  0.5, 0.13, 0.57, 0.55,  1.0, 0.27, 0.00, 0.33],
        "ColorSpace": 2,
        "ScalarRangeInitialized": 1,
        "AutomaticRescaleRangeMode": 0
      }
    },
    "Infiltration": { "Title": "Infiltration (m)" },
    "FreeSurface": { "Title": "Water surface elevation (m)" },
    "Bed": { "Title": "Bed elevation (m)" },
    "Velocity": { "Title": "Velocity (m/s)" },
    "Momentum": { "Title": "Discharge per unit width (m^2/s)" }
  }
})json";
}

void shallow_water_display_defaults()
{
  vtkSMSettings::GetInstance()->AddCollectionFromString(kDisplayDefaults, 0.5);
}
