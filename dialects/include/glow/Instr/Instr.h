//===- Instr.h - the glow.instr dialect and its ops -------------*- C++ -*-===//
#ifndef GLOW_INSTR_INSTR_H
#define GLOW_INSTR_INSTR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "glow/Instr/InstrDialect.h.inc"
#include "glow/Instr/InstrEnums.h.inc"

#define GET_OP_CLASSES
#include "glow/Instr/InstrOps.h.inc"

#endif // GLOW_INSTR_INSTR_H
