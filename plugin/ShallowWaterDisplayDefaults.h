#pragma once
// Called when the plugin loads (paraview_add_plugin INITIALIZERS): the colour maps and legend
// titles a flood's arrays get the first time they are shown.
void shallow_water_display_defaults();

#include <string>

// Whether the array is one of the flood's own, with a legend title and colour map set above.
bool shallow_water_has_display_defaults(const std::string& array);
