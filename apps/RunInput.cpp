#include "RunInput.h"

#include "Error.h"
#ifdef SWE_WITH_VTK
#include "ImageInitialState.h"

#include <vtkCommand.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkXMLImageDataReader.h>

#include <cctype>
#include <vector>
#endif

namespace swe::cli
{
#ifdef SWE_WITH_VTK
namespace
{
// Keeps the messages of VTK's error events (which VTK would otherwise print with a time stamp and
// the object's address), without the "vtkClass (0x...): " prefix.
class VtkErrorCollector : public vtkCommand
{
public:
  static VtkErrorCollector* New() { return new VtkErrorCollector; }
  void Execute(vtkObject*, unsigned long, void* callData) override
  {
    std::string message = callData ? static_cast<const char*>(callData) : "unknown error";
    const std::size_t prefix = message.find("): ");
    if (prefix != std::string::npos)
      message.erase(0, prefix + 3);
    while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back())))
      message.pop_back();
    Messages.push_back(message);
  }
  std::vector<std::string> Messages;
};

InitialState imageState(InputOptions& input, SimulationParameters& params)
{
  vtkNew<vtkXMLImageDataReader> reader;
  if (!reader->CanReadFile(input.file.c_str()))
    throw Error("cannot read '" + input.file + "' as a VTK XML image (.vti)");
  // A truncated or damaged file leaves an empty image, which would be blamed for its shape: the
  // reader's, its XML parser's and the pipeline's errors are collected instead of printed, and
  // the first names the cause.
  vtkNew<VtkErrorCollector> errors;
  reader->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->SetParserErrorObserver(errors);
  reader->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->SetFileName(input.file.c_str());
  reader->Update();
  if (!errors->Messages.empty() || reader->GetErrorCode() != vtkErrorCode::NoError)
    throw Error("cannot read '" + input.file + "': " +
                (errors->Messages.empty()
                    ? std::string(vtkErrorCode::GetStringFromErrorCode(reader->GetErrorCode()))
                    : errors->Messages.front()) +
                " (the file may be truncated or damaged)");
  vtkImageData* image = reader->GetOutput();
  ImageArrays arrays;
  arrays.bed = input.bed;
  arrays.depth = input.depth;
  arrays.freeSurface = input.surface;
  arrays.velocity = input.velocity;
  arrays.manning = input.manning;
  arrays.initialWaterLevel = input.waterLevel;
  InitialState state = imageInitialState(image, arrays);
  imageGrid(image->GetExtent(),
    image->GetSpacing(),
    image->GetOrigin(),
    params.nx,
    params.ny,
    params.dx,
    input.origin.data());
  params.validate();
  return state;
}
} // namespace
#endif

InitialState initialState(const CommonOptions& options,
  InputOptions& input,
  SimulationParameters& params)
{
  if (input.file.empty())
    return makeScenario(scenarioFromName(options.scenario), params);
#ifdef SWE_WITH_VTK
  return imageState(input, params);
#else
  throw Error("--input needs VTK, and this swe was built without ParaView/VTK");
#endif
}
} // namespace swe::cli
