//===- OptMain.cpp - MLIR's mlir-opt driver behind glow-opt --------------===//
//
// MlirOptMain as is, except where MLIR 22's bytecode writer would mangle the dotted
// Glow dialect names (see PortableBytecode.cpp):
// - `--emit-bytecode`: glow-opt runs the pipeline to text (with locations) and writes
//   that module through glow::writePortableBytecode instead;
// - `--verify-roundtrip`: instead of MLIR's check (standard bytecode reader), the
//   pipeline ends with `glow-verify-roundtrip` (RoundTrip.cpp), which checks the
//   pipeline's result in memory through text, generic text and portable bytecode.
//
//===----------------------------------------------------------------------===//

#include "glow-c/OptMain.h"
#include "glow-c/NestingDepth.h"
#include "glow/PortableBytecode.h"
#include "glow/RoundTrip.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "glow-opt: error: " << message << "\n";
  return 1;
}

/// Whether `input` nests at most GLOW_MAX_NESTING_DEPTH deep; reports where it does
/// not, as a located error.
static bool nestingWithin(const llvm::MemoryBuffer &input, llvm::StringRef inputFilename) {
  size_t line = 0, column = 0;
  if (glowNestingWithin(input.getBufferStart(), input.getBufferSize(),
                        GLOW_MAX_NESTING_DEPTH, &line, &column))
    return true;
  llvm::errs() << (inputFilename == "-" ? "<stdin>" : inputFilename) << ":" << line << ":"
               << column << ": error: nesting deeper than " << GLOW_MAX_NESTING_DEPTH
               << " levels (brackets, braces, parentheses, angle brackets)\n";
  return false;
}

/// Runs the configured pipeline, then writes its result as portable bytecode.
static int emitPortableBytecode(MlirOptMainConfig config, llvm::StringRef inputFilename,
                                llvm::StringRef outputFilename, DialectRegistry &registry) {
  if (!config.inputSplitMarker().empty())
    return fail("--emit-bytecode does not combine with --split-input-file");
  // Keep locations in the intermediate text, as bytecode always carries them.
  if (auto *option = llvm::cl::getRegisteredOptions().lookup("mlir-print-debuginfo"))
    static_cast<llvm::cl::opt<bool> *>(option)->setValue(true);
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  if (!nestingWithin(*input, inputFilename))
    return 1;
  std::string text;
  llvm::raw_string_ostream textStream(text);
  config.emitBytecode(false);
  if (failed(MlirOptMain(textStream, std::move(input), registry, config)))
    return 1;
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  ParserConfig parserConfig(&context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, parserConfig);
  if (!module)
    return fail("the pipeline's result does not parse back");
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return fail(errorMessage);
  if (failed(glow::writePortableBytecode(*module, output->os())))
    return fail("cannot write the result as bytecode");
  output->keep();
  return 0;
}

/// MlirOptMain on the given files with `config` (the argv form would rebuild the
/// configuration from the command line).
static int runWithConfig(const MlirOptMainConfig &config, llvm::StringRef inputFilename,
                         llvm::StringRef outputFilename, DialectRegistry &registry) {
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  if (!nestingWithin(*input, inputFilename))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(outputFilename, &errorMessage);
  if (!output)
    return fail(errorMessage);
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}

int glowMlirOptMain(int argc, char **argv, MlirDialectRegistry registry) {
  DialectRegistry &dialects = *unwrap(registry);
  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, "Glow modular optimizer driver\n", dialects);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldVerifyRoundtrip()) {
    config.verifyRoundtrip(false);
    MlirOptMainConfig commandLine = config;
    config.setPassPipelineSetupFn([commandLine](PassManager &pm) {
      if (failed(commandLine.setupPassPipeline(pm)))
        return failure();
      pm.addPass(glow::createVerifyRoundTripPass());
      return success();
    });
    if (!config.shouldEmitBytecode())
      return runWithConfig(config, inputFilename, outputFilename, dialects);
  }
  if (config.shouldEmitBytecode())
    return emitPortableBytecode(config, inputFilename, outputFilename, dialects);
  // Listing dialects or passes reads no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(MlirOptMain(argc, argv, inputFilename, outputFilename, dialects));
  return runWithConfig(config, inputFilename, outputFilename, dialects);
}
