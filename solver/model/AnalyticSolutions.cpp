#include "AnalyticSolutions.h"

#include "Error.h"

#include <cmath>

namespace swe
{
namespace
{
// The rarefaction fan shared by both dam breaks.
double rarefaction(double x, double t, double x0, double hLeft, double g)
{
  const double s = std::sqrt(g * hLeft) - (x - x0) / (2 * t);
  return 4.0 / (9.0 * g) * s * s;
}
} // namespace

double ritterDepth(double x, double t, double x0, double hLeft, double g)
{
  const double c = std::sqrt(g * hLeft);
  if (x <= x0 - c * t)
    return hLeft;
  if (x <= x0 + 2 * c * t)
    return rarefaction(x, t, x0, hLeft, g);
  return 0.0;
}

double stokerMiddleCelerity(double hLeft, double hRight, double g)
{
  if (!(hRight > 0 && hLeft > hRight))
    throw Error("Stoker's solution needs 0 < hRight < hLeft");
  const double cl = std::sqrt(g * hLeft);
  const auto f = [&](double c)
  {
    const double c2 = c * c, a = cl - c, b = c2 - g * hRight;
    return -8 * g * hRight * c2 * a * a + b * b * (c2 + g * hRight);
  };
  // f(sqrt(g hR)) < 0 < f(sqrt(g hL)): bisect.
  double lo = std::sqrt(g * hRight), hi = cl;
  double flo = f(lo);
  for (int k = 0; k < 200; ++k)
  {
    const double mid = 0.5 * (lo + hi), fm = f(mid);
    if ((fm > 0) == (flo > 0))
      lo = mid, flo = fm;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

double stokerDepth(double x, double t, double x0, double hLeft, double hRight, double g)
{
  const double cm = stokerMiddleCelerity(hLeft, hRight, g);
  const double c = std::sqrt(g * hLeft);
  const double xA = x0 - c * t;
  const double xB = x0 + t * (2 * c - 3 * cm);
  const double xC = x0 + t * 2 * cm * cm * (c - cm) / (cm * cm - g * hRight);
  if (x <= xA)
    return hLeft;
  if (x <= xB)
    return rarefaction(x, t, x0, hLeft, g);
  if (x <= xC)
    return cm * cm / g;
  return hRight;
}
} // namespace swe
