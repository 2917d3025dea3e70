#pragma once
// A kernel's arguments set in one call, in the order the kernel declares them, with floating-point
// values in the device precision (a group of arguments that several kernels take in a row passed as
// one tuple); and reals read back from the device.
#include "OpenCL.h"
#include "Parameters.h"

#include <tuple>
#include <vector>

namespace swe
{
// A number passed to a kernel as its `real` (float or double, as the program was built).
struct Real
{
  double value;
};

class KernelArgs
{
public:
  explicit KernelArgs(Precision precision)
    : precision_(precision)
  {
  }

  // Sets kernel's arguments 0, 1, ... to args, a tuple's elements one by one.
  template<class... Args>
  void bind(cl::Kernel& kernel, const Args&... args) const
  {
    cl_uint index = 0;
    (set(kernel, index, args), ...);
  }

private:
  void set(cl::Kernel& kernel, cl_uint& index, Real real) const
  {
    if (precision_ == Precision::Double)
      kernel.setArg(index++, static_cast<cl_double>(real.value));
    else
      kernel.setArg(index++, static_cast<cl_float>(real.value));
  }

  template<class... T>
  void set(cl::Kernel& kernel, cl_uint& index, const std::tuple<T...>& group) const
  {
    std::apply([&](const auto&... each) { (set(kernel, index, each), ...); }, group);
  }

  template<class T>
  void set(cl::Kernel& kernel, cl_uint& index, const T& value) const
  {
    kernel.setArg(index++, value);
  }

  Precision precision_;
};

// count reals of the device precision from the start of buffer, waited for, as doubles.
inline std::vector<double> readReals(const cl::CommandQueue& queue,
  const cl::Buffer& buffer,
  std::size_t count,
  Precision precision)
{
  const auto read = [&](auto zero)
  {
    std::vector<decltype(zero)> raw(count);
    queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(zero), raw.data());
    return std::vector<double>(raw.begin(), raw.end());
  };
  return precision == Precision::Double ? read(cl_double(0)) : read(cl_float(0));
}
} // namespace swe
