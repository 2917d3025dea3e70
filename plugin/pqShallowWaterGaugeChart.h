#ifndef pqShallowWaterGaugeChart_h
#define pqShallowWaterGaugeChart_h

#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>

class pqDataRepresentation;
class pqOutputPort;
class pqView;
class pqPipelineSource;

/**
 * Shows a Shallow Water source's or solver's Gauges output in a Line Chart View (Time as the X
 * array) the first time its data says it has gauges: hydrographs are what a user sets gauges to
 * see. A ParaView XML hint cannot do this: it would open a chart for every source, gauges or
 * none. It reads the output's data information only (the gauges' columns), so it works the same
 * with a remote server; a table already shown in some view, or a chart the user closed, is left
 * as it is.
 */
class pqShallowWaterGaugeChart : public QObject
{
  Q_OBJECT

public:
  explicit pqShallowWaterGaugeChart(QObject* parent = nullptr);
  ~pqShallowWaterGaugeChart() override = default;

  void startup();
  void shutdown() {}

private Q_SLOTS:
  void watch(pqPipelineSource* source);
  void forget(pqPipelineSource* source);
  void updated(pqPipelineSource* source);
  // Opens source's chart of its gauges, now or, while the animation scene updates its views,
  // once it is done.
  void open(pqPipelineSource* source);
  void watchView(pqView* view);

private:
  // Hides the port's chart lines while its table has one sample, shows them again at two; the
  // axes fitted while no gauge has water.
  void holdBack(pqOutputPort* port);
  // Closes the chart this opened for source (unless it shows something else) and forgets that
  // it was charted.
  void close(pqPipelineSource* source);
  // Sets the chart's lines and the markers' names up again when the number of gauges changed.
  void followGaugeCount(pqPipelineSource* source, pqOutputPort* port);

  // Sources whose gauges have been charted once (or were shown already).
  QSet<pqPipelineSource*> Charted;
  // Chart representations hidden while their table had one row, shown again at two.
  QSet<pqDataRepresentation*> HeldBack;
  // The charts this opened, by source: closed with it.
  QMap<pqPipelineSource*, QPointer<pqView>> Opened;
  // The number of gauges each charted source had at its last update.
  QMap<pqPipelineSource*, int> GaugeCounts;
  // The views between their beginRender and endRender.
  QSet<pqView*> Rendering;
};

#endif
