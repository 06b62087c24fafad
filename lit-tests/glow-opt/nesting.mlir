// MLIR's parser recurses once per nesting level and has no limit of its own: the Glow
// tools refuse text nested deeper than 2000 levels with a located error (no stack
// overflow, no abort), and parse, transform, verify and print text nested up to that
// depth on a thread whose stack holds it (regions, types and attributes).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "n = 100000; open('%t/regions.mlir', 'w').write('func.func @f() {\n' + 'scf.execute_region {\n' * n + 'scf.yield\n}\n' * n + 'return\n}\n')"
// RUN: not glow-opt %t/regions.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not glow-opt - < %t/regions.mlir 2>&1 | FileCheck %s --check-prefix=DEEP-STDIN
// RUN: not glow-opt %t/regions.mlir --emit-bytecode -o %t/out.mlirbc 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not glow-run %t/regions.mlir --function f 2>&1 | FileCheck %s --check-prefix=DEEP-JIT
// RUN: not glow-compile %t/regions.mlir --function f -o %t/bundle 2>&1 | FileCheck %s --check-prefix=DEEP-BUNDLE
// RUN: not ls %t/out.mlirbc %t/bundle
// DEEP: regions.mlir:2001:20: error: nesting deeper than 2000 levels (brackets, braces, parentheses, angle brackets)
// DEEP-NOT: Stack dump
// DEEP-STDIN: <stdin>:2001:20: error: nesting deeper than 2000 levels
// DEEP-JIT: glow-run: error: {{.*}}regions.mlir:2001:20: nesting deeper than 2000 levels
// DEEP-BUNDLE: glow-compile: error: {{.*}}regions.mlir:2001:20: nesting deeper than 2000 levels

// RUN: %python -c "n = 1998; open('%t/ok.mlir', 'w').write('func.func @f() {\n' + 'scf.execute_region {\n' * n + 'scf.yield\n}\n' * n + 'return\n}\n')"
// RUN: glow-opt %t/ok.mlir --canonicalize --verify-roundtrip | FileCheck %s --check-prefix=OK
// OK: func.func @f()
// RUN: %python -c "n = 1996; open('%t/types.mlir', 'w').write('func.func @f(%%a: ' + 'tuple<' * n + 'i32' + '>' * n + ') { return }\n')"
// RUN: glow-opt %t/types.mlir --cse | FileCheck %s --check-prefix=TYPES
// TYPES: func.func @f(%arg0: tuple<tuple<
// RUN: %python -c "n = 1997; open('%t/attributes.mlir', 'w').write('func.func @f() attributes {x = ' + '[' * n + '1' + ']' * n + '} { return }\n')"
// RUN: glow-opt %t/attributes.mlir --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// GENERIC: "func.func"()

// Strings, comments and arrows do not count.
// RUN: glow-opt %s | FileCheck %s --check-prefix=TEXT
// TEXT: func.func @strings() attributes {s = "(((((((((({{\[\[\[\[\[\[\[\[\[\[}}{{[{][{][{][{][{][{][{][{][{][{]}}<<<<<<<<<<"}
func.func @strings() attributes {s = "(((((((((([[[[[[[[[[{{{{{{{{{{<<<<<<<<<<"} {
  // ((((((((((((((((((((((((((((((((((((((((
  return
}

// Bytecode is not text: a string of 3000 braces inside a bytecode file is read as is.
// RUN: %python -c "open('%t/braces.mlir', 'w').write('func.func @b() attributes {s = \"' + '{' * 3000 + '\"} { return }\n')"
// RUN: glow-opt %t/braces.mlir --emit-bytecode -o %t/braces.mlirbc
// RUN: glow-opt %t/braces.mlirbc | FileCheck %s --check-prefix=BYTECODE
// BYTECODE: func.func @b() attributes {s = "{{[{]+}}"}
