/*===- GeneralizeElementwise.h - C API of glow-generalize-elementwise -*- C -*-===*/
#ifndef GLOW_C_GENERALIZEELEMENTWISE_H
#define GLOW_C_GENERALIZEELEMENTWISE_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the `glow-generalize-elementwise` pass (idempotent per process). */
MLIR_CAPI_EXPORTED void glowRegisterGeneralizeElementwisePass(void);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_GENERALIZEELEMENTWISE_H */
