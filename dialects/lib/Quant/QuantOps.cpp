//===- QuantOps.cpp - glow.quant registration and verifiers --------------===//
//
// quantize / dequantize / rescale check that one side is a float tensor and the other
// a tensor of `!quant.uniform` (or per-axis) elements over the same shape and
// expressed type.
//
//===----------------------------------------------------------------------===//

#include "glow/Quant/Quant.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::glow::quant;

#include "glow/Quant/QuantDialect.cpp.inc"

void GlowQuantDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "glow/Quant/QuantOps.cpp.inc"
      >();
}

namespace {

/// The quantized element type of `type`, or a located error naming `what`.
FailureOr<::mlir::quant::QuantizedType> quantizedElement(Operation *op, StringRef what,
                                                        ShapedType type) {
  auto element = dyn_cast<::mlir::quant::QuantizedType>(type.getElementType());
  if (!element) {
    op->emitOpError() << what << " must have a !quant element type, got " << type;
    return failure();
  }
  if (auto perAxis = dyn_cast<::mlir::quant::UniformQuantizedPerAxisType>(element)) {
    int32_t axis = perAxis.getQuantizedDimension();
    if (axis >= type.getRank() ||
        type.getDimSize(axis) != static_cast<int64_t>(perAxis.getScales().size())) {
      op->emitOpError() << what << " " << type << " has "
                        << perAxis.getScales().size()
                        << " per-axis scales, which does not match dimension " << axis;
      return failure();
    }
  }
  return element;
}

/// Float <-> quantized: same shape, and the quantized type expresses the float type.
LogicalResult verifyConversion(Operation *op, ShapedType floatType,
                               ShapedType quantizedType, StringRef quantizedName) {
  auto element = quantizedElement(op, quantizedName, quantizedType);
  if (failed(element))
    return failure();
  if (floatType.getShape() != quantizedType.getShape())
    return op->emitOpError("shapes differ: ") << floatType << " vs " << quantizedType;
  if (element->getExpressedType() != floatType.getElementType())
    return op->emitOpError("quantized type expresses ")
           << element->getExpressedType() << " but the float side is "
           << floatType.getElementType();
  return success();
}

} // namespace

LogicalResult QuantizeOp::verify() {
  return verifyConversion(*this, getInput().getType(), getType(), "result");
}

LogicalResult DequantizeOp::verify() {
  return verifyConversion(*this, getType(), getInput().getType(), "input");
}

/// dequantize(quantize(x)) is not x (rounding), so only the exact inverse folds:
/// nothing here. Dequantizing a value that was just rescaled skips the rescale.
OpFoldResult DequantizeOp::fold(FoldAdaptor) {
  if (auto rescale = getInput().getDefiningOp<RescaleOp>()) {
    getInputMutable().assign(rescale.getInput());
    return getResult();
  }
  return {};
}

LogicalResult RescaleOp::verify() {
  auto input = getInput().getType(), result = getType();
  auto from = quantizedElement(*this, "input", input);
  auto to = quantizedElement(*this, "result", result);
  if (failed(from) || failed(to))
    return failure();
  if (input.getShape() != result.getShape())
    return emitOpError("shapes differ: ") << input << " vs " << result;
  if (from->getExpressedType() != to->getExpressedType())
    return emitOpError("input expresses ")
           << from->getExpressedType() << " but the result expresses "
           << to->getExpressedType();
  return success();
}

/// rescale to the same type is a no-op; rescale(rescale(x)) rescales x once.
OpFoldResult RescaleOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<RescaleOp>()) {
    if (inner.getInput().getType() == getType())
      return inner.getInput();
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

LogicalResult ProfileOp::verify() {
  if (getName().empty())
    return emitOpError("'name' must not be empty: it keys the profile");
  if (getBins() < 1)
    return emitOpError("'bins' must be positive, got ") << getBins();
  return success();
}

#define GET_OP_CLASSES
#include "glow/Quant/QuantOps.cpp.inc"
