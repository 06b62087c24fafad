//===- RoundTrip.cpp - bit-exact round trips of Glow modules -------------===//
//
// MLIR's --verify-roundtrip cannot check Glow IR as is: its bytecode half uses the
// standard writer and reader, which mangle dotted dialect names (PortableBytecode.cpp).
// This check writes the module in each of the forms the tools produce (custom text,
// generic text, portable bytecode; with locations), reads each back into a fresh
// context and requires the same text again and the same bits in every attribute the
// original holds (floats compared as bit patterns, elements and blobs as bytes), so a
// value that prints in a lossy form is caught even when it prints the same twice.
//
//===----------------------------------------------------------------------===//

#include "glow-c/RoundTrip.h"
#include "glow/PortableBytecode.h"
#include "glow/RoundTrip.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

static std::string printed(Operation *op, OpPrintingFlags flags) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  op->print(stream, flags.enableDebugInfo());
  return text;
}

/// The first line where `a` and `b` differ (1-based), shortened.
static std::string firstDifference(StringRef a, StringRef b) {
  SmallVector<StringRef> left, right;
  a.split(left, '\n');
  b.split(right, '\n');
  for (size_t i = 0; i < std::max(left.size(), right.size()); ++i) {
    StringRef l = i < left.size() ? left[i] : "<end>";
    StringRef r = i < right.size() ? right[i] : "<end>";
    if (l != r) {
      auto cut = [](StringRef line) { return line.trim().take_front(160).str(); };
      return "line " + std::to_string(i + 1) + ": '" + cut(l) + "' reads back as '" +
             cut(r) + "'";
    }
  }
  return "the texts match";
}

static std::string show(Attribute attribute) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  attribute.print(stream);
  return StringRef(text).take_front(120).str();
}

/// Whether `attribute` says nothing (an empty dictionary, or a list of them: argument
/// attributes of a function that has none, which printers leave out).
static bool isEmpty(Attribute attribute) {
  if (auto dictionary = dyn_cast<DictionaryAttr>(attribute))
    return dictionary.empty();
  if (auto list = dyn_cast<ArrayAttr>(attribute))
    return llvm::all_of(list.getValue(), isEmpty);
  return false;
}

/// Whether `a` and `b` (of different contexts) hold the same bits; else why not.
static bool sameBits(Attribute a, Attribute b, std::string &why) {
  if (show(a) != show(b) && !isa<DenseResourceElementsAttr, DictionaryAttr>(a)) {
    why = "'" + show(a) + "' reads back as '" + show(b) + "'";
    return false;
  }
  if (auto fa = dyn_cast<FloatAttr>(a)) {
    auto fb = dyn_cast<FloatAttr>(b);
    if (!fb || !fa.getValue().bitwiseIsEqual(fb.getValue())) {
      why = "float '" + show(a) + "' changes its bits";
      return false;
    }
    return true;
  }
  if (auto da = dyn_cast<DenseIntOrFPElementsAttr>(a)) {
    auto db = dyn_cast<DenseIntOrFPElementsAttr>(b);
    if (!db || da.isSplat() != db.isSplat() || da.getRawData() != db.getRawData()) {
      why = "elements '" + show(a) + "' read back with other data or splat form";
      return false;
    }
    return true;
  }
  if (auto ra = dyn_cast<DenseResourceElementsAttr>(a)) {
    auto rb = dyn_cast<DenseResourceElementsAttr>(b);
    AsmResourceBlob *blobA = ra ? ra.getRawHandle().getBlob() : nullptr;
    AsmResourceBlob *blobB = rb ? rb.getRawHandle().getBlob() : nullptr;
    if (!blobA || !blobB || blobA->getData() != blobB->getData() ||
        ra.getType().getNumElements() != rb.getType().getNumElements()) {
      why = "resource '" + show(a) + "' reads back with other data";
      return false;
    }
    return true;
  }
  if (auto la = dyn_cast<ArrayAttr>(a)) {
    auto lb = cast<ArrayAttr>(b);
    for (auto [x, y] : llvm::zip(la.getValue(), lb.getValue()))
      if (!sameBits(x, y, why))
        return false;
    return true;
  }
  if (auto ma = dyn_cast<DictionaryAttr>(a)) {
    // Entries the reader adds are defaults some builders leave out (linalg.matmul's
    // indexing_maps); every entry of the original must read back with its bits.
    auto mb = cast<DictionaryAttr>(b);
    for (NamedAttribute entry : ma.getValue()) {
      Attribute twin = mb.get(entry.getName().getValue());
      if (!twin && isEmpty(entry.getValue()))
        continue;
      if (!twin) {
        why = entry.getName().str() + " is lost";
        return false;
      }
      if (!sameBits(entry.getValue(), twin, why)) {
        why = entry.getName().str() + ": " + why;
        return false;
      }
    }
    return true;
  }
  return true;
}

/// The first op of `a` whose attributes differ in bits from its twin in `b` (the two
/// print alike), named with its attribute, or a generic reason.
static std::string attributeDifference(Operation *a, Operation *b) {
  SmallVector<Operation *> left, right;
  a->walk<WalkOrder::PreOrder>([&](Operation *op) { left.push_back(op); });
  b->walk<WalkOrder::PreOrder>([&](Operation *op) { right.push_back(op); });
  for (auto [x, y] : llvm::zip(left, right)) {
    std::string why;
    auto attributes = [](Operation *op) {
      SmallVector<NamedAttribute> all(op->getDiscardableAttrs());
      if (auto properties = dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
        llvm::append_range(all, properties.getValue());
      return DictionaryAttr::get(op->getContext(), all);
    };
    if (x->getName().getStringRef() != y->getName().getStringRef())
      return "op '" + x->getName().getStringRef().str() + "' reads back as '" +
             y->getName().getStringRef().str() + "'";
    if (!sameBits(attributes(x), attributes(y), why))
      return "'" + x->getName().getStringRef().str() + "': " + why;
  }
  if (left.size() != right.size())
    return "the copy has " + std::to_string(right.size()) + " ops, the original " +
           std::to_string(left.size());
  return {};
}

namespace {
/// Reads copies of a module, each into a context of its own: in a shared one, a second
/// copy of a dense_resource blob would be renamed (w0 -> w0_1) to keep names unique.
struct CopyReader {
  MLIRContext *original;
  std::unique_ptr<MLIRContext> context;
  std::string diagnostics;

  OwningOpRef<Operation *> read(StringRef source) {
    context = std::make_unique<MLIRContext>(original->getDialectRegistry(),
                                            MLIRContext::Threading::DISABLED);
    context->allowUnregisteredDialects(original->allowsUnregisteredDialects());
    diagnostics.clear();
    ScopedDiagnosticHandler collect(context.get(), [&](Diagnostic &diagnostic) {
      if (diagnostics.empty())
        diagnostics = diagnostic.str();
      return success();
    });
    ParserConfig config(context.get());
    return parseSourceString(source, config);
  }
};
} // namespace

/// Compares `copy` (read back from `text`, printed from `module` with `flags`) with
/// `module`: the same text again, and every attribute with its bits.
static std::string difference(Operation *module, Operation *copy, StringRef text,
                              OpPrintingFlags flags) {
  std::string again = printed(copy, flags);
  if (again != text)
    return firstDifference(text, again);
  return attributeDifference(module, copy);
}

LogicalResult glow::verifyRoundTrip(Operation *module, std::string &error) {
  CopyReader reader{module->getContext(), nullptr, {}};
  for (bool generic : {false, true}) {
    OpPrintingFlags flags;
    if (generic)
      flags.printGenericOpForm();
    std::string text = printed(module, flags);
    const char *form = generic ? "generic text" : "text";
    OwningOpRef<Operation *> copy = reader.read(text);
    if (!copy) {
      error = std::string(form) + " does not parse back: " + reader.diagnostics;
      return failure();
    }
    std::string why = difference(module, copy.get(), text, flags);
    if (!why.empty()) {
      error = std::string(form) + " is lossy: " + why;
      return failure();
    }
  }

  std::string bytecode;
  {
    llvm::raw_string_ostream stream(bytecode);
    if (failed(glow::writePortableBytecode(module, stream))) {
      error = "the module cannot be written as portable bytecode";
      return failure();
    }
  }
  OwningOpRef<Operation *> copy = reader.read(bytecode);
  if (!copy) {
    error = "portable bytecode does not read back: " + reader.diagnostics;
    return failure();
  }
  std::string why = difference(module, copy.get(), printed(module, {}), {});
  if (!why.empty()) {
    error = "portable bytecode is lossy: " + why;
    return failure();
  }
  return success();
}

namespace {
/// `glow-verify-roundtrip`: fails with a located error when the op it runs on does
/// not survive glow::verifyRoundTrip. glow-opt appends it to the pipeline for
/// `--verify-roundtrip`.
struct VerifyRoundTripPass : public PassWrapper<VerifyRoundTripPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyRoundTripPass)

  StringRef getArgument() const final { return "glow-verify-roundtrip"; }
  StringRef getDescription() const final {
    return "Check that the IR reads back bit for bit from text, generic text and "
           "Glow's portable bytecode";
  }
  void runOnOperation() override {
    std::string error;
    if (failed(glow::verifyRoundTrip(getOperation(), error))) {
      // At the op's location, without MLIR's note that prints the whole module.
      mlir::emitError(getOperation()->getLoc(), "round trip failed: ") << error;
      signalPassFailure();
    }
  }
};
} // namespace

std::unique_ptr<Pass> glow::createVerifyRoundTripPass() {
  return std::make_unique<VerifyRoundTripPass>();
}

void glowRegisterVerifyRoundTripPass() { PassRegistration<VerifyRoundTripPass>(); }

MlirLogicalResult glowVerifyRoundTrip(MlirOperation module, MlirStringCallback callback,
                                      void *userData) {
  std::string error;
  if (succeeded(glow::verifyRoundTrip(unwrap(module), error)))
    return wrap(success());
  callback(mlirStringRefCreate(error.data(), error.size()), userData);
  return wrap(failure());
}
