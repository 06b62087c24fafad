// Profiles glow-quantize refuses, each with one located error naming the file, value
// or option, and a non-zero exit.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/write_profile.py %S/Inputs/model.mlir %S/Inputs/profile.yaml %t/other-graph.yaml --hash 0123456789abcdef
// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/other-graph.yaml})" 2>&1 | FileCheck %s --check-prefix=HASH
// HASH: error: glow-quantize: profile '{{.*}}other-graph.yaml' was taken on another graph (its hash is 0123456789abcdef, this graph's is {{[0-9a-f]+}}): profile this model with glow-run --dump-profile

// RUN: %python %S/Inputs/write_profile.py %S/Inputs/model.mlir %S/Inputs/profile.yaml %t/missing.yaml --replace "name: pool" "name: other"
// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/missing.yaml})" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: glow-quantize: value 'pool' is not in profile '{{.*}}missing.yaml' (profile this graph again)

// RUN: %python %S/Inputs/write_profile.py %S/Inputs/model.mlir %S/Inputs/profile.yaml %t/nan.yaml --replace "max: 6.0" "max: .nan"
// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/nan.yaml})" 2>&1 | FileCheck %s --check-prefix=NAN
// NAN: error: glow-quantize: profile '{{.*}}nan.yaml': value 'relu1' has a non-finite max (NaN): the model produced NaN or infinity during profiling, so no quantization range exists

// RUN: %python %S/Inputs/write_profile.py %S/Inputs/model.mlir %S/Inputs/profile.yaml %t/inverted.yaml --replace "min: -3.0" "min: 13.0"
// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/inverted.yaml})" 2>&1 | FileCheck %s --check-prefix=INVERTED
// INVERTED: error: glow-quantize: profile '{{.*}}inverted.yaml': value 'fc' has min 13 above max 12

// RUN: head -c 150 %t/missing.yaml > %t/truncated.yaml
// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/truncated.yaml})" 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error: glow-quantize: profile '{{.*}}truncated.yaml' is malformed: values[0].min: invalid type: unit value, expected f64 at line 5 column 7

// RUN: echo "graph_hash: [" > %t/garbage.yaml
// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/garbage.yaml})" 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error: glow-quantize: profile '{{.*}}garbage.yaml' is malformed:

// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/absent.yaml})" 2>&1 | FileCheck %s --check-prefix=ABSENT
// ABSENT: error: glow-quantize: cannot read profile '{{.*}}absent.yaml': No such file or directory

// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/missing.yaml schema=fancy})" 2>&1 | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: 'schema' is 'fancy'; expected asymmetric, symmetric, symmetric_uint8 or symmetric_pow2

// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/missing.yaml precision=int16})" 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: 'precision' is 'int16'; only int8 has integer kernels (int16 is not supported)

// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize{profile=%t/missing.yaml keep=softmax})" 2>&1 | FileCheck %s --check-prefix=KEEP
// KEEP: 'keep' names 'softmax', which has no integer form; kinds: conv2d, fully_connected

// RUN: not glow-opt %S/Inputs/model.mlir --pass-pipeline="builtin.module(glow-quantize)" 2>&1 | FileCheck %s --check-prefix=NOPROFILE
// NOPROFILE: 'profile' must name a profile file (glow-run --dump-profile)
