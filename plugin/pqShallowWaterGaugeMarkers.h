#ifndef pqShallowWaterGaugeMarkers_h
#define pqShallowWaterGaugeMarkers_h

#include <array>

class pqPipelineSource;
class pqView;

// Gauge g's colour (0 for G1), the same for its hydrograph in the chart and its marker on the
// map, so that each line is found on the map; none is the chart's green marker of the time.
const std::array<double, 3>& gaugeColour(int gauge);

// Marks the source's gauges on the map: its Gauge Markers output as square markers in the gauges'
// colours, with a legend naming them, unless that output is already shown in some view (a
// loaded state, or the user's choice) and not hidden by hideGaugeMarkers. gauges: how many the
// source has.
void showGaugeMarkers(pqPipelineSource* source, pqView* map, int gauges);

// Hides the source's markers and their legend (its gauges all removed); showGaugeMarkers shows
// them again.
void hideGaugeMarkers(pqPipelineSource* source);

// Names the source's markers G1 ... G<gauges> in their colours, in every view showing them.
void nameGaugeMarkers(pqPipelineSource* source, int gauges);

#endif
