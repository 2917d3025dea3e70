#pragma once
// The Khronos C++ bindings, configured for the OpenCL 1.2 host API.
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#define CL_HPP_ENABLE_EXCEPTIONS
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif
#include <CL/opencl.hpp>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "Error.h"

#include <new>
#include <string>

namespace swe
{
// All devices in listDevices() order, matching DeviceInfo::index.
std::vector<cl::Device> openclDevices();

// "clEnqueueNDRangeKernel failed (CL_OUT_OF_RESOURCES)" from a cl::Error.
std::string describe(const cl::Error& error);

// Runs f and turns OpenCL failures, and host memory running out, into the engine's error type,
// named by what (a phrase such as "downloading the state").
template<class F>
auto guarded(const char* what, F&& f) -> decltype(f())
{
  try
  {
    return f();
  }
  catch (const cl::Error& e)
  {
    throw Error(std::string(what) + ": " + describe(e));
  }
  catch (const std::bad_alloc&)
  {
    throw Error(std::string(what) + ": out of host memory (use fewer cells, or close other "
                                    "programs)");
  }
}
} // namespace swe
