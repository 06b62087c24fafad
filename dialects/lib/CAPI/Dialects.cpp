//===- Dialects.cpp - C API registration of the Glow dialects ------------===//

#include "glow-c/Dialects.h"

#include "glow/Graph/Graph.h"
#include "glow/Instr/Instr.h"
#include "glow/Quant/Quant.h"
#include "glow/Umbrella/Glow.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(GlowGraph, glow_graph,
                                      mlir::glow::graph::GlowGraphDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(GlowQuant, glow_quant,
                                      mlir::glow::quant::GlowQuantDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(GlowInstr, glow_instr,
                                      mlir::glow::instr::GlowInstrDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Glow, glow, mlir::glow::GlowDialect)
