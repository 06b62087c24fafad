/*===- Dialects.h - C API registration of the Glow dialects -------*- C -*-===*/
#ifndef GLOW_C_DIALECTS_H
#define GLOW_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(GlowGraph, glow_graph);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(GlowQuant, glow_quant);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(GlowInstr, glow_instr);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Glow, glow);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_DIALECTS_H */
