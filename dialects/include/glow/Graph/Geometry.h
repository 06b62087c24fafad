//===- Geometry.h - window geometry of convolutions and pools --*- C++ -*-===//
//
// Attribute checks and output-shape inference shared by glow.graph's and glow.quant's
// convolution and pooling ops.
//
//===----------------------------------------------------------------------===//
#ifndef GLOW_GRAPH_GEOMETRY_H
#define GLOW_GRAPH_GEOMETRY_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <string>

namespace mlir::glow::geometry {

/// Formats a list of integers as [a, b, c] for diagnostics.
inline std::string formatList(ArrayRef<int64_t> values) {
  std::string text = "[";
  llvm::interleave(
      values, [&](int64_t v) { text += std::to_string(v); }, [&] { text += ", "; });
  return text + "]";
}

inline LogicalResult checkCount(std::optional<Location> loc, StringRef what,
                         ArrayRef<int64_t> values, size_t expected) {
  if (values.size() != expected)
    return emitOptionalError(loc, "'", what, "' must have ", expected,
                             " elements, got ", formatList(values));
  return success();
}

inline LogicalResult checkPositive(std::optional<Location> loc, StringRef what,
                            ArrayRef<int64_t> values) {
  if (llvm::any_of(values, [](int64_t v) { return v < 1; }))
    return emitOptionalError(loc, "'", what, "' must be positive, got ",
                             formatList(values));
  return success();
}

inline LogicalResult checkNonNegative(std::optional<Location> loc, StringRef what,
                               ArrayRef<int64_t> values) {
  if (llvm::any_of(values, [](int64_t v) { return v < 0; }))
    return emitOptionalError(loc, "'", what, "' must not be negative, got ",
                             formatList(values));
  return success();
}

/// The spatial geometry shared by convolution and pooling: kernel [kh, kw],
/// strides [h, w], pads [top, left, bottom, right], dilations [h, w].
struct Window {
  ArrayRef<int64_t> kernel, strides, pads, dilations;

  LogicalResult check(std::optional<Location> loc) const {
    if (failed(checkCount(loc, "kernel", kernel, 2)) ||
        failed(checkCount(loc, "strides", strides, 2)) ||
        failed(checkCount(loc, "pads", pads, 4)) ||
        failed(checkCount(loc, "dilations", dilations, 2)) ||
        failed(checkPositive(loc, "kernel", kernel)) ||
        failed(checkPositive(loc, "strides", strides)) ||
        failed(checkPositive(loc, "dilations", dilations)) ||
        failed(checkNonNegative(loc, "pads", pads)))
      return failure();
    return success();
  }

  /// Output extent of spatial dimension `d` (0 = H, 1 = W) for input extent `in`.
  int64_t outExtent(int d, int64_t in) const {
    int64_t span = dilations[d] * (kernel[d] - 1) + 1;
    int64_t padded = in + pads[d] + pads[d + 2];
    if (padded < span)
      return 0;
    return (padded - span) / strides[d] + 1;
  }

  /// Infers N x channels x OH x OW for an NCHW input, or N x OH x OW x channels for
  /// an NHWC one (`channelsLast`).
  LogicalResult infer(std::optional<Location> loc, RankedTensorType input,
                      int64_t channels, Type elementType, bool channelsLast,
                      SmallVectorImpl<Type> &types) const {
    if (failed(check(loc)))
      return failure();
    int64_t spatial = channelsLast ? 1 : 2;
    int64_t oh = outExtent(0, input.getDimSize(spatial));
    int64_t ow = outExtent(1, input.getDimSize(spatial + 1));
    if (oh < 1 || ow < 1)
      return emitOptionalError(loc, "window ", formatList(kernel), " with dilations ",
                               formatList(dilations), " does not fit the padded input ",
                               input);
    SmallVector<int64_t> shape =
        channelsLast ? SmallVector<int64_t>{input.getDimSize(0), oh, ow, channels}
                     : SmallVector<int64_t>{input.getDimSize(0), channels, oh, ow};
    types.push_back(RankedTensorType::get(shape, elementType));
    return success();
  }
};

/// The value of an optional array attribute, or its default. Ops built through the
/// C API reach type inference before their default attributes are populated.
inline ArrayRef<int64_t> orDefault(DenseI64ArrayAttr attr, ArrayRef<int64_t> fallback) {
  return attr ? attr.asArrayRef() : fallback;
}

} // namespace mlir::glow::geometry

#endif // GLOW_GRAPH_GEOMETRY_H
