// DFT (opsets 17 and 20) and STFT (opset 17: frames gathered, windowed, then the
// same transform) as one f64 matrix product with a constant [K x c, J x c']
// matrix of signed, scaled cosines and sines (real and imaginary parts interleaved):
// no FFT, O(L^2) per signal. Forward, one-sided forward with a zero-padded length and
// inverse against onnxruntime; the node suite's ten DFT cases (IRFFT included) run in
// python/conformance.py. Refused with the node named: a one-sided forward transform of
// complex input, a matrix above 128 MB.
// RUN: %python %S/Inputs/models.py dft:12:2:12:0:0 %t-full.onnx
// RUN: glow-import %t-full.onnx | FileCheck %s
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t-full.onnx --input-shape x=2x12x2 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/Inputs/models.py dft:12:1:16:0:1 %t-rfft.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t-rfft.onnx --input-shape x=2x12x1 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/Inputs/models.py dft:12:2:12:1:0 %t-inverse.onnx
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t-inverse.onnx --input-shape x=2x12x2 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/Inputs/models.py stft:1000:160:400 %t-stft.onnx
// RUN: glow-import %t-stft.onnx | FileCheck %s --check-prefix=STFT
// RUN: %python %S/../../python/compare_with_onnxruntime.py %t-stft.onnx --input-shape x=2x1000x1 --bin %glow_bin | FileCheck %s --check-prefix=ORT
// RUN: %python %S/Inputs/models.py dft:12:2:12:0:1 %t-complex.onnx
// RUN: not glow-import %t-complex.onnx 2>&1 | FileCheck %s --check-prefix=COMPLEX
// RUN: %python %S/Inputs/models.py dft:8192:2:8192:0:0 %t-huge.onnx
// RUN: not glow-import %t-huge.onnx 2>&1 | FileCheck %s --check-prefix=HUGE

// CHECK: glow.graph.convert %arg0 : tensor<2x12x2xf32> -> tensor<2x12x2xf64>
// CHECK: glow.graph.reshape {{.*}} -> tensor<2x24xf64>
// CHECK: glow.graph.constant dense_resource<{{.*}}> : tensor<24x24xf64>
// CHECK: glow.graph.matmul {{.*}} -> tensor<2x24xf64>
// CHECK: glow.graph.convert {{.*}} : tensor<2x12x2xf64> -> tensor<2x12x2xf32>
// ORT: PASS
// STFT: glow.graph.gather {{.*}} -> tensor<2x4x400x1xf32>
// STFT: glow.graph.mul
// STFT: glow.graph.matmul {{.*}} : (tensor<8x400xf64>, tensor<400x402xf64>) -> tensor<8x402xf64>
// COMPLEX: glow-import: error: node 'dft' (DFT): a one-sided forward DFT takes a real input (last dimension 1)
// HUGE: glow-import: error: node 'dft' (DFT): a DFT of length 8192 over 8192 input bins is a matrix product here (no FFT), whose matrix would exceed 134217728 bytes
