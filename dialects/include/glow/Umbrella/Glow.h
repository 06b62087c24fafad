//===- Glow.h - the `glow` umbrella dialect ---------------------*- C++ -*-===//
#ifndef GLOW_UMBRELLA_GLOW_H
#define GLOW_UMBRELLA_GLOW_H

#include "mlir/IR/Dialect.h"

#include "glow/Umbrella/GlowDialect.h.inc"

#endif // GLOW_UMBRELLA_GLOW_H
