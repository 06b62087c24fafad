//===- InstrDialect.td - the glow.instr dialect ------------*- tablegen -*-===//
//
// glow.instr is Glow's address-only instruction IR: buffers with lifetimes and
// planned offsets; compute in between stays as linalg / vector ops on memrefs.
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_INSTR_DIALECT
#define GLOW_INSTR_DIALECT

include "mlir/IR/OpBase.td"

def Glow_Instr_Dialect : Dialect {
  let name = "glow.instr";
  let cppNamespace = "::mlir::glow::instr";
  let summary = "Glow's address-only instruction IR";
  let description = [{
    After bufferization, activations are `alloc_activation` / `dealloc_activation`
    pairs that mark lifetimes; the static memory planner gives each an `offset`
    into one activation arena (64-byte aligned, as in Glow). Weights are named
    regions; `tensorview` reinterprets part of a buffer without copying.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

class Glow_Instr_Op<string mnemonic, list<Trait> traits = []>
    : Op<Glow_Instr_Dialect, mnemonic, traits>;

#endif // GLOW_INSTR_DIALECT
