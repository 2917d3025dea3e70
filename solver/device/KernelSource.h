#pragma once
// The OpenCL C sources of kernels/, embedded at build time (see cmake/EmbedKernels.cmake), so
// nothing is looked up on disk at run time.
#include <string>

namespace swe
{
const std::string& kernelSource();
}
