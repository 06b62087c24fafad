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

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_PORTABLEBYTECODE_H */
