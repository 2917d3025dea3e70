#pragma once
// What Devices.h's DeviceContext holds: the context its simulations make their queues, buffers
// and programs in.
#include "Devices.h"
#include "OpenCL.h"

namespace swe
{
class DeviceContext
{
public:
  DeviceContext(const cl::Device& device, const DeviceInfo& info)
    : context(device)
    , device(info)
  {
  }
  const cl::Context context;
  const DeviceInfo device;
};
} // namespace swe
