//===- FlattenVectorTransfers.cpp - glow-flatten-vector-transfers ---------===//
//
// `glow-flatten-vector-transfers`: an n-D vector.transfer_read / transfer_write on
// buffers whose innermost vector dimension is narrower than one 128-bit register
// (3 or 2 floats, a handful of bytes), and whose elements are contiguous in memory,
// becomes one 1-D transfer of all its elements through memref.collapse_shape and
// vector.shape_cast (MLIR's own flattening patterns). Left n-D, each row is lowered to
// its own narrow access: a model's NCHW -> NHWC input transpose block (16 pixels of
// 3 channels) was 16 stores of 3 floats, each split by LLVM into an 8- and a 4-byte
// store; flattened, it is 48 contiguous floats, three 64-byte stores.
// Wider rows are left alone: a register tile's rows are whole registers already.
//
//===----------------------------------------------------------------------===//

#include "glow-c/FlattenVectorTransfers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
/// Innermost vector dimensions of at most this many bits are flattened: below one
/// 128-bit register.
constexpr unsigned kNarrowRowBits = 127;

struct FlattenVectorTransfersPass
    : public PassWrapper<FlattenVectorTransfersPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FlattenVectorTransfersPass)

  StringRef getArgument() const final { return "glow-flatten-vector-transfers"; }
  StringRef getDescription() const final {
    return "Flatten contiguous vector transfers on buffers whose rows are narrower "
           "than a 128-bit register into one 1-D transfer";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<memref::MemRefDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateFlattenVectorTransferPatterns(patterns, kNarrowRowBits);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void glowRegisterFlattenVectorTransfersPass() {
  PassRegistration<FlattenVectorTransfersPass>();
}
