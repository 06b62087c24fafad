//===- QuantOps.cpp - glow.quant registration and verifiers --------------===//
//
// quantize / dequantize / rescale check that one side is a float tensor and the other
// a tensor of `!quant.uniform` (or per-axis) elements over the same shape and
// expressed type.
//
//===----------------------------------------------------------------------===//

#include "glow/Quant/Quant.h"
#include "glow/Graph/Geometry.h"

#include "mlir/IR/Builders.h"
#include "glow/InlineEverything.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::glow::quant;
using namespace mlir::glow::geometry;

#include "glow/Quant/QuantDialect.cpp.inc"

void GlowQuantDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "glow/Quant/QuantOps.cpp.inc"
      >();
  addInterfaces<mlir::glow::InlineEverything>();
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

//===----------------------------------------------------------------------===//
// Quantized compute
//===----------------------------------------------------------------------===//

namespace {

using ::mlir::quant::QuantizedType;
using ::mlir::quant::UniformQuantizedPerAxisType;
using ::mlir::quant::UniformQuantizedType;

RankedTensorType tensorOf(Value value) { return cast<RankedTensorType>(value.getType()); }

/// A per-tensor uniform element of `value` with a `widths`-bit storage, or an error.
FailureOr<UniformQuantizedType> perTensor(Operation *op, StringRef what, Value value,
                                          ArrayRef<unsigned> widths) {
  auto element = quantizedElement(op, what, tensorOf(value));
  if (failed(element))
    return failure();
  auto uniform = dyn_cast<UniformQuantizedType>(*element);
  if (!uniform) {
    op->emitOpError() << what << " must be quantized per tensor, got " << value.getType();
    return failure();
  }
  if (!llvm::is_contained(widths, uniform.getStorageTypeIntegralWidth())) {
    op->emitOpError() << what << " must have a storage of "
                      << (widths.size() == 1 ? std::to_string(widths[0])
                                             : std::string("8 or 32"))
                      << " bits, got " << value.getType();
    return failure();
  }
  return uniform;
}

/// An 8-bit weight element quantized per tensor or per axis `axis`, or an error.
LogicalResult weightElement(Operation *op, StringRef what, Value value, int32_t axis) {
  auto element = quantizedElement(op, what, tensorOf(value));
  if (failed(element))
    return failure();
  if (element->getStorageTypeIntegralWidth() != 8)
    return op->emitOpError() << what << " must have an 8-bit storage, got "
                             << value.getType();
  if (auto perAxis = dyn_cast<UniformQuantizedPerAxisType>(*element)) {
    if (perAxis.getQuantizedDimension() != axis)
      return op->emitOpError() << what << " may be quantized per axis " << axis
                               << " only, got " << value.getType();
  } else if (!isa<UniformQuantizedType>(*element)) {
    return op->emitOpError() << what << " must have a uniform quantized type, got "
                             << value.getType();
  }
  return success();
}

/// The int32 bias of `count` elements (per tensor or per axis 0).
LogicalResult biasElement(Operation *op, Value bias, int64_t count) {
  auto type = tensorOf(bias);
  if (type.getRank() != 1 || type.getDimSize(0) != count)
    return op->emitOpError("'bias' must be a 1-D tensor of ")
           << count << " elements, got " << type;
  auto element = quantizedElement(op, "bias", type);
  if (failed(element))
    return failure();
  if (element->getStorageTypeIntegralWidth() != 32)
    return op->emitOpError("'bias' must have a 32-bit storage, got ") << type;
  return success();
}

/// Every quantized operand and the result express the same float type.
LogicalResult sameExpressed(Operation *op) {
  Type expressed;
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto element = dyn_cast<QuantizedType>(tensorOf(value).getElementType());
    if (!element)
      continue;
    if (!expressed)
      expressed = element.getExpressedType();
    else if (element.getExpressedType() != expressed)
      return op->emitOpError("operands and result must express one float type, got ")
             << expressed << " and " << element.getExpressedType();
  }
  return success();
}

LogicalResult checkClamp(Operation *op, std::optional<APFloat> min,
                         std::optional<APFloat> max) {
  if (min && max && min->convertToDouble() > max->convertToDouble())
    return op->emitOpError("'min' ") << min->convertToDouble() << " exceeds 'max' "
                                     << max->convertToDouble();
  return success();
}

LogicalResult checkShape(Operation *op, ArrayRef<int64_t> expected, RankedTensorType result) {
  if (result.getShape() != expected)
    return op->emitOpError("result shape must be ")
           << formatList(expected) << ", got " << result;
  return success();
}

} // namespace

LogicalResult QuantConv2DOp::verify() {
  auto input = tensorOf(getInput()), filter = tensorOf(getFilter()), result = getType();
  if (failed(perTensor(*this, "input", getInput(), {8})) ||
      failed(weightElement(*this, "filter", getFilter(), 0)) ||
      failed(perTensor(*this, "result", getResult(), {8, 32})) ||
      failed(sameExpressed(*this)) || failed(checkClamp(*this, getMin(), getMax())))
    return failure();
  if (input.getRank() != 4 || filter.getRank() != 4)
    return emitOpError("input and filter must have rank 4, got ") << input << " and " << filter;
  Window window{filter.getShape().drop_front(2), getStrides(), getPads(), getDilations()};
  SmallVector<Type> inferred;
  if (failed(window.infer(getLoc(), input, filter.getDimSize(0), result.getElementType(),
                          getChannelsLast(), inferred)))
    return failure();
  if (failed(checkShape(*this, cast<RankedTensorType>(inferred[0]).getShape(), result)))
    return failure();
  int64_t group = getGroup();
  int64_t channels = input.getDimSize(getChannelsLast() ? 3 : 1);
  int64_t filters = filter.getDimSize(0);
  if (group < 1 || channels % group != 0 || filters % group != 0 ||
      filter.getDimSize(1) * group != channels)
    return emitOpError("'group' ") << group << " does not split " << channels
                                   << " input channels and " << filters
                                   << " filters of " << filter.getDimSize(1) << " channels";
  if (getBias() && failed(biasElement(*this, getBias(), filters)))
    return failure();
  return success();
}

LogicalResult QuantFullyConnectedOp::verify() {
  auto input = tensorOf(getInput()), weights = tensorOf(getWeights());
  if (failed(perTensor(*this, "input", getInput(), {8})) ||
      failed(weightElement(*this, "weights", getWeights(), 1)) ||
      failed(perTensor(*this, "result", getResult(), {8, 32})) ||
      failed(sameExpressed(*this)) || failed(checkClamp(*this, getMin(), getMax())))
    return failure();
  if (input.getRank() != 2 || weights.getRank() != 2 ||
      input.getDimSize(1) != weights.getDimSize(0))
    return emitOpError("input and weights must be M x K and K x N, got ")
           << input << " and " << weights;
  if (failed(checkShape(*this, {input.getDimSize(0), weights.getDimSize(1)}, getType())))
    return failure();
  if (getBias() && failed(biasElement(*this, getBias(), weights.getDimSize(1))))
    return failure();
  return success();
}

LogicalResult QuantBatchMatMulOp::verify() {
  auto lhs = tensorOf(getLhs()), rhs = tensorOf(getRhs());
  if (failed(perTensor(*this, "lhs", getLhs(), {8})) ||
      failed(perTensor(*this, "rhs", getRhs(), {8})) ||
      failed(perTensor(*this, "result", getResult(), {8, 32})) || failed(sameExpressed(*this)))
    return failure();
  if (lhs.getRank() != 3 || rhs.getRank() != 3 || lhs.getDimSize(0) != rhs.getDimSize(0) ||
      lhs.getDimSize(2) != rhs.getDimSize(1))
    return emitOpError("operands must be B x M x K and B x K x N, got ") << lhs << " and "
                                                                         << rhs;
  return checkShape(*this, {lhs.getDimSize(0), lhs.getDimSize(1), rhs.getDimSize(2)},
                    getType());
}

/// add / mul: three 8-bit per-tensor types over one shape.
template <typename BinaryOp>
static LogicalResult verifyQuantBinary(BinaryOp op) {
  if (failed(perTensor(op, "lhs", op.getLhs(), {8})) ||
      failed(perTensor(op, "rhs", op.getRhs(), {8})) ||
      failed(perTensor(op, "result", op.getResult(), {8})) || failed(sameExpressed(op)) ||
      failed(checkClamp(op, op.getMin(), op.getMax())))
    return failure();
  auto shape = tensorOf(op.getLhs()).getShape();
  if (tensorOf(op.getRhs()).getShape() != shape)
    return op.emitOpError("operands must have one shape, got ")
           << op.getLhs().getType() << " and " << op.getRhs().getType();
  return checkShape(op, shape, op.getType());
}

LogicalResult QuantAddOp::verify() { return verifyQuantBinary(*this); }
LogicalResult QuantMulOp::verify() { return verifyQuantBinary(*this); }

LogicalResult QuantAvgPoolOp::verify() {
  auto input = tensorOf(getInput());
  if (failed(perTensor(*this, "input", getInput(), {8})) ||
      failed(perTensor(*this, "result", getResult(), {8})) || failed(sameExpressed(*this)))
    return failure();
  if (input.getRank() != 4)
    return emitOpError("input must have rank 4, got ") << input;
  Window window{getKernel(), getStrides(), getPads(), ArrayRef<int64_t>(mlir::glow::graph::kUnitPair)};
  SmallVector<Type> inferred;
  int64_t channels = input.getDimSize(getChannelsLast() ? 3 : 1);
  if (failed(window.infer(getLoc(), input, channels, getType().getElementType(),
                          getChannelsLast(), inferred)))
    return failure();
  return checkShape(*this, cast<RankedTensorType>(inferred[0]).getShape(), getType());
}

LogicalResult QuantLookupTableOp::verify() {
  auto input = perTensor(*this, "input", getInput(), {8});
  auto result = perTensor(*this, "result", getResult(), {8});
  if (failed(input) || failed(result) || failed(sameExpressed(*this)))
    return failure();
  if (getInput().getType().getShape() != getType().getShape())
    return emitOpError("shapes differ: ") << getInput().getType() << " vs " << getType();
  auto table = getTable();
  auto tableType = dyn_cast<RankedTensorType>(table.getShapedType());
  auto integer = tableType ? dyn_cast<IntegerType>(tableType.getElementType()) : IntegerType();
  if (!tableType || tableType.getRank() != 1 || tableType.getDimSize(0) != 256 || !integer ||
      integer.getWidth() != 8)
    return emitOpError("'table' must hold 256 8-bit integers, got ") << table.getType();
  return success();
}

LogicalResult QuantDot4Op::verify() {
  auto lanes = getAccumulator().getType().getDimSize(0);
  auto bytes = getLhs().getType().getDimSize(0);
  if (bytes != 4 * lanes)
    return emitOpError("operands must have 4 bytes per accumulator lane: ")
           << bytes << " bytes for " << lanes << " lanes";
  return success();
}

#define GET_OP_CLASSES
#include "glow/Quant/QuantOps.cpp.inc"
