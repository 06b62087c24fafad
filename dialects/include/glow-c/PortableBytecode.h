/*===- PortableBytecode.h - C API: bytecode of dotted-dialect ops ---*- C -*-===*/
#ifndef GLOW_C_PORTABLEBYTECODE_H
#define GLOW_C_PORTABLEBYTECODE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes `module` as MLIR bytecode that reads back although the Glow dialects'
 * names hold dots (see PortableBytecode.cpp), passing the bytes to `callback`. */
MLIR_CAPI_EXPORTED MlirLogicalResult glowWritePortableBytecode(MlirOperation module,
                                                               MlirStringCallback callback,
                                                               void *userData);

/* Whether `bytes` (MLIR bytecode) parses into a module in `context`. The module's
 * blobs refer to `bytes` instead of copying them (the caller keeps `bytes` alive for
 * the call); the module is destroyed before returning. */
MLIR_CAPI_EXPORTED bool glowBytecodeReadsBack(MlirContext context, MlirStringRef bytes);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_PORTABLEBYTECODE_H */
