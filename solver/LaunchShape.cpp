#include "LaunchShape.h"

#include "Error.h"

#include <algorithm>
#include <cstdio>

namespace swe
{
namespace
{
bool powerOfTwo(int n)
{
  return n > 0 && (n & (n - 1)) == 0;
}
} // namespace

std::string LaunchShape::text() const
{
  if (wholeRows)
    return "rows" + std::to_string(rows);
  return std::to_string(groupX) + "x" + std::to_string(groupY) + "x" + std::to_string(rows);
}

LaunchShape parseLaunchShape(const std::string& text)
{
  LaunchShape shape;
  char tail = 0;
  if (text.compare(0, 4, "rows") == 0)
  {
    shape.wholeRows = true;
    if (std::sscanf(text.c_str() + 4, "%d%c", &shape.rows, &tail) != 1 || shape.rows < 1 ||
        shape.rows > 4096)
      throw Error("launch shape '" + text + "': rowsN needs N from 1 to 4096");
    return shape;
  }
  const int fields =
    std::sscanf(text.c_str(), "%dx%dx%d%c", &shape.groupX, &shape.groupY, &shape.rows, &tail);
  if (fields != 3)
    throw Error(
      "launch shape must be 'auto', 'default', GXxGYxROWS such as 128x2x8, or rowsN such as "
      "rows16, got '" +
      text + "'");
  if (!powerOfTwo(shape.groupX) || !powerOfTwo(shape.groupY))
    throw Error("launch shape '" + text + "': the work-group sides must be powers of two");
  if (shape.rows < 1 || shape.rows > 64)
    throw Error("launch shape '" + text + "': rows per work-item must be 1 to 64");
  return shape;
}

void checkLaunchShape(const LaunchShape& shape, Scheme scheme, const DeviceInfo& device)
{
  const std::size_t size = static_cast<std::size_t>(shape.groupX) * shape.groupY;
  if (size > device.maxWorkGroupSize)
    throw Error("launch shape " + shape.text() + ": work-groups of " + std::to_string(size) +
                " items are larger than '" + device.name + "' allows (" +
                std::to_string(device.maxWorkGroupSize) + ")");
  if (scheme == Scheme::MusclHllc && (shape.rows != 1 || shape.wholeRows))
    throw Error("launch shape " + shape.text() +
                ": the second-order scheme updates one row per work-item (use GXxGYx1)");
}

LaunchShape defaultLaunchShape(const DeviceInfo& device)
{
  LaunchShape shape;
  while (static_cast<std::size_t>(shape.groupX) * shape.groupY > device.maxWorkGroupSize &&
         shape.groupY > 1)
    shape.groupY /= 2;
  while (static_cast<std::size_t>(shape.groupX) * shape.groupY > device.maxWorkGroupSize &&
         shape.groupX > 1)
    shape.groupX /= 2;
  return shape;
}

std::vector<LaunchShape> launchCandidates(Scheme scheme, const DeviceInfo& device)
{
  std::vector<LaunchShape> shapes{ defaultLaunchShape(device) };
  std::vector<LaunchShape> more;
  if (scheme == Scheme::MusclHllc)
    more = { { 32, 8, 1 }, { 128, 2, 1 }, { 256, 1, 1 }, { 16, 16, 1 } };
  else if (device.type == "CPU")
    // CPU devices run a work-group on one core, vectorised across x: wide groups, long columns.
    more = {
      { 256, 1, 1 }, { 1024, 1, 16 }, { 64, 4, 4, true }, { 64, 4, 16, true }, { 64, 4, 64, true }
    };
  else
    more = {
      { 128, 1, 4 }, { 64, 4, 4 }, { 128, 2, 8 }, { 256, 1, 8 }, { 64, 2, 16 }, { 32, 8, 8 }
    };
  for (const LaunchShape& s : more)
    if (static_cast<std::size_t>(s.groupX) * s.groupY <= device.maxWorkGroupSize &&
        std::find(shapes.begin(), shapes.end(), s) == shapes.end())
      shapes.push_back(s);
  return shapes;
}
} // namespace swe
