/*===- VectorAccumulators.h - C API of glow-vector-accumulators ----*- C -*-===*/
#ifndef GLOW_C_VECTORACCUMULATORS_H
#define GLOW_C_VECTORACCUMULATORS_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the `glow-vector-accumulators` pass (idempotent per process). */
MLIR_CAPI_EXPORTED void glowRegisterVectorAccumulatorsPass(void);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_VECTORACCUMULATORS_H */
