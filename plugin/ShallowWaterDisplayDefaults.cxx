#include "ShallowWaterDisplayDefaults.h"

#include <vtkSMSettings.h>

namespace
{
// Settings at priority 0.5: above ParaView's own defaults (0), below a site's (1) and the user's
// own settings, which still win. ParaView 5.11's XML hints cannot choose a colour map or a legend
// title; its settings can, per array name, when the array's colour map is first made.
// Depth: grey at 0 (dry land reads as terrain, the flood extent at a glance), then light to dark
// blue, most of the change in the shallow tenth of the range; the control points scale with
// the data range, and the range starts at 0 m.
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
