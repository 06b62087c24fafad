//===- GlowDialect.td - the empty `glow` umbrella dialect ---*- tablegen -*-===//
//
// Tools that load dialects lazily by namespace (mlir-lsp-server, mlir-reduce, MLIR's
// own driver without preloading) look up the text before the first dot of
// `glow.graph.relu`, i.e. `glow`. This dialect has no ops; loading it loads the three
// real dialects.
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_UMBRELLA_DIALECT
#define GLOW_UMBRELLA_DIALECT

include "mlir/IR/OpBase.td"

def Glow_Dialect : Dialect {
  let name = "glow";
  let cppNamespace = "::mlir::glow";
  let summary = "umbrella that loads glow.graph, glow.quant and glow.instr";
  let dependentDialects = ["::mlir::glow::graph::GlowGraphDialect",
                           "::mlir::glow::quant::GlowQuantDialect",
                           "::mlir::glow::instr::GlowInstrDialect"];
}

#endif // GLOW_UMBRELLA_DIALECT
