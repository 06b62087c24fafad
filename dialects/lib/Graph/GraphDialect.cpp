//===- GraphDialect.cpp - glow.graph registration and constants ----------===//

#include "glow/Graph/Graph.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::glow::graph;

#include "glow/Graph/GraphDialect.cpp.inc"

namespace {
/// Every op of the dialect may be inlined: none depends on the function it sits in
/// (the int8 micro-kernels, calls to functions holding `dot4`, are inlined into the
/// model so their scratch buffers join the planned arena).
struct InlineEverything : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }
};
} // namespace

void GlowGraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "glow/Graph/GraphOps.cpp.inc"
      >();
  addInterfaces<InlineEverything>();
}

/// Folders return constant attributes; this turns them back into glow.graph.constant.
Operation *GlowGraphDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                                 Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
