// RUN: not glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-optimize{disable=fold-everything}))' 2>&1 | FileCheck %s
// CHECK: invalid options for pass 'glow-graph-optimize': 'disable' names 'fold-everything', which is not a rule of this pass; rules: fold-batch-norm, trim-padding-taps, split-padding-regions, compose-transposes, sink-transposes, sink-reshapes
func.func @f() {
  return
}
