// Bad input gets a located diagnostic or a one-line error, exit code 1, no crash,
// and no output file.
// RUN: rm -f %t.out
// RUN: glow-opt %S/Inputs/syntax-error.mlir -o %t.out > %t.log 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SYNTAX < %t.log
// RUN: not test -e %t.out
// SYNTAX: syntax-error.mlir:3:27: error: expected '>'
// SYNTAX-NOT: Stack dump
// SYNTAX-NOT: PLEASE submit a bug report

// RUN: glow-opt %S/Inputs/verifier-error.mlir -o %t.out > %t.log 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=VERIFY < %t.log
// RUN: not test -e %t.out
// VERIFY: verifier-error.mlir:3:8: error: 'glow.graph.reshape' op cannot reshape 2 elements into 3

// RUN: glow-opt %t.does-not-exist.mlir > %t.log 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MISSING < %t.log
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-lower-nodez))' > %t.log 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=UNKNOWN-PASS < %t.log
// UNKNOWN-PASS: 'glow-lower-nodez' does not refer to a registered pass or pass pipeline

// RUN: glow-opt %s --no-such-flag > %t.log 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=UNKNOWN-FLAG < %t.log
// UNKNOWN-FLAG: Unknown command line argument '--no-such-flag'

func.func @ok() {
  return
}
