//===- Quant.h - the glow.quant dialect and its ops -------------*- C++ -*-===//
#ifndef GLOW_QUANT_QUANT_H
#define GLOW_QUANT_QUANT_H

#include "glow/Graph/Graph.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "glow/Quant/QuantDialect.h.inc"

#define GET_OP_CLASSES
#include "glow/Quant/QuantOps.h.inc"

#endif // GLOW_QUANT_QUANT_H
