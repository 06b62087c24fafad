/*===- RoundTrip.h - C API: bit-exact round trips of Glow modules --*- C -*-===*/
#ifndef GLOW_C_ROUNDTRIP_H
#define GLOW_C_ROUNDTRIP_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* glow::verifyRoundTrip: on failure, the reason is passed to `callback`. */
MLIR_CAPI_EXPORTED MlirLogicalResult glowVerifyRoundTrip(MlirOperation module,
                                                         MlirStringCallback callback,
                                                         void *userData);

/* Registers the `glow-verify-roundtrip` pass (idempotent per process). */
MLIR_CAPI_EXPORTED void glowRegisterVerifyRoundTripPass(void);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_ROUNDTRIP_H */
