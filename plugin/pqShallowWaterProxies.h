#ifndef pqShallowWaterProxies_h
#define pqShallowWaterProxies_h

#include <pqPipelineSource.h>
#include <vtkSMProxy.h>

#include <cstring>

// Whether a pipeline item is one of ours: the Shallow Water source or solver.
inline bool isShallowWater(pqPipelineSource* source)
{
  const char* name = source ? source->getProxy()->GetXMLName() : nullptr;
  return name && (std::strcmp(name, "ShallowWaterSource") == 0 ||
                   std::strcmp(name, "ShallowWaterSolver") == 0);
}

#endif
