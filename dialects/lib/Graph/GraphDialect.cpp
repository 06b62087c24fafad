//===- GraphDialect.cpp - glow.graph registration and constants ----------===//

#include "glow/Graph/Graph.h"

#include "mlir/IR/Builders.h"
#include "glow/InlineEverything.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::glow::graph;

#include "glow/Graph/GraphDialect.cpp.inc"

void GlowGraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "glow/Graph/GraphOps.cpp.inc"
      >();
  addInterfaces<mlir::glow::InlineEverything>();
}

/// Folders return constant attributes; this turns them back into glow.graph.constant.
Operation *GlowGraphDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                                 Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
