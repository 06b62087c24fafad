//===- InlineEverything.h - inliner interface for Glow's dialects -*- C++ -*-===//
//
// Every op of glow.graph and glow.quant may be inlined: none depends on the function
// it sits in. The int8 micro-kernels (functions holding glow.quant.dot4) are inlined
// into the model this way, so their scratch buffers join the planned arena.
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_INLINEEVERYTHING_H
#define GLOW_INLINEEVERYTHING_H

#include "mlir/Transforms/InliningUtils.h"

namespace mlir::glow {

struct InlineEverything : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final { return true; }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final { return true; }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final { return true; }
};

} // namespace mlir::glow

#endif // GLOW_INLINEEVERYTHING_H
