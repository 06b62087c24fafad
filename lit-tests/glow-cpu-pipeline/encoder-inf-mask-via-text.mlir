// The encoder slice with its attention mask filled with -inf (as Hugging Face exports
// write it), imported to a .mlir text file and run from that file with inputs fed by
// their ONNX names: the -inf splat prints as the hex float 0xFF800000 and must read
// back as -inf (it once read back as 4.29e9), and the ports keep their names.
// RUN: %python %S/../glow-import/Inputs/models.py encoder-inf %t.onnx
// RUN: glow-import %t.onnx --input-shape ids=2x8 --input-shape mask=2x8 --no-locations | FileCheck %s --check-prefix=TEXT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t.onnx --input-shape ids=2x8 --input-shape mask=2x8 --bin %glow_bin --via-mlir | FileCheck %s

// TEXT: func.func @main(%{{.*}}: tensor<2x8xi64> {glow.name = "ids"}, %{{.*}}: tensor<2x8xi64> {glow.name = "mask"}) -> (tensor<2x8x16xf32> {glow.name = "out"})
// TEXT: glow.graph.splat 0xFF800000 : tensor<2x8x8xf32>

// CHECK: output out: 256 values
// CHECK: PASS: worst ratio
