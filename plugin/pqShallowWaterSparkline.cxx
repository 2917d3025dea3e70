#include "pqShallowWaterSparkline.h"

#include "pqShallowWaterNumber.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

pqShallowWaterSparkline::pqShallowWaterSparkline(QWidget* parent)
  : QWidget(parent)
{
}

void pqShallowWaterSparkline::setSeries(const QVector<QPointF>& points,
  const QString& unit,
  double minimumRelativeSpan,
  const QString& emptyText)
{
  this->Points = points;
  this->Unit = unit;
  this->MinimumRelativeSpan = minimumRelativeSpan;
  this->EmptyText = emptyText.isEmpty() ? tr("no frames yet") : emptyText;
  this->update();
}

void pqShallowWaterSparkline::paintEvent(QPaintEvent*)
{
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const QRectF frame = QRectF(this->rect()).adjusted(1, 1, -1, -1);
  painter.setPen(this->palette().color(QPalette::Mid));
  painter.drawRect(frame);
  const int text = this->fontMetrics().height();
  const QRectF plot = frame.adjusted(6, text + 4, -6, -text - 4);
  painter.setPen(this->palette().color(QPalette::Text));
  if (this->Points.isEmpty())
  {
    painter.drawText(frame, Qt::AlignCenter, this->EmptyText);
    return;
  }
  if (this->Points.size() == 1) // (one frame: its value, the line from the next)
  {
    painter.drawText(frame,
      Qt::AlignCenter,
      tr("t = %1 s: %2 %3")
        .arg(plainNumber(this->Points.front().x(), 5))
        .arg(plainNumber(this->Points.front().y()))
        .arg(this->Unit));
    return;
  }
  double low = this->Points.front().y(), high = low;
  for (const QPointF& p : this->Points)
  {
    low = std::min(low, p.y());
    high = std::max(high, p.y());
  }
  const double minimumSpan = this->MinimumRelativeSpan * std::max(std::fabs(low), std::fabs(high));
  if (high - low < minimumSpan)
  {
    const double middle = 0.5 * (low + high);
    low = middle - 0.5 * minimumSpan;
    high = middle + 0.5 * minimumSpan;
  }
  const double t0 = this->Points.front().x(), t1 = this->Points.back().x();
  const double spanT = t1 > t0 ? t1 - t0 : 1, spanV = high > low ? high - low : 1;
  QPainterPath line;
  for (int k = 0; k < this->Points.size(); ++k)
  {
    const QPointF& p = this->Points[k];
    const QPointF at(plot.left() + (p.x() - t0) / spanT * plot.width(),
      plot.bottom() - (high > low ? (p.y() - low) / spanV : 0.5) * plot.height());
    k == 0 ? line.moveTo(at) : line.lineTo(at);
  }
  painter.drawText(frame.adjusted(4, 2, -4, 0),
    Qt::AlignLeft | Qt::AlignTop,
    QString("%1 %2").arg(plainNumber(high)).arg(this->Unit));
  painter.drawText(frame.adjusted(4, 0, -4, -2),
    Qt::AlignLeft | Qt::AlignBottom,
    QString("%1 %2").arg(plainNumber(low)).arg(this->Unit));
  painter.drawText(frame.adjusted(4, 0, -4, -2),
    Qt::AlignRight | Qt::AlignBottom,
    QString("t = %1 to %2 s").arg(plainNumber(t0, 5)).arg(plainNumber(t1, 5)));
  painter.setPen(QPen(this->palette().color(QPalette::Highlight), 1.5));
  painter.drawPath(line);
}
