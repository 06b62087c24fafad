//===- PortableBytecode.h - bytecode for modules of the Glow dialects -*- C++ -*-===//
#ifndef GLOW_PORTABLEBYTECODE_H
#define GLOW_PORTABLEBYTECODE_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::glow {

/// Writes `module` as MLIR bytecode that reads back into the same module although
/// the Glow dialects' namespaces hold dots (MLIR 22's writer would split
/// `glow.graph.relu` as glow.graph + graph.relu).
LogicalResult writePortableBytecode(Operation *module, raw_ostream &os);

} // namespace mlir::glow

#endif // GLOW_PORTABLEBYTECODE_H
