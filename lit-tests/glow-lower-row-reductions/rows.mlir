// glow-lower-row-reductions: a float multi_reduction over one row (every kept axis of
// size 1) becomes 16-lane pieces combined pairwise, one vector.reduction and the
// accumulator combined last; sums reassociate, and minima and maxima halve the vector
// while its width is even (16 -> 8 -> 4 -> 2 -> 1: a tree, where LLVM folds lane by
// lane). Column reductions, several rows, integer kinds and masked reductions keep
// upstream's lowering.
// RUN: glow-opt %s --glow-lower-row-reductions | FileCheck %s

// CHECK-LABEL: func.func @row_max
// CHECK-SAME: (%[[V:.*]]: vector<1x1x64xf32>, %[[ACC:.*]]: vector<1x1xf32>)
// CHECK: %[[ROW:.*]] = vector.shape_cast %[[V]] : vector<1x1x64xf32> to vector<64xf32>
// CHECK-DAG: %[[P0:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [0], sizes = [16], strides = [1]}
// CHECK-DAG: %[[P1:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [16], sizes = [16], strides = [1]}
// CHECK-DAG: %[[P2:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [32], sizes = [16], strides = [1]}
// CHECK-DAG: %[[P3:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [48], sizes = [16], strides = [1]}
// CHECK-DAG: %[[M01:.*]] = arith.maximumf %[[P0]], %[[P1]] : vector<16xf32>
// CHECK-DAG: %[[M23:.*]] = arith.maximumf %[[P2]], %[[P3]] : vector<16xf32>
// CHECK: %[[M:.*]] = arith.maximumf %[[M01]], %[[M23]] : vector<16xf32>
// CHECK-DAG: %[[L8:.*]] = vector.extract_strided_slice %[[M]] {offsets = [0], sizes = [8], strides = [1]}
// CHECK-DAG: %[[H8:.*]] = vector.extract_strided_slice %[[M]] {offsets = [8], sizes = [8], strides = [1]}
// CHECK: %[[M8:.*]] = arith.maximumf %[[L8]], %[[H8]] : vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<4xf32>
// CHECK: arith.maximumf {{.*}} : vector<2xf32>
// CHECK: %[[M1:.*]] = arith.maximumf {{.*}} : vector<1xf32>
// CHECK: %[[R:.*]] = vector.reduction <maximumf>, %[[M1]] : vector<1xf32> into f32
// CHECK: %[[S:.*]] = vector.broadcast %[[R]] : f32 to vector<1x1xf32>
// CHECK: %[[OUT:.*]] = arith.maximumf %[[S]], %[[ACC]] : vector<1x1xf32>
// CHECK-NOT: vector.multi_reduction
// CHECK: return %[[OUT]]
func.func @row_max(%v: vector<1x1x64xf32>, %acc: vector<1x1xf32>) -> vector<1x1xf32> {
  %0 = vector.multi_reduction <maximumf>, %v, %acc [2] : vector<1x1x64xf32> to vector<1x1xf32>
  return %0 : vector<1x1xf32>
}

// A 1-D row has a scalar accumulator; a sum reassociates, a row of other than a
// multiple of 16 lanes is reduced whole.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[V:.*]]: vector<24xf32>, %[[ACC:.*]]: f32)
// CHECK-NOT: extract_strided_slice
// CHECK: %[[R:.*]] = vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<24xf32> into f32
// CHECK: arith.addf %[[R]], %[[ACC]] fastmath<reassoc> : f32
func.func @row_sum(%v: vector<24xf32>, %acc: f32) -> f32 {
  %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<24xf32> to f32
  return %0 : f32
}

// A minimum over 24 lanes halves while it can (12, 6, 3), then reduces the last 3.
// CHECK-LABEL: func.func @row_min
// CHECK: arith.minnumf {{.*}} : vector<12xf32>
// CHECK: arith.minnumf {{.*}} : vector<6xf32>
// CHECK: arith.minnumf {{.*}} : vector<3xf32>
// CHECK: vector.reduction <minnumf>, {{.*}} : vector<3xf32> into f32
func.func @row_min(%v: vector<24xf32>, %acc: f32) -> f32 {
  %0 = vector.multi_reduction <minnumf>, %v, %acc [0] : vector<24xf32> to f32
  return %0 : f32
}

// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: vector.multi_reduction
// CHECK-NOT: vector.reduction
func.func @left_alone(%columns: vector<4x16xf32>, %c: vector<16xf32>,
                      %rows: vector<2x64xf32>, %r: vector<2xf32>,
                      %ints: vector<1x64xi32>, %i: vector<1xi32>,
                      %mask: vector<1x64xi1>, %floats: vector<1x64xf32>, %m: vector<1xf32>)
    -> (vector<16xf32>, vector<2xf32>, vector<1xi32>, vector<1xf32>) {
  %0 = vector.multi_reduction <maximumf>, %columns, %c [0] : vector<4x16xf32> to vector<16xf32>
  %1 = vector.multi_reduction <add>, %rows, %r [1] : vector<2x64xf32> to vector<2xf32>
  %2 = vector.multi_reduction <add>, %ints, %i [1] : vector<1x64xi32> to vector<1xi32>
  %3 = vector.mask %mask { vector.multi_reduction <add>, %floats, %m [1] : vector<1x64xf32> to vector<1xf32> } : vector<1x64xi1> -> vector<1xf32>
  return %0, %1, %2, %3 : vector<16xf32>, vector<2xf32>, vector<1xi32>, vector<1xf32>
}
