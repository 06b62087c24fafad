/*===- OptMain.h - MLIR's mlir-opt driver for glow-opt ------------*- C -*-===*/
#ifndef GLOW_C_OPTMAIN_H
#define GLOW_C_OPTMAIN_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs MLIR's own mlir-opt driver (MlirOptMain) over argv with `registry` and the
 * globally registered passes (Rust ones included); returns the process exit code. */
MLIR_CAPI_EXPORTED int glowMlirOptMain(int argc, char **argv,
                                       MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_OPTMAIN_H */
