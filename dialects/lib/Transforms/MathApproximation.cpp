//===- MathApproximation.cpp - glow-math-approximation --------------------===//
//
// `glow-math-approximation`: f32 math.erf / math.tanh (scalars or vectors) become
// MLIR's own polynomial approximations (Math dialect transforms), and f32 math.exp
// becomes glow's shorter one (below): branch-free arith that LLVM vectorizes,
// instead of a libm call per element whose overflow / underflow path also sets
// errno. Measured on the BERT-style encoder:
// erff, expf and expf's underflow handler were 47% of the run time. The erf
// approximation loses the sign of zero (erf(-0) came out +0, so 1 / erf(-0) was
// +inf); erf is odd and sign-preserving, so its result takes x's sign (copysign,
// one bit operation) and is exact on -0 as libm's erff is.
//
// exp: MLIR's approximation takes about 20 vector instructions (clamps of x and of
// the exponent, a floor, a conversion to integers, a polynomial in Estrin-like form).
// Softmax and sigmoid (SiLU) spend most of their time in it. Glow's takes 15, all
// branch-free arith and FMAs, so it needs no AVX-512 instruction (on a target
// without FMA, as MLIR's own, each math.fma becomes a call):
//   x' = x clamped to [-87.68, 89] (a NaN passes through);
//   t  = fma(x', log2(e), 1.5 * 2^23): x' / ln 2 rounded to the integer n, which
//        sits in t's low mantissa bits (no rounding or conversion instruction);
//   r  = x' - n ln 2 in two FMAs (ln 2 split in a short high part and a low part),
//        |r| <= ln 2 / 2;
//   p  = 2 exp(r) as a degree-6 polynomial in Horner form (6 FMAs), coefficients
//        fitted for the relative error on that interval;
//   exp(x) = p * s, s's bits (bits(t) + 126) << 23: the shift drops t's own
//        exponent, so s = 2^(n-1) for n in [-125, 128], and s = +0 for n = -126.
// Error: at most about 1 ulp for results above 2^-125.5. Inputs above ln(FLT_MAX)
// overflow to +inf in the last multiplication. n = -126 (x below about -86.9887)
// gives exactly 0: exp(-inf) = 0, and results under 2^-125.5 (about 1.41 FLT_MIN,
// some of them normal) flush to zero, where MLIR's version went on into subnormals.
//
//===----------------------------------------------------------------------===//

#include "glow-c/MathApproximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
/// f32 math.exp (scalar or vector) -> the 15-operation approximation described at
/// the top of this file.
struct ShortExpApproximation : public OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    auto shaped = dyn_cast<VectorType>(type);
    if (!(shaped ? shaped.getElementType() : type).isF32())
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type intType = shaped ? Type(shaped.clone(b.getI32Type())) : b.getI32Type();
    // A scalar constant, splat when the exp is a vector.
    auto constant = [&](TypedAttr scalar) -> Value {
      if (shaped)
        return arith::ConstantOp::create(
            b, DenseElementsAttr::get(shaped.clone(scalar.getType()), scalar));
      return arith::ConstantOp::create(b, scalar);
    };
    auto floatConstant = [&](float value) { return constant(b.getF32FloatAttr(value)); };
    auto intConstant = [&](int32_t value) { return constant(b.getI32IntegerAttr(value)); };
    auto fma = [&](Value a, Value c, Value d) -> Value {
      return math::FmaOp::create(b, a, c, d);
    };

    // Clamps written as compare + select keep a NaN (the compares are false on
    // it); LLVM turns each into one vmaxps / vminps.
    Value x = op.getOperand();
    Value low = floatConstant(-87.68f);
    Value high = floatConstant(89.0f);
    Value below = arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, x, low);
    x = arith::SelectOp::create(b, below, low, x);
    Value above = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, x, high);
    x = arith::SelectOp::create(b, above, high, x);

    Value shifter = floatConstant(12582912.0f); // 1.5 * 2^23
    Value shifted = fma(x, floatConstant(1.44269504088896341f), shifter);
    Value n = arith::SubFOp::create(b, shifted, shifter);
    Value r = fma(n, floatConstant(-0.693359375f), x);
    r = fma(n, floatConstant(2.12194440e-4f), r);

    // 2 exp(r): twice the coefficients of exp(r) fitted for the relative error on
    // [-ln 2 / 2, ln 2 / 2] (1, 1, 0.49999994, 0.16666432, 0.041668002,
    // 0.0083741425, 0.0013843596), exactly as f32.
    const float coefficients[] = {2.0f,           2.0f,           0x1.fffffcp-1f,
                                  0x1.55541ap-2f, 0x1.555822p-4f, 0x1.126766p-6f,
                                  0x1.6ae6ccp-9f};
    Value p = floatConstant(coefficients[6]);
    for (int k = 5; k >= 0; --k)
      p = fma(p, r, floatConstant(coefficients[k]));

    Value bits = arith::BitcastOp::create(b, intType, shifted);
    Value biased = arith::AddIOp::create(b, bits, intConstant(126));
    Value scaleBits = arith::ShLIOp::create(b, biased, intConstant(23));
    Value scale = arith::BitcastOp::create(b, type, scaleBits);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, p, scale);
    return success();
  }
};

struct MathApproximationPass
    : public PassWrapper<MathApproximationPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathApproximationPass)

  StringRef getArgument() const final { return "glow-math-approximation"; }
  StringRef getDescription() const final {
    return "Replace f32 math.erf / math.tanh with MLIR's polynomial "
           "approximations and f32 math.exp with glow's shorter one "
           "(vectorizable, no libm calls)";
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
    patterns.add<ShortExpApproximation>(&getContext());
    // The predicate sees full op names.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ErfOp::getOperationName() ||
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
