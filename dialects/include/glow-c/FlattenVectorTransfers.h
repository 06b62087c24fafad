/*===- FlattenVectorTransfers.h - C API of glow-flatten-vector-transfers -*- C -*-===*/
#ifndef GLOW_C_FLATTENVECTORTRANSFERS_H
#define GLOW_C_FLATTENVECTORTRANSFERS_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the `glow-flatten-vector-transfers` pass (idempotent per process). */
MLIR_CAPI_EXPORTED void glowRegisterFlattenVectorTransfersPass(void);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_FLATTENVECTORTRANSFERS_H */
