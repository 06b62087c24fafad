//===- GlowDialect.cpp - the empty `glow` umbrella dialect ---------------===//

#include "glow/Umbrella/Glow.h"

#include "glow/Graph/Graph.h"
#include "glow/Instr/Instr.h"
#include "glow/Quant/Quant.h"

using namespace mlir;
using namespace mlir::glow;

#include "glow/Umbrella/GlowDialect.cpp.inc"

void GlowDialect::initialize() {}
