/*===- PortableBytecode.h - C API: properties of unregistered ops --*- C -*-===*/
#ifndef GLOW_C_PORTABLEBYTECODE_H
#define GLOW_C_PORTABLEBYTECODE_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Moves the properties of every unregistered op nested in `root` (a dictionary
 * each, as the generic parser stores them) into the op's attribute dictionary, so
 * that bytecode of version < 5 carries them as attributes. */
MLIR_CAPI_EXPORTED void glowMoveUnregisteredPropertiesToAttributes(MlirOperation root);

#ifdef __cplusplus
}
#endif

#endif /* GLOW_C_PORTABLEBYTECODE_H */
