//===- GeneralizeElementwise.cpp - glow-generalize-elementwise -----------===//
//
// `glow-generalize-elementwise`: linalg's elementwise named ops (linalg.add, sub,
// mul, div, max, min, powf, exp, log, erf, rsqrt, select, ... and
// linalg.elementwise) become linalg.generic with arith / math bodies, through
// upstream's generalizeNamedOp. Contractions, convolutions, pooling, fill, copy,
// broadcast and transpose keep their names. This is the spelling every consumer
// of linalg on tensors reads: IREE's MLIR has dropped the elementwise named ops,
// and MLIR 22's linalg.elementwise is spelled differently elsewhere.
//
//===----------------------------------------------------------------------===//

#include "glow-c/GeneralizeElementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
/// Whether `op` is one of linalg's elementwise named ops.
bool isElementwiseNamedOp(Operation *op) {
  return isa<linalg::ExpOp, linalg::LogOp, linalg::AbsOp, linalg::CeilOp,
             linalg::FloorOp, linalg::NegFOp, linalg::ReciprocalOp,
             linalg::RoundOp, linalg::SqrtOp, linalg::RsqrtOp,
             linalg::SquareOp, linalg::TanhOp, linalg::ErfOp, linalg::AddOp,
             linalg::SubOp, linalg::MulOp, linalg::DivOp,
             linalg::DivUnsignedOp, linalg::MaxOp, linalg::MinOp,
             linalg::PowFOp, linalg::SelectOp, linalg::ElementwiseOp>(op);
}

struct GeneralizeElementwisePass
    : public PassWrapper<GeneralizeElementwisePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GeneralizeElementwisePass)

  StringRef getArgument() const final { return "glow-generalize-elementwise"; }
  StringRef getDescription() const final {
    return "Rewrite linalg's elementwise named ops (linalg.add, linalg.exp, "
           "linalg.select, linalg.elementwise, ...) as linalg.generic; "
           "contractions, convolutions and pooling keep their names";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    math::MathDialect>();
  }
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> targets;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isElementwiseNamedOp(op))
        targets.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : targets) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op))) {
        op->emitOpError("has no linalg.generic form");
        return signalPassFailure();
      }
    }
  }
};
} // namespace

void glowRegisterGeneralizeElementwisePass() {
  PassRegistration<GeneralizeElementwisePass>();
}
