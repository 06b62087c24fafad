//===- InstrOps.cpp - glow.instr registration and verifiers --------------===//
//
// Buffers must be statically shaped memrefs with the identity layout; planned offsets
// are non-negative multiples of Glow's 64-byte alignment; views stay inside their
// source buffer.
//
//===----------------------------------------------------------------------===//

#include "glow/Instr/Instr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::glow::instr;

#include "glow/Instr/InstrDialect.cpp.inc"
#include "glow/Instr/InstrEnums.cpp.inc"

void GlowInstrDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "glow/Instr/InstrOps.cpp.inc"
      >();
}

namespace {

/// Glow aligned every buffer to 64 bytes; the planner keeps that.
constexpr int64_t kAlignment = 64;

LogicalResult verifyOffset(Operation *op, std::optional<int64_t> offset) {
  if (!offset)
    return success();
  if (*offset < 0 || *offset % kAlignment != 0)
    return op->emitOpError("'offset' ")
           << *offset << " must be a non-negative multiple of " << kAlignment;
  return success();
}

LogicalResult verifyIdentityLayout(Operation *op, MemRefType type) {
  if (!type.getLayout().isIdentity())
    return op->emitOpError("buffer ") << type << " must have the identity layout";
  return success();
}

} // namespace

LogicalResult AllocActivationOp::verify() {
  if (failed(verifyIdentityLayout(*this, getType())))
    return failure();
  return verifyOffset(*this, getOffset());
}

LogicalResult DeallocActivationOp::verify() {
  if (!getBuffer().getDefiningOp<AllocActivationOp>())
    return emitOpError("operand must be the result of glow.instr.alloc_activation");
  return success();
}

LogicalResult WeightOp::verify() {
  if (getName().empty())
    return emitOpError("'name' must not be empty");
  if (failed(verifyIdentityLayout(*this, getType())))
    return failure();
  return verifyOffset(*this, getOffset());
}

LogicalResult TensorViewOp::verify() {
  MemRefType source = getSource().getType(), result = getType();
  ArrayRef<int64_t> offsets = getOffsets();
  if (static_cast<int64_t>(offsets.size()) != source.getRank())
    return emitOpError("has ") << offsets.size() << " offsets for a source of rank "
                               << source.getRank();
  if (source.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << source.getElementType() << " to " << result.getElementType();
  if (failed(verifyIdentityLayout(*this, result)))
    return failure();
  // Row-major linear start of the view, then the view must end inside the source.
  int64_t start = 0;
  for (int64_t d = 0; d < source.getRank(); ++d) {
    if (offsets[d] < 0 || offsets[d] >= std::max<int64_t>(source.getDimSize(d), 1))
      return emitOpError("offset ") << offsets[d] << " is out of bounds for dimension "
                                    << d << " of " << source;
    start = start * source.getDimSize(d) + offsets[d];
  }
  if (start + result.getNumElements() > source.getNumElements())
    return emitOpError("view of ")
           << result.getNumElements() << " elements at element " << start
           << " runs past the end of " << source << " (" << source.getNumElements()
           << " elements)";
  return success();
}

Value TensorViewOp::getViewSource() { return getSource(); }

#define GET_OP_CLASSES
#include "glow/Instr/InstrOps.cpp.inc"
