// Winograd kernels through the whole CPU pipeline, against a float64 direct
// convolution: an even output with the ReLU folded in (2 images, 12x26, 16 -> 32
// channels; rows of 13 tiles end in a group of one) and an odd one without (9x25,
// 16 -> 48 channels: three 16-channel blocks), at one and two threads; and the same
// model with --no-winograd, and as a bundle.
// RUN: %python %S/Inputs/convs.py onnx %t.onnx
// RUN: glow-import %t.onnx | glow-opt --pass-pipeline='builtin.module(func.func(glow-quantization-folding,glow-graph-optimize,glow-lower-nodes,glow-graph-optimize,glow-channels-last),glow-winograd)' | FileCheck %s
// CHECK-COUNT-2: call @glow_winograd_kernel
// RUN: rm -rf %t.out && glow-run %t.onnx --threads 1 --input x=%t.onnx.x.npy --output-dir %t.out
// RUN: %python %S/Inputs/convs.py check %t.onnx %t.onnx.x.npy %t.out/y.npy | FileCheck %s --check-prefix=RESULT
// RUN: rm -rf %t.two && glow-run %t.onnx --threads 2 --input x=%t.onnx.x.npy --output-dir %t.two
// RUN: %python %S/Inputs/convs.py check %t.onnx %t.onnx.x.npy %t.two/y.npy | FileCheck %s --check-prefix=RESULT
// RUN: rm -rf %t.direct && glow-run %t.onnx --threads 1 --no-winograd --input x=%t.onnx.x.npy --output-dir %t.direct
// RUN: %python %S/Inputs/convs.py check %t.onnx %t.onnx.x.npy %t.direct/y.npy | FileCheck %s --check-prefix=RESULT
// RESULT: normalized max error {{.*}}: ok
// A bundle (the kernels' scratch and transformed input in the planned arena) computes
// what glow-run computes:
// RUN: %python %S/../../python/check_bundle.py %t.onnx --input x --output y --bin %glow_bin | FileCheck %s --check-prefix=BUNDLE
// BUNDLE: PASS
