#ifndef pqShallowWaterSparkline_h
#define pqShallowWaterSparkline_h

#include <QVector>
#include <QWidget>

/**
 * A small live chart for the Shallow Water Monitor: one series of (simulated time, value) as a
 * line, with its range and the time span written beside it. A full ParaView chart view would
 * be a view in the layout; this stays inside the dock and draws only what it is given.
 */
class pqShallowWaterSparkline : public QWidget
{
  Q_OBJECT

public:
  explicit pqShallowWaterSparkline(QWidget* parent = nullptr);

  // The points to draw, in increasing time; the unit shown after the values. The value axis
  // spans at least minimumRelativeSpan times the values' magnitude, so that a quantity that
  // should stay constant (the stored volume) is not drawn as its round-off magnified.
  // Without points, it says emptyText.
  void setSeries(const QVector<QPointF>& points,
    const QString& unit,
    double minimumRelativeSpan = 0,
    const QString& emptyText = QString());

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  QVector<QPointF> Points;
  QString Unit;
  double MinimumRelativeSpan = 0;
  QString EmptyText;
};

#endif
