//===- PassPipeline.cpp - named textual pass pipelines -------------------===//
//
// A named pipeline (e.g. glow-cpu-pipeline) is a PassPipelineRegistration whose
// builder parses a fixed textual pipeline into the pass manager it is added to, so it
// works as a glow-opt flag and inside --pass-pipeline like MLIR's own pipelines.
//
//===----------------------------------------------------------------------===//

#include "glow-c/PassPipeline.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;

void glowRegisterPassPipeline(const char *argument, const char *description,
                              const char *pipeline) {
  // The registry keeps StringRefs: the strings live for the process.
  auto *name = new std::string(argument);
  auto *summary = new std::string(description);
  std::string text(pipeline);
  registerPassPipeline(
      *name, *summary,
      [text, name](OpPassManager &pm, StringRef options,
                   function_ref<LogicalResult(const Twine &)> errorHandler) {
        if (!options.empty())
          return errorHandler("pipeline '" + *name + "' takes no options");
        std::string message;
        llvm::raw_string_ostream stream(message);
        if (failed(parsePassPipeline(text, pm, stream)))
          return errorHandler("pipeline '" + *name + "': " + message);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)>) {});
}
