//===- Graph.h - the glow.graph dialect and its ops -------------*- C++ -*-===//
#ifndef GLOW_GRAPH_GRAPH_H
#define GLOW_GRAPH_GRAPH_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::glow::graph {
/// Attribute defaults shared by the ODS definitions and type inference.
inline constexpr int64_t kUnitPair[] = {1, 1};
inline constexpr int64_t kNoPads[] = {0, 0, 0, 0};
inline constexpr int64_t kZeroPair[] = {0, 0};
} // namespace mlir::glow::graph

#include "glow/Graph/GraphDialect.h.inc"

#define GET_OP_CLASSES
#include "glow/Graph/GraphOps.h.inc"

#endif // GLOW_GRAPH_GRAPH_H
