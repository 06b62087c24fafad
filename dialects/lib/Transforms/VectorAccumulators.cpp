//===- VectorAccumulators.cpp - glow-vector-accumulators ------------------===//
//
// `glow-vector-accumulators` (on vectors, before glow-lower-row-reductions): a row
// reduction tiled along its row carries one scalar through the loop,
//
//   %r = scf.for ... iter_args(%acc = %init) -> (vector<1xf32>) {
//     %chunk = vector.transfer_read ... : vector<1x128xf32>
//     %next = vector.multi_reduction <maxnumf>, %chunk, %acc [1]
//     scf.yield %next
//   }
//
// so every step folds its chunk down to one lane (a tree of 16-lane combines, then
// four shuffle-and-combine stages) before the next chunk can start. Here the loop
// carries a 16-lane vector instead, started at the combining kind's identity: each
// step combines its chunk's 16-lane pieces into it elementwise, and the lanes are
// folded together, with %init, once after the loop. Softmax's max and sum, a layer
// norm's mean and variance and innermost ReduceMax / ReduceSum take this form.
//
// Only f32 rows whose length is a multiple of 16, reduced along their last axis to a
// vector accumulator (not a scalar), which is the loop's own iter_arg used by nothing
// else, and whose result is only yielded back to it. Kinds: add (identity -0; sums are
// reassociated, as the per-chunk trees already were), maxnumf / minnumf (NaN, which
// they drop) and maximumf / minimumf (-inf / +inf), all exact in any order but add.
// Products are left alone: folded lane by lane across chunks, one lane can reach inf
// and another 0 where the row's product is finite. A loop that runs no step still
// returns %init.
//
//===----------------------------------------------------------------------===//

#include "glow-c/VectorAccumulators.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <limits>

using namespace mlir;

namespace {
/// Lanes of one AVX-512 f32 register.
constexpr int64_t kLanes = 16;

/// The identity of `kind` over f32, or nothing for the kinds left alone.
std::optional<float> identity(vector::CombiningKind kind) {
  switch (kind) {
  case vector::CombiningKind::ADD:
    return -0.0f;
  case vector::CombiningKind::MAXNUMF:
  case vector::CombiningKind::MINNUMF:
    return std::numeric_limits<float>::quiet_NaN();
  case vector::CombiningKind::MAXIMUMF:
    return -std::numeric_limits<float>::infinity();
  case vector::CombiningKind::MINIMUMF:
    return std::numeric_limits<float>::infinity();
  default:
    return std::nullopt;
  }
}

/// The position of `reduction`'s accumulator among its loop's iter_args when the
/// reduction has the form described at the top of this file.
std::optional<unsigned> carriedPosition(vector::MultiDimReductionOp reduction) {
  auto loop = dyn_cast<scf::ForOp>(reduction->getParentOp());
  VectorType source = reduction.getSourceVectorType();
  if (!loop || !source.getElementType().isF32() || source.isScalable() ||
      !identity(reduction.getKind()))
    return std::nullopt;
  ArrayRef<int64_t> shape = source.getShape();
  int64_t rank = shape.size();
  if (shape.back() % kLanes != 0 ||
      reduction.getReductionDims() != ArrayRef<int64_t>{rank - 1} ||
      llvm::any_of(shape.drop_back(), [](int64_t d) { return d != 1; }))
    return std::nullopt;
  if (!isa<VectorType>(reduction.getAcc().getType()))
    return std::nullopt;
  auto acc = dyn_cast<BlockArgument>(reduction.getAcc());
  if (!acc || acc.getOwner() != loop.getBody() || acc.getArgNumber() == 0 ||
      !acc.hasOneUse() || !reduction->hasOneUse())
    return std::nullopt;
  unsigned position = acc.getArgNumber() - 1;
  OpOperand &use = *reduction->getUses().begin();
  if (use.getOwner() != loop.getBody()->getTerminator() ||
      use.getOperandNumber() != position)
    return std::nullopt;
  return position;
}

void carryVector(IRRewriter &rewriter, vector::MultiDimReductionOp reduction,
                 unsigned position) {
  auto loop = cast<scf::ForOp>(reduction->getParentOp());
  Location loc = reduction.getLoc();
  vector::CombiningKind kind = reduction.getKind();
  auto lanes = VectorType::get({kLanes}, rewriter.getF32Type());
  rewriter.setInsertionPoint(loop);
  Value start = arith::ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(lanes, rewriter.getF32FloatAttr(*identity(kind))));
  Value init = loop.getInitArgs()[position];

  // Each step: the chunk's pieces combined pairwise, then into the carried vector.
  auto step = [&](OpBuilder &b, Location, ArrayRef<BlockArgument> carried) {
    VectorType source = reduction.getSourceVectorType();
    int64_t pieces = source.getShape().back() / kLanes;
    Value rows = vector::ShapeCastOp::create(
        b, loc, VectorType::get({pieces, kLanes}, b.getF32Type()),
        reduction.getSource());
    SmallVector<Value> level;
    for (int64_t k = 0; k < pieces; ++k)
      level.push_back(vector::ExtractOp::create(b, loc, rows, k));
    while (level.size() > 1) {
      SmallVector<Value> next;
      for (size_t k = 0; k + 1 < level.size(); k += 2)
        next.push_back(vector::makeArithReduction(b, loc, kind, level[k], level[k + 1]));
      if (level.size() % 2)
        next.push_back(level.back());
      level = std::move(next);
    }
    return SmallVector<Value>{
        vector::makeArithReduction(b, loc, kind, carried.front(), level.front())};
  };
  FailureOr<LoopLikeOpInterface> grown =
      loop.replaceWithAdditionalYields(rewriter, ValueRange{start},
                                       /*replaceInitOperandUsesInLoop=*/false, step);
  if (failed(grown))
    return;
  auto newLoop = cast<scf::ForOp>(grown->getOperation());

  // The one-lane iter_arg now passes through (LLVM drops its dead phi) and the
  // per-step reduction is dead.
  Operation *yield = newLoop.getBody()->getTerminator();
  rewriter.modifyOpInPlace(yield, [&] {
    yield->setOperand(position, newLoop.getRegionIterArgs()[position]);
  });
  rewriter.eraseOp(reduction);

  // After the loop: the carried lanes folded together with the initial value.
  rewriter.setInsertionPointAfter(newLoop);
  auto resultType = cast<VectorType>(init.getType());
  SmallVector<int64_t> rowShape(resultType.getShape());
  rowShape.push_back(kLanes);
  Value row = vector::ShapeCastOp::create(
      rewriter, loc, VectorType::get(rowShape, rewriter.getF32Type()),
      newLoop.getResults().back());
  SmallVector<bool> reduced(rowShape.size(), false);
  reduced.back() = true;
  Value folded =
      vector::MultiDimReductionOp::create(rewriter, loc, row, init, reduced, kind);
  rewriter.replaceAllUsesWith(newLoop.getResult(position), folded);
}

struct VectorAccumulatorsPass
    : public PassWrapper<VectorAccumulatorsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VectorAccumulatorsPass)

  StringRef getArgument() const final { return "glow-vector-accumulators"; }
  StringRef getDescription() const final {
    return "Carry a 16-lane vector, not one lane, through loops that reduce f32 rows "
           "chunk by chunk; fold the lanes once after the loop";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, scf::SCFDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    SmallVector<std::pair<vector::MultiDimReductionOp, unsigned>> found;
    getOperation()->walk([&](vector::MultiDimReductionOp reduction) {
      if (std::optional<unsigned> position = carriedPosition(reduction))
        found.push_back({reduction, *position});
    });
    IRRewriter rewriter(&getContext());
    for (auto [reduction, position] : found)
      carryVector(rewriter, reduction, position);
  }
};
} // namespace

void glowRegisterVectorAccumulatorsPass() {
  PassRegistration<VectorAccumulatorsPass>();
}
