#pragma once
// Called when the plugin loads (paraview_add_plugin INITIALIZERS): the colour maps and legend
// titles a flood's arrays get the first time they are shown.
void shallow_water_display_defaults();
