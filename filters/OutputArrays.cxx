#include "OutputArrays.h"

#include "Error.h"
#include "FrameImage.h"

#include <vtkDataArraySelection.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace swe
{
FrameArraySelection selectedFrameArrays(vtkDataArraySelection* arrays)
{
  std::vector<std::string> names;
  for (int a = 0; a < arrays->GetNumberOfArrays(); ++a)
    if (arrays->GetArraySetting(a))
      names.emplace_back(arrays->GetArrayName(a));
  if (names.empty()) // (frameArraySelection would take that for all of them)
  {
    FrameArraySelection none;
    none.holds.fill(false);
    return none;
  }
  try
  {
    return frameArraySelection(names);
  }
  catch (const Error& e)
  {
    throw Error(std::string("Output Arrays: ") + e.what());
  }
}

void dropUnknownFrameArrays(vtkDataArraySelection* arrays)
{
  for (int a = arrays->GetNumberOfArrays() - 1; a >= 0; --a)
  {
    const std::string name = arrays->GetArrayName(a);
    if (std::find(std::begin(kFrameArrayNames), std::end(kFrameArrayNames), name) ==
        std::end(kFrameArrayNames))
      arrays->RemoveArrayByName(name.c_str());
  }
}

void listMadeFrameArrays(vtkDataArraySelection* all,
  const KeptArraysMade& kept,
  vtkDataArraySelection* made)
{
  made->RemoveAllArrays();
  for (int a = 0; a < kFrameArrayCount; ++a)
  {
    const bool madeByRun = a < kFirstKeptArray || kept.makes(keptField(a - kFirstKeptArray));
    if (madeByRun)
      made->AddArray(kFrameArrayNames[a], all->ArrayIsEnabled(kFrameArrayNames[a]) != 0);
  }
}
} // namespace swe
