// glow-cpu-vectorize-elementwise: an int8 lookup table (glow.quant.lookup_table's
// lowering: sigmoid / tanh, fused with the quantized multiply of a SiLU) reads a
// 256-entry table at an index computed per element, which LLVM's loop vectorizer
// leaves scalar. Such generics become rows of vector code with the reads as
// vector.gather from the table (8-bit entries, or 32-bit as glow-graph-to-linalg
// widens them so that a gather is one vpgatherdd), plain elementwise or not; other
// gathers (from larger or float tables, as an embedding) stay as they are.
// RUN: glow-opt %s --pass-pipeline='builtin.module(func.func(glow-cpu-vectorize-elementwise))' | FileCheck %s

#map = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @silu
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<1x32xi8>, vector<1x32xi8>
// CHECK: vector.gather %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : tensor<256xi8>, vector<1x32xindex>, vector<1x32xi1>, vector<1x32xi8> into vector<1x32xi8>
// CHECK: arith.muli {{.*}} : vector<1x32xi32>
// CHECK-NOT: linalg.generic
func.func @silu(%x: tensor<8x32xi8>) -> tensor<8x32xi8> {
  %table = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1]> : tensor<256xi8>
  %empty = tensor.empty() : tensor<8x32xi8>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x32xi8>) outs(%empty : tensor<8x32xi8>) {
  ^bb0(%in: i8, %out: i8):
    %wide = arith.extui %in : i8 to i32
    %index = arith.index_cast %wide : i32 to index
    %looked = tensor.extract %table[%index] : tensor<256xi8>
    %s = arith.extui %looked : i8 to i32
    %product = arith.muli %wide, %s : i32
    %narrow = arith.trunci %product : i32 to i8
    linalg.yield %narrow : i8
  } -> tensor<8x32xi8>
  return %y : tensor<8x32xi8>
}

// CHECK-LABEL: func.func @widened_table
// CHECK: vector.gather %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : tensor<256xi32>, vector<1x16xindex>, vector<1x16xi1>, vector<1x16xi32> into vector<1x16xi32>
// CHECK: arith.trunci {{.*}} : vector<1x16xi32> to vector<1x16xi8>
// CHECK-NOT: linalg.generic
func.func @widened_table(%x: tensor<4x16xi8>) -> tensor<4x16xi8> {
  %table = arith.constant dense<3> : tensor<256xi32>
  %empty = tensor.empty() : tensor<4x16xi8>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xi8>) outs(%empty : tensor<4x16xi8>) {
  ^bb0(%in: i8, %out: i8):
    %wide = arith.extui %in : i8 to i32
    %index = arith.index_cast %wide : i32 to index
    %word = tensor.extract %table[%index] : tensor<256xi32>
    %narrow = arith.trunci %word : i32 to i8
    linalg.yield %narrow : i8
  } -> tensor<4x16xi8>
  return %y : tensor<4x16xi8>
}

// CHECK-LABEL: func.func @embedding_left_alone
// CHECK: linalg.generic
// CHECK: tensor.extract
// CHECK-NOT: vector.gather
func.func @embedding_left_alone(%ids: tensor<8x32xi32>, %table: tensor<1024xf32>) -> tensor<8x32xf32> {
  %empty = tensor.empty() : tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8x32xi32>) outs(%empty : tensor<8x32xf32>) {
  ^bb0(%in: i32, %out: f32):
    %index = arith.index_cast %in : i32 to index
    %v = tensor.extract %table[%index] : tensor<1024xf32>
    linalg.yield %v : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// A row of 672 lookups (EfficientNet's channels), which 128 does not divide: pieces
// of 224 (the longest multiple of 16 that divides it), each vectorized.
// CHECK-LABEL: func.func @long_row_of_lookups
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK: vector.gather %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : tensor<256xi32>, vector<1x224xindex>, vector<1x224xi1>, vector<1x224xi32> into vector<1x224xi32>
// CHECK-NOT: linalg.generic
func.func @long_row_of_lookups(%x: tensor<2x672xi8>) -> tensor<2x672xi8> {
  %table = arith.constant dense<3> : tensor<256xi32>
  %empty = tensor.empty() : tensor<2x672xi8>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x672xi8>) outs(%empty : tensor<2x672xi8>) {
  ^bb0(%in: i8, %out: i8):
    %wide = arith.extui %in : i8 to i32
    %index = arith.index_cast %wide : i32 to index
    %word = tensor.extract %table[%index] : tensor<256xi32>
    %narrow = arith.trunci %word : i32 to i8
    linalg.yield %narrow : i8
  } -> tensor<2x672xi8>
  return %y : tensor<2x672xi8>
}
