// Vector loads and stores of i1 become byte accesses (one byte per boolean, as i1
// buffers hold them); scalar accesses and other element types are left alone.
// RUN: glow-opt %s --glow-byte-bools | FileCheck %s

// CHECK-LABEL: llvm.func @load
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.zero : vector<16xi8>
// CHECK-DAG: %[[BYTES:.*]] = llvm.load %arg0 {alignment = 1 : i64} : !llvm.ptr -> vector<16xi8>
// CHECK: %[[BOOLS:.*]] = llvm.icmp "ne" %[[BYTES]], %[[ZERO]] : vector<16xi8>
// CHECK: llvm.return %[[BOOLS]] : vector<16xi1>
llvm.func @load(%p: !llvm.ptr) -> vector<16xi1> {
  %0 = llvm.load %p {alignment = 1 : i64} : !llvm.ptr -> vector<16xi1>
  llvm.return %0 : vector<16xi1>
}

// CHECK-LABEL: llvm.func @store
// CHECK: %[[WIDE:.*]] = llvm.zext %arg1 : vector<8xi1> to vector<8xi8>
// CHECK: llvm.store %[[WIDE]], %arg0 : vector<8xi8>, !llvm.ptr
llvm.func @store(%p: !llvm.ptr, %v: vector<8xi1>) {
  llvm.store %v, %p : vector<8xi1>, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @masked
// CHECK: %[[PASS:.*]] = llvm.zext %arg2 : vector<16xi1> to vector<16xi8>
// CHECK: %[[READ:.*]] = llvm.intr.masked.load %arg0, %arg1, %[[PASS]] {alignment = 1 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xi8>) -> vector<16xi8>
// CHECK: llvm.icmp "ne" %[[READ]]
// CHECK: %[[OUT:.*]] = llvm.zext %{{.*}} : vector<16xi1> to vector<16xi8>
// CHECK: llvm.intr.masked.store %[[OUT]], %arg0, %arg1 {alignment = 1 : i32} : vector<16xi8>, vector<16xi1> into !llvm.ptr
llvm.func @masked(%p: !llvm.ptr, %mask: vector<16xi1>, %pass: vector<16xi1>) {
  %0 = llvm.intr.masked.load %p, %mask, %pass {alignment = 1 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xi1>) -> vector<16xi1>
  llvm.intr.masked.store %0, %p, %mask {alignment = 1 : i32} : vector<16xi1>, vector<16xi1> into !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @untouched
// CHECK: llvm.load %arg0 : !llvm.ptr -> i1
// CHECK: llvm.load %arg0 : !llvm.ptr -> vector<16xi8>
// CHECK-NOT: llvm.icmp
// CHECK: llvm.store %{{.*}}, %arg0 : i1, !llvm.ptr
llvm.func @untouched(%p: !llvm.ptr) -> vector<16xi8> {
  %0 = llvm.load %p : !llvm.ptr -> i1
  %1 = llvm.load %p : !llvm.ptr -> vector<16xi8>
  llvm.store %0, %p : i1, !llvm.ptr
  llvm.return %1 : vector<16xi8>
}
