// mod and shifts become elementwise linalg.generics with guarded divisors / amounts.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-graph-to-linalg))' | FileCheck %s

// CHECK-LABEL: func.func @floored
// CHECK: linalg.generic
// CHECK: %[[ZERO_DIV:.*]] = arith.cmpi eq, %[[D:.*]], %{{.*}} : i32
// CHECK: %[[MINUS_ONE:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : i32
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[ZERO_DIV]], %[[MINUS_ONE]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[UNSAFE]], %{{.*}}, %[[D]] : i32
// CHECK: %[[REM:.*]] = arith.remsi %{{.*}}, %[[SAFE]] : i32
// CHECK: %[[R:.*]] = arith.select %[[ZERO_DIV]], %{{.*}}, %[[REM]] : i32
// CHECK: arith.xori
// CHECK: arith.andi
// CHECK: %[[ADDED:.*]] = arith.addi %[[R]], %[[D]] : i32
// CHECK: arith.select %{{.*}}, %[[ADDED]], %[[R]] : i32
func.func @floored(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = glow.graph.mod %a, %b sign_follow_divisor : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Unsigned: remui, no sign fix-up; the types become signless.
// CHECK-LABEL: func.func @unsigned
// CHECK-SAME: tensor<4xi8>
// CHECK: arith.remui
// CHECK-NOT: arith.xori
// CHECK: return
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = glow.graph.mod %a, %b sign_follow_divisor : tensor<4xui8>
  return %0 : tensor<4xui8>
}

// CHECK-LABEL: func.func @float
// CHECK: arith.remf
func.func @float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = glow.graph.mod %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @shifts
// CHECK: %[[L:.*]] = arith.shli %[[X:.*]], %[[N:.*]] : i8
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %[[N]], %{{.*}} : i8
// CHECK: arith.select %[[FAR]], %{{.*}}, %[[L]] : i8
// CHECK: arith.shrui
// CHECK: %[[CLAMPED:.*]] = arith.minui %{{.*}}, %{{.*}} : i32
// CHECK: arith.shrsi %{{.*}}, %[[CLAMPED]] : i32
func.func @shifts(%x: tensor<4xui8>, %n: tensor<4xui8>, %y: tensor<4xi32>, %m: tensor<4xi32>)
    -> (tensor<4xui8>, tensor<4xui8>, tensor<4xi32>) {
  %0 = glow.graph.shift_left %x, %n : tensor<4xui8>
  %1 = glow.graph.shift_right %x, %n : tensor<4xui8>
  %2 = glow.graph.shift_right %y, %m : tensor<4xi32>
  return %0, %1, %2 : tensor<4xui8>, tensor<4xui8>, tensor<4xi32>
}
