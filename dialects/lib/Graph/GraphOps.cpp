//===- GraphOps.cpp - glow.graph verifiers, type inference, folders ------===//
//
// Shape rules follow Glow's node definitions (NCHW convolution and pooling, 2-D
// matmul / fully_connected, explicit broadcasts). Every rule reports a located error
// naming the operand or attribute at fault.
//
//===----------------------------------------------------------------------===//

#include "glow/Graph/Graph.h"
#include "glow/Graph/Geometry.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/Error.h"

#include <cmath>
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::glow::graph;
using namespace mlir::glow::geometry;

namespace {

RankedTensorType tensorOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

LogicalResult checkRank(std::optional<Location> loc, StringRef what,
                        RankedTensorType type, int64_t rank) {
  if (type.getRank() != rank)
    return emitOptionalError(loc, "'", what, "' must have rank ", rank, ", got ",
                             type);
  return success();
}

/// The per-element-count numbers of a 1-D per-channel operand.
LogicalResult checkVector(Operation *op, StringRef what, Value value, int64_t size,
                          Type elementType) {
  auto type = tensorOf(value);
  if (type.getRank() != 1 || type.getDimSize(0) != size)
    return op->emitOpError("'") << what << "' must be a 1-D tensor of " << size
                                << " elements, got " << type;
  if (type.getElementType() != elementType)
    return op->emitOpError("'") << what << "' element type " << type.getElementType()
                                << " does not match " << elementType;
  return success();
}

/// Runs an op's type inference with its location, so shape errors are reported with
/// their own message before MLIR's generic "failed to infer returned types" (the
/// interface's check runs after verify() and passes no location).
template <typename OpT>
LogicalResult verifyInference(OpT op) {
  SmallVector<Type> types;
  return OpT::inferReturnTypes(op.getContext(), op.getLoc(), typename OpT::Adaptor(op),
                               types);
}

} // namespace

//===----------------------------------------------------------------------===//
// constant / splat
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult SplatOp::verify() {
  Type element = getType().getElementType();
  if (getValue().getType() != element)
    return emitOpError("value of type ")
           << getValue().getType() << " does not match the element type " << element;
  if (!isa<IntegerAttr, FloatAttr>(getValue()))
    return emitOpError("value must be an integer or float scalar");
  return success();
}

/// The float `spelling` (an optional '-' and a number token) in `semantics`, as
/// MLIR's own attribute parser reads it: a hexadecimal literal is the bit pattern
/// (how the printer writes inf, NaN payloads and values without a short decimal
/// form), anything else a decimal rounded once, to nearest even, in the target type.
static FailureOr<APFloat> parseFloatSpelling(OpAsmParser &parser, SMLoc loc,
                                             StringRef spelling,
                                             const llvm::fltSemantics &semantics) {
  bool negative = spelling.consume_front("-");
  spelling = spelling.ltrim();
  if (spelling.starts_with_insensitive("0x")) {
    if (negative)
      return parser.emitError(loc, "hexadecimal float literal should not have a leading "
                                   "minus (the sign is part of the bit pattern)");
    APInt bits;
    unsigned width = APFloat::getSizeInBits(semantics);
    if (spelling.drop_front(2).getAsInteger(16, bits) || bits.getActiveBits() > width)
      return parser.emitError(loc, "hexadecimal float literal does not fit in ")
             << width << " bits";
    return APFloat(semantics, bits.zextOrTrunc(width));
  }
  APFloat value(semantics);
  auto status = value.convertFromString(spelling, APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return parser.emitError(loc, "invalid float literal '") << spelling << "'";
  }
  if (negative)
    value.changeSign();
  return value;
}

/// `glow.graph.splat 0.5 : tensor<4xf32>`: the literal takes the element type. Float
/// literals are read from their spelling once the type is known, so every value the
/// printer writes (decimal, or hexadecimal bits for -inf, NaN, ...) reads back to the
/// same bits.
ParseResult SplatOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc literalLoc = parser.getCurrentLocation();
  APInt integer;
  double real = 0;
  std::optional<bool> boolean;
  if (succeeded(parser.parseOptionalKeyword("true")))
    boolean = true;
  else if (succeeded(parser.parseOptionalKeyword("false")))
    boolean = false;
  // The sign is parsed here: parseOptionalInteger would consume '-' and then reject
  // a float literal such as -1.0e+04.
  bool negative = !boolean && succeeded(parser.parseOptionalMinus());
  OptionalParseResult isInteger =
      boolean ? OptionalParseResult(std::nullopt) : parser.parseOptionalInteger(integer);
  if (isInteger.has_value() && failed(*isInteger))
    return failure();
  if (!boolean && !isInteger.has_value() && parser.parseFloat(real))
    return failure();
  // The literal as written: from its first character to the next token.
  const char *literalEnd = parser.getCurrentLocation().getPointer();
  StringRef spelling =
      StringRef(literalLoc.getPointer(), literalEnd - literalLoc.getPointer()).trim();
  if (negative && isInteger.has_value()) {
    integer = integer.sext(integer.getBitWidth() + 1);
    integer.negate();
  }
  RankedTensorType type;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColonType(type))
    return failure();

  Type element = type.getElementType();
  TypedAttr value;
  if (auto floatType = dyn_cast<FloatType>(element)) {
    if (boolean)
      return parser.emitError(literalLoc, "boolean literal for element type ") << element;
    FailureOr<APFloat> parsed =
        parseFloatSpelling(parser, literalLoc, spelling, floatType.getFloatSemantics());
    if (failed(parsed))
      return failure();
    value = FloatAttr::get(floatType, *parsed);
  } else if (auto intType = dyn_cast<IntegerType>(element)) {
    unsigned width = intType.getWidth();
    if (boolean) {
      integer = APInt(width, *boolean ? 1 : 0);
    } else if (!isInteger.has_value()) {
      return parser.emitError(literalLoc, "float literal for element type ") << element;
    } else if (integer.getSignificantBits() > width + (integer.isNonNegative() ? 1 : 0)) {
      return parser.emitError(literalLoc, "literal does not fit in ") << element;
    }
    value = IntegerAttr::get(intType, integer.sextOrTrunc(width));
  } else {
    return parser.emitError(literalLoc, "splat needs an integer or float element type, got ")
           << element;
  }
  result.addAttribute(getValueAttrName(result.name), value);
  result.addTypes(type);
  return success();
}

void SplatOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttributeWithoutType(getValue());
  printer.printOptionalAttrDict((*this)->getAttrs(), {getValueAttrName()});
  printer << " : " << getType();
}

OpFoldResult SplatOp::fold(FoldAdaptor) {
  return SplatElementsAttr::get(getType(), getValue());
}

//===----------------------------------------------------------------------===//
// resize: `scales [..]` and `roi [..]` with exact float literals
//===----------------------------------------------------------------------===//

static ParseResult parseExactFloats(OpAsmParser &parser, DenseF64ArrayAttr &attribute) {
  SmallVector<double> values;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
        APFloat value(0.0);
        if (parser.parseFloat(APFloat::IEEEdouble(), value))
          return failure();
        values.push_back(value.convertToDouble());
        return success();
      }))
    return failure();
  attribute = DenseF64ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printExactFloats(OpAsmPrinter &printer, Operation *, DenseF64ArrayAttr attribute) {
  printer << '[';
  llvm::interleaveComma(attribute.asArrayRef(), printer,
                        [&](double value) { printer.printFloat(APFloat(value)); });
  printer << ']';
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  auto filter = tensorOf(adaptor.getFilter());
  if (failed(checkRank(loc, "input", input, 4)) ||
      failed(checkRank(loc, "filter", filter, 4)))
    return failure();
  ArrayRef<int64_t> kernel = filter.getShape().drop_front(2);
  Window window{kernel, orDefault(adaptor.getStridesAttr(), kUnitPair),
                orDefault(adaptor.getPadsAttr(), kNoPads),
                orDefault(adaptor.getDilationsAttr(), kUnitPair)};
  return window.infer(loc, input, filter.getDimSize(0), input.getElementType(),
                      static_cast<bool>(adaptor.getChannelsLastAttr()), types);
}

LogicalResult Conv2DOp::verify() {
  if (failed(verifyInference(*this)))
    return failure();
  auto input = tensorOf(getInput());
  auto filter = tensorOf(getFilter());
  int64_t group = getGroup();
  if (group < 1)
    return emitOpError("'group' must be positive, got ") << group;
  int64_t channels = input.getDimSize(getChannelsLast() ? 3 : 1);
  int64_t filters = filter.getDimSize(0);
  if (channels % group != 0 || filters % group != 0)
    return emitOpError("'group' ")
           << group << " must divide the input channels (" << channels
           << ") and the filter count (" << filters << ")";
  if (filter.getDimSize(1) * group != channels)
    return emitOpError("filter has ")
           << filter.getDimSize(1) << " channels per group but the input has "
           << channels << " channels in " << group << " group(s)";
  if (filter.getElementType() != input.getElementType())
    return emitOpError("filter element type ")
           << filter.getElementType() << " does not match input element type "
           << input.getElementType();
  if (getBias() &&
      failed(checkVector(*this, "bias", getBias(), filters, input.getElementType())))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// conv_transpose2d
//===----------------------------------------------------------------------===//

LogicalResult ConvTranspose2DOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                                  Adaptor adaptor,
                                                  SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  auto filter = tensorOf(adaptor.getFilter());
  if (failed(checkRank(loc, "input", input, 4)) ||
      failed(checkRank(loc, "filter", filter, 4)))
    return failure();
  ArrayRef<int64_t> kernel = filter.getShape().drop_front(2);
  Window window{kernel, orDefault(adaptor.getStridesAttr(), kUnitPair),
                orDefault(adaptor.getPadsAttr(), kNoPads),
                orDefault(adaptor.getDilationsAttr(), kUnitPair)};
  ArrayRef<int64_t> outputPadding = orDefault(adaptor.getOutputPaddingAttr(), kZeroPair);
  if (failed(window.check(loc)) ||
      failed(checkCount(loc, "output_padding", outputPadding, 2)) ||
      failed(checkNonNegative(loc, "output_padding", outputPadding)))
    return failure();
  int64_t group = adaptor.getGroupAttr() ? adaptor.getGroup() : 1;
  if (group < 1)
    return emitOptionalError(loc, "'group' must be positive, got ", group);
  SmallVector<int64_t> shape{input.getDimSize(0), filter.getDimSize(1) * group};
  for (int d = 0; d < 2; ++d) {
    int64_t extent = window.strides[d] * (input.getDimSize(2 + d) - 1) + outputPadding[d] +
                     window.dilations[d] * (kernel[d] - 1) + 1 - window.pads[d] -
                     window.pads[d + 2];
    if (extent < 1)
      return emitOptionalError(loc, "the padding leaves no output in dimension ", 2 + d);
    shape.push_back(extent);
  }
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult ConvTranspose2DOp::verify() {
  if (failed(verifyInference(*this)))
    return failure();
  auto input = tensorOf(getInput()), filter = tensorOf(getFilter());
  int64_t group = getGroup();
  if (filter.getDimSize(0) != input.getDimSize(1))
    return emitOpError("filter ") << filter << " must have one slice per input channel ("
                                  << input.getDimSize(1) << ")";
  if (input.getDimSize(1) % group != 0)
    return emitOpError("'group' ") << group << " must divide the input channels ("
                                   << input.getDimSize(1) << ")";
  if (filter.getElementType() != input.getElementType())
    return emitOpError("filter element type ")
           << filter.getElementType() << " does not match input element type "
           << input.getElementType();
  if (getBias() && failed(checkVector(*this, "bias", getBias(), getType().getDimSize(1),
                                      input.getElementType())))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// pooling
//===----------------------------------------------------------------------===//

template <typename PoolOp>
static LogicalResult inferPool(std::optional<Location> loc,
                               typename PoolOp::Adaptor adaptor,
                               SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  if (failed(checkRank(loc, "input", input, 4)))
    return failure();
  if (!adaptor.getKernelAttr())
    return emitOptionalError(loc, "requires attribute 'kernel'");
  Window window{adaptor.getKernel(), orDefault(adaptor.getStridesAttr(), kUnitPair),
                orDefault(adaptor.getPadsAttr(), kNoPads),
                orDefault(adaptor.getDilationsAttr(), kUnitPair)};
  bool channelsLast = static_cast<bool>(adaptor.getChannelsLastAttr());
  return window.infer(loc, input, input.getDimSize(channelsLast ? 3 : 1),
                      input.getElementType(), channelsLast, types);
}

/// Padding at least as large as the (undilated) window would make some outputs see
/// only padding.
template <typename PoolOp>
static LogicalResult verifyPool(PoolOp op) {
  if (failed(verifyInference(op)))
    return failure();
  ArrayRef<int64_t> kernel = op.getKernel(), pads = op.getPads();
  for (int d = 0; d < 2; ++d)
    if (pads[d] >= kernel[d] || pads[d + 2] >= kernel[d])
      return op.emitOpError("'pads' ")
             << formatList(pads) << " must be smaller than 'kernel' "
             << formatList(kernel);
  return success();
}

LogicalResult MaxPoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferPool<MaxPoolOp>(loc, adaptor, types);
}
LogicalResult MaxPoolOp::verify() { return verifyPool(*this); }

LogicalResult AvgPoolOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferPool<AvgPoolOp>(loc, adaptor, types);
}
LogicalResult AvgPoolOp::verify() { return verifyPool(*this); }

//===----------------------------------------------------------------------===//
// fully_connected / matmul / batched_add
//===----------------------------------------------------------------------===//

/// [N, K] x [K, M] -> [N, M], with operand names for the diagnostics.
static LogicalResult inferMatrixProduct(std::optional<Location> loc, StringRef lhsName,
                                        Value lhsValue, StringRef rhsName,
                                        Value rhsValue, SmallVectorImpl<Type> &types) {
  auto lhs = tensorOf(lhsValue), rhs = tensorOf(rhsValue);
  if (failed(checkRank(loc, lhsName, lhs, 2)) || failed(checkRank(loc, rhsName, rhs, 2)))
    return failure();
  if (lhs.getDimSize(1) != rhs.getDimSize(0))
    return emitOptionalError(loc, "'", lhsName, "' ", lhs, " and '", rhsName, "' ", rhs,
                             " have different reduction sizes (", lhs.getDimSize(1),
                             " vs ", rhs.getDimSize(0), ")");
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "element types ", lhs.getElementType(), " and ",
                             rhs.getElementType(), " differ");
  types.push_back(
      RankedTensorType::get({lhs.getDimSize(0), rhs.getDimSize(1)}, lhs.getElementType()));
  return success();
}

LogicalResult FullyConnectedOp::inferReturnTypes(MLIRContext *,
                                                 std::optional<Location> loc,
                                                 Adaptor adaptor,
                                                 SmallVectorImpl<Type> &types) {
  return inferMatrixProduct(loc, "input", adaptor.getInput(), "weights",
                            adaptor.getWeights(), types);
}

LogicalResult FullyConnectedOp::verify() {
  if (failed(verifyInference(*this)))
    return failure();
  auto weights = tensorOf(getWeights());
  return checkVector(*this, "bias", getBias(), weights.getDimSize(1),
                     weights.getElementType());
}

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  return inferMatrixProduct(loc, "lhs", adaptor.getLhs(), "rhs", adaptor.getRhs(), types);
}

LogicalResult MatMulOp::verify() { return verifyInference(*this); }

LogicalResult BatchedAddOp::verify() {
  auto batch = tensorOf(getBatch()), slice = tensorOf(getSlice());
  if (batch.getRank() < 1 || batch.getShape().drop_front() != slice.getShape())
    return emitOpError("slice ") << slice << " must match one slice of the batch "
                                 << batch << " (its shape without dimension 0)";
  if (batch.getElementType() != slice.getElementType())
    return emitOpError("element types ")
           << batch.getElementType() << " and " << slice.getElementType() << " differ";
  return success();
}

//===----------------------------------------------------------------------===//
// elementwise constant folding
//===----------------------------------------------------------------------===//

/// Folds a binary elementwise op whose operands are dense or splat constants, with
/// `onFloat` for float elements and `onInt(a, b, isUnsigned)` for integers (which
/// may decline, e.g. division by zero).
template <typename FloatFn, typename IntFn>
static OpFoldResult foldBinary(ArrayRef<Attribute> operands, Type type, FloatFn onFloat,
                               IntFn onInt) {
  Type element = getElementTypeOrSelf(type);
  if (isa<FloatType>(element))
    return constFoldBinaryOp<FloatAttr, APFloat, void>(
        operands, [&](const APFloat &a, const APFloat &b) { return onFloat(a, b); });
  if (auto integer = dyn_cast<IntegerType>(element)) {
    bool isUnsigned = integer.isUnsigned();
    return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(
        operands, [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
          return onInt(a, b, isUnsigned);
        });
  }
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(), [](APFloat a, const APFloat &b) { return a + b; },
      [](const APInt &a, const APInt &b, bool) -> std::optional<APInt> { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(), [](APFloat a, const APFloat &b) { return a - b; },
      [](const APInt &a, const APInt &b, bool) -> std::optional<APInt> { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(), [](APFloat a, const APFloat &b) { return a * b; },
      [](const APInt &a, const APInt &b, bool) -> std::optional<APInt> { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(), [](APFloat a, const APFloat &b) { return a / b; },
      [](const APInt &a, const APInt &b, bool isUnsigned) -> std::optional<APInt> {
        if (b.isZero() || (!isUnsigned && a.isMinSignedValue() && b.isAllOnes()))
          return std::nullopt;
        return isUnsigned ? a.udiv(b) : a.sdiv(b);
      });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) { return llvm::maximum(a, b); },
      [](const APInt &a, const APInt &b, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umax(a, b) : llvm::APIntOps::smax(a, b);
      });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APFloat &a, const APFloat &b) { return llvm::minimum(a, b); },
      [](const APInt &a, const APInt &b, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umin(a, b) : llvm::APIntOps::smin(a, b);
      });
}

/// Folds a float unary op on a dense or splat constant, computing `fn` in double
/// precision and rounding back to the element type.
template <typename Fn>
static OpFoldResult foldUnaryFloat(Attribute operand, Fn fn) {
  return constFoldUnaryOp<FloatAttr, APFloat, void>(
      ArrayRef<Attribute>(operand), [&](const APFloat &x) {
        APFloat result(fn(x.convertToDouble()));
        bool losesInfo = false;
        result.convert(x.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
        return result;
      });
}

#define GLOW_FOLD_UNARY(Op, expression)                                               \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                       \
    return foldUnaryFloat(adaptor.getInput(), [](double x) { return expression; });   \
  }
GLOW_FOLD_UNARY(ReluOp, x > 0 ? x : 0.0)
GLOW_FOLD_UNARY(SigmoidOp, 1.0 / (1.0 + std::exp(-x)))
GLOW_FOLD_UNARY(TanhOp, std::tanh(x))
GLOW_FOLD_UNARY(SqrtOp, std::sqrt(x))
GLOW_FOLD_UNARY(RsqrtOp, 1.0 / std::sqrt(x))
GLOW_FOLD_UNARY(ExpOp, std::exp(x))
GLOW_FOLD_UNARY(LogOp, std::log(x))
GLOW_FOLD_UNARY(ErfOp, std::erf(x))
GLOW_FOLD_UNARY(FloorOp, std::floor(x))
GLOW_FOLD_UNARY(CeilOp, std::ceil(x))
GLOW_FOLD_UNARY(RoundOp, std::nearbyint(x))
GLOW_FOLD_UNARY(HardSwishOp, x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0)
GLOW_FOLD_UNARY(SinOp, std::sin(x))
GLOW_FOLD_UNARY(CosOp, std::cos(x))
GLOW_FOLD_UNARY(TanOp, std::tan(x))
GLOW_FOLD_UNARY(AsinOp, std::asin(x))
GLOW_FOLD_UNARY(AcosOp, std::acos(x))
GLOW_FOLD_UNARY(AtanOp, std::atan(x))
GLOW_FOLD_UNARY(SinhOp, std::sinh(x))
GLOW_FOLD_UNARY(CoshOp, std::cosh(x))
GLOW_FOLD_UNARY(AsinhOp, std::asinh(x))
GLOW_FOLD_UNARY(AcoshOp, std::acosh(x))
GLOW_FOLD_UNARY(AtanhOp, std::atanh(x))
#undef GLOW_FOLD_UNARY

/// pow has no exact APFloat form; it is left to run time.
OpFoldResult PowOp::fold(FoldAdaptor) { return {}; }

//===----------------------------------------------------------------------===//
// clip
//===----------------------------------------------------------------------===//

LogicalResult ClipOp::verify() {
  Type element = getType().getElementType();
  for (auto [name, bound] : {std::pair<StringRef, TypedAttr>{"min", getMin()},
                             std::pair<StringRef, TypedAttr>{"max", getMax()}}) {
    if (!isa<IntegerAttr, FloatAttr>(bound) || bound.getType() != element)
      return emitOpError("'") << name << "' must be a scalar of the element type "
                              << element << ", got " << bound;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// softmax / batch_norm
//===----------------------------------------------------------------------===//

/// Checks that `axis` (negative counts from the back) names a dimension of `rank`.
static LogicalResult checkAxis(Operation *op, StringRef what, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError("'") << what << "' " << axis << " is out of range for rank "
                                << rank;
  return success();
}

LogicalResult SoftMaxOp::verify() {
  return checkAxis(*this, "axis", getAxis(), getType().getRank());
}

LogicalResult BatchNormOp::verify() {
  auto input = tensorOf(getInput());
  int64_t channel = getChannel();
  if (failed(checkAxis(*this, "channel", channel, input.getRank())))
    return failure();
  if (channel < 0)
    channel += input.getRank();
  int64_t channels = input.getDimSize(channel);
  Type element = input.getElementType();
  if (failed(checkVector(*this, "scale", getScale(), channels, element)) ||
      failed(checkVector(*this, "bias", getBias(), channels, element)) ||
      failed(checkVector(*this, "mean", getMean(), channels, element)) ||
      failed(checkVector(*this, "var", getVar(), channels, element)))
    return failure();
  if (getEpsilon().convertToDouble() < 0)
    return emitOpError("'epsilon' must not be negative");
  return success();
}

LogicalResult LocalResponseNormOp::verify() {
  if (getType().getRank() < 3)
    return emitOpError("input must have rank >= 3 (N x C x spatial), got ") << getType();
  if (static_cast<int64_t>(getSize()) < 1)
    return emitOpError("'size' must be positive, got ") << static_cast<int64_t>(getSize());
  return success();
}

LogicalResult InstanceNormOp::verify() {
  auto input = tensorOf(getInput());
  if (input.getRank() < 3)
    return emitOpError("input must have rank >= 3 (N x C x spatial), got ") << input;
  if (failed(checkVector(*this, "scale", getScale(), input.getDimSize(1),
                         input.getElementType())))
    return failure();
  if (getEpsilon().convertToDouble() < 0)
    return emitOpError("'epsilon' must not be negative");
  return success();
}

LogicalResult AdaptiveAvgPoolOp::verify() {
  auto input = tensorOf(getInput());
  auto result = getType();
  if (input.getRank() != 4 || result.getRank() != 4)
    return emitOpError("input and result must be NCHW (rank 4), got ")
           << input << " and " << result;
  if (input.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << input.getElementType() << " to " << result.getElementType();
  if (input.getDimSize(0) != result.getDimSize(0) ||
      input.getDimSize(1) != result.getDimSize(1))
    return emitOpError("result ") << result << " must keep the input's batch and channels ("
                                  << input << ")";
  if (result.getDimSize(2) < 1 || result.getDimSize(3) < 1 || input.getDimSize(2) < 1 ||
      input.getDimSize(3) < 1)
    return emitOpError("spatial extents must be positive, got ") << input << " -> " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// reshape / transpose / concat
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto input = tensorOf(getInput());
  auto result = getType();
  if (input.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << input.getElementType() << " to " << result.getElementType();
  if (input.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ")
           << input.getNumElements() << " elements into " << result.getNumElements()
           << " (" << input << " -> " << result << ")";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) -> reshape(x): fold by taking the inner input.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  if (auto elements = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    return elements.reshape(getType());
  return {};
}

LogicalResult BroadcastOp::verify() {
  auto input = tensorOf(getInput());
  auto result = getType();
  int64_t axis = getAxis();
  if (input.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << input.getElementType() << " to " << result.getElementType();
  if (axis < 0 || axis + input.getRank() > result.getRank())
    return emitOpError("'axis' ")
           << axis << " does not fit " << input << " inside " << result;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    int64_t in = input.getDimSize(d), out = result.getDimSize(axis + d);
    if (in != 1 && in != out)
      return emitOpError("input dimension ")
             << d << " (" << in << ") must be 1 or equal result dimension " << axis + d
             << " (" << out << ")";
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  if (!adaptor.getPermAttr())
    return emitOptionalError(loc, "requires attribute 'perm'");
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOptionalError(loc, "'perm' ", formatList(perm), " must have ",
                             input.getRank(), " elements for ", input);
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t p : perm)
    if (p < 0 || p >= input.getRank() || !seen.insert(p).second)
      return emitOptionalError(loc, "'perm' ", formatList(perm),
                               " is not a permutation of 0..", input.getRank() - 1);
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(input.getDimSize(p));
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult TransposeOp::verify() { return verifyInference(*this); }

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  if (llvm::equal(getPerm(), llvm::seq<int64_t>(0, getPerm().size())))
    return getInput();
  // A splat is the same splat in any layout.
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(adaptor.getInput()))
    return splat.resizeSplat(getType());
  return {};
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "needs at least one input");
  auto first = tensorOf(inputs.front());
  int64_t rank = first.getRank();
  if (!adaptor.getDimAttr())
    return emitOptionalError(loc, "requires attribute 'dim'");
  int64_t dim = adaptor.getDim();
  if (dim < 0 || dim >= rank)
    return emitOptionalError(loc, "'dim' ", dim, " is out of range for rank ", rank);
  SmallVector<int64_t> shape(first.getShape());
  shape[dim] = 0;
  for (auto [index, value] : llvm::enumerate(inputs)) {
    auto type = tensorOf(value);
    if (type.getRank() != rank || type.getElementType() != first.getElementType())
      return emitOptionalError(loc, "input #", index, " ", type,
                               " differs in rank or element type from ", first);
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim && type.getDimSize(d) != first.getDimSize(d))
        return emitOptionalError(loc, "input #", index, " ", type, " differs from ",
                                 first, " in dimension ", d);
    shape[dim] += type.getDimSize(dim);
  }
  types.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

LogicalResult ConcatOp::verify() { return verifyInference(*this); }

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}

//===----------------------------------------------------------------------===//
// reductions
//===----------------------------------------------------------------------===//

/// Normalizes `axes` against `rank` (negative from the back), rejecting repeats and
/// out-of-range entries.
static FailureOr<SmallVector<int64_t>> normalizeAxes(std::optional<Location> loc,
                                                     ArrayRef<int64_t> axes,
                                                     int64_t rank) {
  SmallVector<int64_t> normalized;
  for (int64_t axis : axes) {
    int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      (void)emitOptionalError(loc, "axis ", axis, " is out of range for rank ", rank);
      return failure();
    }
    if (llvm::is_contained(normalized, a)) {
      (void)emitOptionalError(loc, "axis ", axis, " is repeated in ", formatList(axes));
      return failure();
    }
    normalized.push_back(a);
  }
  return normalized;
}

/// The shape left after reducing `axes` of `input`.
static SmallVector<int64_t> reducedShape(RankedTensorType input, ArrayRef<int64_t> axes,
                                         bool keepDims) {
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < input.getRank(); ++d) {
    if (!llvm::is_contained(axes, d))
      shape.push_back(input.getDimSize(d));
    else if (keepDims)
      shape.push_back(1);
  }
  return shape;
}

template <typename ReduceOp>
static LogicalResult inferReduce(std::optional<Location> loc,
                                 typename ReduceOp::Adaptor adaptor,
                                 SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  if (!adaptor.getAxesAttr())
    return emitOptionalError(loc, "requires attribute 'axes'");
  auto axes = normalizeAxes(loc, adaptor.getAxes(), input.getRank());
  if (failed(axes))
    return failure();
  types.push_back(RankedTensorType::get(
      reducedShape(input, *axes, adaptor.getKeepDims()), input.getElementType()));
  return success();
}

#define GLOW_REDUCE_OP(Op)                                                        \
  LogicalResult Op::inferReturnTypes(MLIRContext *, std::optional<Location> loc,  \
                                     Adaptor adaptor,                              \
                                     SmallVectorImpl<Type> &types) {               \
    return inferReduce<Op>(loc, adaptor, types);                                   \
  }                                                                                \
  LogicalResult Op::verify() { return verifyInference(*this); }
GLOW_REDUCE_OP(ReduceSumOp)
GLOW_REDUCE_OP(ReduceMeanOp)
GLOW_REDUCE_OP(ReduceMaxOp)
GLOW_REDUCE_OP(ReduceMinOp)
GLOW_REDUCE_OP(ReduceProdOp)
#undef GLOW_REDUCE_OP

template <typename ArgOp>
static LogicalResult inferArg(MLIRContext *context, std::optional<Location> loc,
                              typename ArgOp::Adaptor adaptor,
                              SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  if (!adaptor.getAxisAttr())
    return emitOptionalError(loc, "requires attribute 'axis'");
  int64_t axis = adaptor.getAxis();
  auto axes = normalizeAxes(loc, {axis}, input.getRank());
  if (failed(axes))
    return failure();
  types.push_back(RankedTensorType::get(reducedShape(input, *axes, adaptor.getKeepDims()),
                                        IntegerType::get(context, 64)));
  return success();
}

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferArg<ArgMaxOp>(context, loc, adaptor, types);
}
LogicalResult ArgMaxOp::verify() { return verifyInference(*this); }
LogicalResult ArgMinOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc, Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferArg<ArgMinOp>(context, loc, adaptor, types);
}
LogicalResult ArgMinOp::verify() { return verifyInference(*this); }

//===----------------------------------------------------------------------===//
// log_softmax / layer_norm / batch_matmul
//===----------------------------------------------------------------------===//

LogicalResult CumSumOp::verify() {
  return checkAxis(*this, "axis", getAxis(), getType().getRank());
}

LogicalResult LogSoftMaxOp::verify() {
  return checkAxis(*this, "axis", getAxis(), getType().getRank());
}

LogicalResult LayerNormOp::verify() {
  auto input = tensorOf(getInput());
  int64_t rank = input.getRank();
  if (failed(checkAxis(*this, "axis", getAxis(), rank)))
    return failure();
  // I64Attr accessors return uint64_t: convert before testing the sign.
  int64_t axis = getAxis();
  if (axis < 0)
    axis += rank;
  auto scale = tensorOf(getScale());
  if (scale.getShape() != input.getShape().drop_front(axis) ||
      scale.getElementType() != input.getElementType())
    return emitOpError("'scale' and 'bias' must be ")
           << RankedTensorType::get(input.getShape().drop_front(axis),
                                    input.getElementType())
           << " (the normalized dimensions), got " << scale;
  if (getEpsilon().convertToDouble() < 0)
    return emitOpError("'epsilon' must not be negative");
  return success();
}

LogicalResult BatchMatMulOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  auto lhs = tensorOf(adaptor.getLhs()), rhs = tensorOf(adaptor.getRhs());
  if (failed(checkRank(loc, "lhs", lhs, 3)) || failed(checkRank(loc, "rhs", rhs, 3)))
    return failure();
  if (lhs.getDimSize(0) != rhs.getDimSize(0))
    return emitOptionalError(loc, "batch sizes differ: ", lhs, " vs ", rhs);
  if (lhs.getDimSize(2) != rhs.getDimSize(1))
    return emitOptionalError(loc, "'lhs' ", lhs, " and 'rhs' ", rhs,
                             " have different reduction sizes (", lhs.getDimSize(2),
                             " vs ", rhs.getDimSize(1), ")");
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "element types ", lhs.getElementType(), " and ",
                             rhs.getElementType(), " differ");
  types.push_back(RankedTensorType::get(
      {lhs.getDimSize(0), lhs.getDimSize(1), rhs.getDimSize(2)}, lhs.getElementType()));
  return success();
}
LogicalResult BatchMatMulOp::verify() { return verifyInference(*this); }

//===----------------------------------------------------------------------===//
// slice / pad / tile / convert / gather
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  auto input = tensorOf(getInput());
  auto result = getType();
  ArrayRef<int64_t> start = getStart();
  if (input.getElementType() != result.getElementType())
    return emitOpError("element type changes from ")
           << input.getElementType() << " to " << result.getElementType();
  if (result.getRank() != input.getRank() ||
      static_cast<int64_t>(start.size()) != input.getRank())
    return emitOpError("'start' ") << formatList(start) << ", input " << input
                                   << " and result " << result << " must have one rank";
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (start[d] < 0 || start[d] + result.getDimSize(d) > input.getDimSize(d))
      return emitOpError("slice of ")
             << result.getDimSize(d) << " at " << start[d] << " runs outside dimension "
             << d << " (" << input.getDimSize(d) << ") of " << input;
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  if (!adaptor.getPadsAttr())
    return emitOptionalError(loc, "requires attribute 'pads'");
  ArrayRef<int64_t> pads = adaptor.getPads();
  int64_t rank = input.getRank();
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return emitOptionalError(loc, "'pads' ", formatList(pads), " must have ", 2 * rank,
                             " elements for ", input);
  if (failed(checkNonNegative(loc, "pads", pads)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(input.getDimSize(d) + pads[d] + pads[d + rank]);
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult PadOp::verify() {
  if (failed(verifyInference(*this)))
    return failure();
  Type element = getType().getElementType();
  if (!isa<IntegerAttr, FloatAttr>(getValue()) || getValue().getType() != element)
    return emitOpError("'value' must be a scalar of the element type ")
           << element << ", got " << getValue();
  return success();
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  if (!adaptor.getRepeatsAttr())
    return emitOptionalError(loc, "requires attribute 'repeats'");
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  if (failed(checkCount(loc, "repeats", repeats, input.getRank())) ||
      failed(checkPositive(loc, "repeats", repeats)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < input.getRank(); ++d)
    shape.push_back(input.getDimSize(d) * repeats[d]);
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}
LogicalResult TileOp::verify() { return verifyInference(*this); }

OpFoldResult ConvertOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

/// Bits an element takes in memory: a boolean (i1) is stored as a byte.
static unsigned storedBits(Type element) {
  if (element.isInteger(1))
    return 8;
  return element.getIntOrFloatBitWidth();
}

LogicalResult BitcastOp::verify() {
  auto input = cast<RankedTensorType>(getInput().getType());
  auto result = cast<RankedTensorType>(getType());
  if (input.getShape() != result.getShape())
    return emitOpError("result shape differs from the input's");
  Type from = input.getElementType(), to = result.getElementType();
  if (!from.isIntOrFloat() || !to.isIntOrFloat() || storedBits(from) != storedBits(to))
    return emitOpError("reinterprets ") << from << " as " << to
                                         << ": the element types must have the same bit width";
  return success();
}

OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto data = tensorOf(adaptor.getData());
  auto indices = tensorOf(adaptor.getIndices());
  int64_t axis = adaptor.getAxisAttr() ? adaptor.getAxis() : 0;
  int64_t rank = data.getRank();
  if (axis < -rank || axis >= rank)
    return emitOptionalError(loc, "'axis' ", axis, " is out of range for rank ", rank);
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape(data.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, data.getShape().drop_front(axis + 1));
  types.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}
LogicalResult GatherOp::verify() { return verifyInference(*this); }

//===----------------------------------------------------------------------===//
// gather_elements / scatter_elements / top_k / resize
//===----------------------------------------------------------------------===//

/// `indices` of the data's rank, no larger than `data` outside `axis`.
static LogicalResult checkElementIndices(Operation *op, RankedTensorType data,
                                         RankedTensorType indices, int64_t axis) {
  if (failed(checkAxis(op, "axis", axis, data.getRank())))
    return failure();
  if (indices.getRank() != data.getRank())
    return op->emitOpError("indices ") << indices << " must have the rank of " << data;
  int64_t a = axis < 0 ? axis + data.getRank() : axis;
  for (int64_t d = 0; d < data.getRank(); ++d)
    if (d != a && indices.getDimSize(d) > data.getDimSize(d))
      return op->emitOpError("indices ")
             << indices << " exceed " << data << " in dimension " << d;
  return success();
}

LogicalResult GatherElementsOp::verify() {
  auto data = tensorOf(getData()), indices = tensorOf(getIndices());
  if (failed(checkElementIndices(*this, data, indices, getAxis())))
    return failure();
  auto result = getType();
  if (result.getShape() != indices.getShape() ||
      result.getElementType() != data.getElementType())
    return emitOpError("result must be ")
           << RankedTensorType::get(indices.getShape(), data.getElementType()) << ", got "
           << result;
  return success();
}

LogicalResult ScatterElementsOp::verify() {
  auto data = tensorOf(getData()), indices = tensorOf(getIndices());
  auto updates = tensorOf(getUpdates());
  if (failed(checkElementIndices(*this, data, indices, getAxis())))
    return failure();
  if (updates.getShape() != indices.getShape() ||
      updates.getElementType() != data.getElementType())
    return emitOpError("updates must be ")
           << RankedTensorType::get(indices.getShape(), data.getElementType()) << ", got "
           << updates;
  if (!llvm::is_contained({"none", "add", "mul", "max", "min"}, getReduction()))
    return emitOpError("'reduction' must be none, add, mul, max or min, got '")
           << getReduction() << "'";
  return success();
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context, std::optional<Location> loc,
                                       Adaptor adaptor, SmallVectorImpl<Type> &types) {
  auto input = tensorOf(adaptor.getInput());
  if (!adaptor.getAxisAttr() || !adaptor.getKAttr())
    return emitOptionalError(loc, "requires attributes 'k' and 'axis'");
  int64_t rank = input.getRank(), axis = adaptor.getAxis(), k = adaptor.getK();
  if (axis < -rank || axis >= rank)
    return emitOptionalError(loc, "'axis' ", axis, " is out of range for rank ", rank);
  if (axis < 0)
    axis += rank;
  if (k < 0 || k > input.getDimSize(axis))
    return emitOptionalError(loc, "'k' ", k, " must be between 0 and ",
                             input.getDimSize(axis));
  SmallVector<int64_t> shape(input.getShape());
  shape[axis] = k;
  types.push_back(RankedTensorType::get(shape, input.getElementType()));
  types.push_back(RankedTensorType::get(shape, IntegerType::get(context, 64)));
  return success();
}
LogicalResult TopKOp::verify() { return verifyInference(*this); }

LogicalResult ResizeOp::verify() {
  auto input = tensorOf(getInput());
  auto result = getType();
  if (input.getRank() != result.getRank() ||
      input.getElementType() != result.getElementType())
    return emitOpError("result ") << result << " must have the rank and element type of "
                                  << input;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (input.getDimSize(d) == 0 || result.getDimSize(d) == 0)
      return emitOpError("dimension ") << d << " is empty";
  if (!llvm::is_contained({"nearest", "linear", "cubic"}, getMode()))
    return emitOpError("'mode' must be nearest, linear or cubic, got '") << getMode() << "'";
  if (!llvm::is_contained({"half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
                           "align_corners", "asymmetric", "tf_crop_and_resize"},
                          getCoordinates()))
    return emitOpError("'coordinates' must be half_pixel, half_pixel_symmetric, "
                       "pytorch_half_pixel, align_corners, asymmetric or tf_crop_and_resize, "
                       "got '")
           << getCoordinates() << "'";
  if (!llvm::is_contained({"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"},
                          getNearestMode()))
    return emitOpError("'nearest_mode' must be round_prefer_floor, round_prefer_ceil, floor "
                       "or ceil, got '")
           << getNearestMode() << "'";
  if (auto scales = getScales()) {
    if (static_cast<int64_t>(scales->size()) != input.getRank())
      return emitOpError("'scales' has ") << scales->size() << " entries for rank "
                                          << input.getRank();
    if (llvm::any_of(*scales, [](double s) { return !(s > 0); }))
      return emitOpError("'scales' must be positive");
  }
  if (getCoordinates() == "tf_crop_and_resize") {
    auto roi = getRoi();
    if (!roi || static_cast<int64_t>(roi->size()) != 2 * input.getRank())
      return emitOpError("tf_crop_and_resize needs a 'roi' of ")
             << 2 * input.getRank() << " entries (starts, then ends)";
  }
  return success();
}

#define GET_OP_CLASSES
#include "glow/Graph/GraphOps.cpp.inc"
