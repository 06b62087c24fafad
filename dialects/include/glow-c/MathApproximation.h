/*===- MathApproximation.h - C API of glow-math-approximation ------*- C -*-===*/
#ifndef GLOW_C_MATHAPPROXIMATION_H
#define GLOW_C_MATHAPPROXIMATION_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the `glow-math-approximation` pass (idempotent per process). */
MLIR_CAPI_EXPORTED void glowRegisterMathApproximationPass(void);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_MATHAPPROXIMATION_H */
