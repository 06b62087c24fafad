//===- GraphDialect.td - the glow.graph dialect ------------*- tablegen -*-===//
//
// glow.graph holds Glow's strongly typed tensor-level nodes: the high-level nodes that
// importers produce and the primitive nodes that node lowering produces.
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_GRAPH_DIALECT
#define GLOW_GRAPH_DIALECT

include "mlir/IR/OpBase.td"

def Glow_Graph_Dialect : Dialect {
  let name = "glow.graph";
  let cppNamespace = "::mlir::glow::graph";
  let summary = "Glow's tensor-level graph IR";
  let description = [{
    Nodes of Glow's graph IR on ranked, statically shaped tensors. Convolution and
    pooling use the NCHW layout and OIHW filters (as ONNX and Glow's importers do).
    Elementwise nodes require operands of identical type: broadcasting is made explicit
    by the importer (Glow's rule), so every node has one obvious lowering.
  }];
  let hasConstantMaterializer = 1;
}

class Glow_Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Glow_Graph_Dialect, mnemonic, traits>;

#endif // GLOW_GRAPH_DIALECT
