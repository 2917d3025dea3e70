#pragma once
// Exact solutions of the 1D dam-break problems, as given by SWASHES (Delestre et al., "SWASHES:
// a compilation of shallow water analytic solutions for hydraulic and environmental studies",
// 2013, sections 4.1.1 and 4.1.2), computed by our own code for the validation.

namespace swe
{
// Ritter: depth hLeft for x < x0 and a dry bed beyond, released at t = 0; depth at (x, t > 0).
double ritterDepth(double x, double t, double x0, double hLeft, double g);

// Stoker: depth hLeft for x < x0 and hRight > 0 beyond; depth at (x, t > 0).
double stokerDepth(double x, double t, double x0, double hLeft, double hRight, double g);

// The middle-state celerity c_m of Stoker's solution: the root in (sqrt(g hR), sqrt(g hL)) of
// -8 g hR c^2 (sqrt(g hL) - c)^2 + (c^2 - g hR)^2 (c^2 + g hR) = 0.
double stokerMiddleCelerity(double hLeft, double hRight, double g);
} // namespace swe
