#ifndef pqShallowWaterNumber_h
#define pqShallowWaterNumber_h

#include <QString>

#include <algorithm>
#include <cmath>

// A value to `digits` significant digits, in plain notation where it is neither tiny nor huge
// (a volume of 1.08e+08 m³ reads 108000000 m³).
inline QString plainNumber(double value, int digits = 4)
{
  const double magnitude = std::fabs(value);
  if (!std::isfinite(value) || magnitude < 1e-3 || magnitude >= 1e12)
    return QString::number(value, 'g', digits);
  const int decimals =
    std::max(0, digits - 1 - static_cast<int>(std::floor(std::log10(magnitude))));
  QString text = QString::number(value, 'f', decimals);
  if (decimals > 0) // (no trailing zeros: 2400.000 reads 2400)
  {
    while (text.endsWith('0'))
      text.chop(1);
    if (text.endsWith('.'))
      text.chop(1);
  }
  return text;
}

#endif
