//===- PortableBytecode.cpp - bytecode for modules of the Glow dialects --===//
//
// MLIR 22's bytecode writer encodes an op name as its dialect's namespace plus the
// name after the *first* dot (OperationName::stripDialect): a registered
// `glow.graph.relu` becomes ("glow.graph", "graph.relu"), which the reader joins
// back into `glow.graph.graph.relu`. For an op of an unregistered dialect the
// namespace is also the text before the first dot, so the same op written from a
// context that does not know the Glow dialects becomes ("glow", "graph.relu") and
// reads back as `glow.graph.relu`: the reader loads the `glow` umbrella dialect,
// which loads the three real ones.
//
// So: print generic form with locations, parse it into a context with every
// upstream dialect and unregistered ones allowed, move each unregistered op's
// properties (one dictionary) into its attributes, and write bytecode version 4,
// the last that carries properties as attributes; the reader, which knows the ops,
// moves them back into properties. The weights do not go through the text: it is
// printed without them, and the portable module's blobs are views of the original
// ones, so the writer reads each weight where it already is.
//
//===----------------------------------------------------------------------===//

#include "glow-c/PortableBytecode.h"
#include "glow/PortableBytecode.h"

#include "mlir-c/RegisterEverything.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// Bytecode version 4: properties are written as attributes.
static constexpr int64_t kPropertiesAsAttributesVersion = 4;

LogicalResult mlir::glow::writePortableBytecode(Operation *module, raw_ostream &os) {
  std::string text;
  {
    llvm::raw_string_ostream stream(text);
    module->print(stream, OpPrintingFlags()
                              .printGenericOpForm()
                              .enableDebugInfo()
                              .elideLargeResourceString(0));
  }
  DialectRegistry registry;
  mlirRegisterAllDialects(wrap(&registry));
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects();
  // Failures are reported by the caller in one line; MLIR's notes are not output.
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) { return success(); });
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> portable = parseSourceString<ModuleOp>(text, config);
  if (!portable)
    return failure();
  portable->walk([](Operation *op) {
    if (op->isRegistered() || op->getPropertiesStorageSize() == 0)
      return;
    auto properties = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
    if (!properties)
      return;
    for (NamedAttribute entry : properties)
      op->setDiscardableAttr(entry.getName(), entry.getValue());
    // An unregistered op's properties are a plain attribute: an empty dictionary.
    (void)op->setPropertiesFromAttribute(DictionaryAttr::get(op->getContext()),
                                         /*emitError=*/nullptr);
  });
  auto &source = DenseResourceElementsHandle::getManagerInterface(module->getContext())
                     .getBlobManager();
  auto &target = DenseResourceElementsHandle::getManagerInterface(&context).getBlobManager();
  bool missing = false;
  portable->walk([&](Operation *op) {
    for (NamedAttribute named : op->getAttrs())
      named.getValue().walk([&](DenseResourceElementsAttr resource) {
        StringRef key = resource.getRawHandle().getKey();
        auto *entry = target.lookup(key);
        if (entry && entry->getBlob())
          return;
        auto *original = source.lookup(key);
        AsmResourceBlob *blob = original ? original->getBlob() : nullptr;
        if (!blob) {
          missing = true;
          return;
        }
        target.update(key, UnmanagedAsmResourceBlob::allocateWithAlign(
                               blob->getData(), blob->getDataAlignment()));
      });
  });
  if (missing)
    return failure();
  BytecodeWriterConfig writerConfig;
  writerConfig.setDesiredBytecodeVersion(kPropertiesAsAttributesVersion);
  return writeBytecodeToFile(*portable, os, writerConfig);
}

MlirLogicalResult glowWritePortableBytecode(MlirOperation module, MlirStringCallback callback,
                                            void *userData) {
  detail::CallbackOstream stream(callback, userData);
  return wrap(glow::writePortableBytecode(unwrap(module), stream));
}

bool glowBytecodeReadsBack(MlirContext rawContext, MlirStringRef bytes) {
  MLIRContext *context = unwrap(rawContext);
  // Owned by a shared SourceMgr, the buffer lets the reader's blobs point into it.
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(StringRef(bytes.data, bytes.length), "bytecode",
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  ScopedDiagnosticHandler quiet(context, [](Diagnostic &) { return success(); });
  ParserConfig config(context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  return static_cast<bool>(module);
}
