//===- MathApproximation.cpp - glow-math-approximation --------------------===//
//
// `glow-math-approximation`: f32 math.erf / math.exp / math.tanh (scalars or
// vectors) become MLIR's own polynomial approximations (Math dialect transforms):
// branch-free arith that LLVM vectorizes, instead of a libm call per element whose
// overflow / underflow path also sets errno. Measured on the BERT-style encoder:
// erff, expf and expf's underflow handler were 47% of the run time. The erf
// approximation loses the sign of zero (erf(-0) came out +0, so 1 / erf(-0) was
// +inf); erf is odd and sign-preserving, so its result takes x's sign (copysign,
// one bit operation) and is exact on -0 as libm's erff is.
//
//===----------------------------------------------------------------------===//

#include "glow-c/MathApproximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
struct MathApproximationPass
    : public PassWrapper<MathApproximationPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathApproximationPass)

  StringRef getArgument() const final { return "glow-math-approximation"; }
  StringRef getDescription() const final {
    return "Replace f32 math.erf / math.exp / math.tanh with MLIR's polynomial "
           "approximations (vectorizable, no libm calls)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, math::MathDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    // erf(x) -> copysign(erf(x), x), before the approximation replaces math.erf.
    SmallVector<math::ErfOp> erfs;
    getOperation()->walk([&](math::ErfOp op) {
      if (getElementTypeOrSelf(op.getType()).isF32())
        erfs.push_back(op);
    });
    for (math::ErfOp op : erfs) {
      OpBuilder builder(op->getContext());
      builder.setInsertionPointAfter(op);
      auto signed_ = math::CopySignOp::create(builder, op.getLoc(), op.getResult(),
                                             op.getOperand());
      op.getResult().replaceAllUsesExcept(signed_.getResult(), signed_);
    }
    RewritePatternSet patterns(&getContext());
    // The predicate sees full op names.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ErfOp::getOperationName() ||
             name == math::ExpOp::getOperationName() ||
             name == math::TanhOp::getOperationName();
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void glowRegisterMathApproximationPass() {
  PassRegistration<MathApproximationPass>();
}
