//===- QuantDialect.td - the glow.quant dialect ------------*- tablegen -*-===//
//
// glow.quant holds Glow's quantization nodes on upstream `!quant.uniform` types.
//
//===----------------------------------------------------------------------===//

#ifndef GLOW_QUANT_DIALECT
#define GLOW_QUANT_DIALECT

include "mlir/IR/OpBase.td"

def Glow_Quant_Dialect : Dialect {
  let name = "glow.quant";
  let cppNamespace = "::mlir::glow::quant";
  let summary = "Glow's quantization nodes";
  let description = [{
    Conversions between float tensors and tensors of MLIR's upstream quantized types
    (`!quant.uniform<i8:f32, 0.5:-3>`, per tensor or per axis), rescaling between
    quantization parameters, and the profiling observer that records value ranges
    for profile-guided quantization. value = (q - zero_point) * scale.
  }];
  let dependentDialects = ["::mlir::quant::QuantDialect"];
}

class Glow_Quant_Op<string mnemonic, list<Trait> traits = []>
    : Op<Glow_Quant_Dialect, mnemonic, traits>;

#endif // GLOW_QUANT_DIALECT
