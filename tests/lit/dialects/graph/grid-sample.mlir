// graph.grid_sample prints in the graph syntax and round-trips, custom and generic; properties
// holding their default value (mode "linear", padding_mode "zeros", align_corners false) are not printed.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @grid_sample(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x5x7xf32>, [[G:%.*]]: tensor<2x4x6x2xf32>, [[V:%.*]]: tensor<1x2x3x4x5xf16>, [[H:%.*]]: tensor<1x2x2x3x3xf64>, [[I:%.*]]: tensor<1x1x9xi32>, [[K:%.*]]: tensor<1x4x1xf32>)
func.func @grid_sample(%x: tensor<2x3x5x7xf32>, %g: tensor<2x4x6x2xf32>, %v: tensor<1x2x3x4x5xf16>, %h: tensor<1x2x2x3x3xf64>, %i: tensor<1x1x9xi32>, %k: tensor<1x4x1xf32>) -> (tensor<2x3x4x6xf32>, tensor<2x3x4x6xf32>, tensor<1x2x2x2x3xf16>, tensor<1x1x4xi32>) {
  // CHECK-NEXT: graph.grid_sample [[X]], [[G]] : (tensor<2x3x5x7xf32>, tensor<2x4x6x2xf32>) -> tensor<2x3x4x6xf32>
  // CHECK-NEXT: graph.grid_sample [[X]], [[G]] {mode = "cubic", padding_mode = "reflection", align_corners = true} : (tensor<2x3x5x7xf32>, tensor<2x4x6x2xf32>) -> tensor<2x3x4x6xf32>
  // CHECK-NEXT: graph.grid_sample [[V]], [[H]] {mode = "nearest", padding_mode = "border"} : (tensor<1x2x3x4x5xf16>, tensor<1x2x2x3x3xf64>) -> tensor<1x2x2x2x3xf16>
  // CHECK-NEXT: graph.grid_sample [[I]], [[K]] {mode = "nearest"} : (tensor<1x1x9xi32>, tensor<1x4x1xf32>) -> tensor<1x1x4xi32>
  %a = graph.grid_sample %x, %g : (tensor<2x3x5x7xf32>, tensor<2x4x6x2xf32>) -> tensor<2x3x4x6xf32>
  %b = graph.grid_sample %x, %g {mode = "cubic", padding_mode = "reflection", align_corners = true} : (tensor<2x3x5x7xf32>, tensor<2x4x6x2xf32>) -> tensor<2x3x4x6xf32>
  %c = graph.grid_sample %v, %h {mode = "nearest", padding_mode = "border", align_corners = false} : (tensor<1x2x3x4x5xf16>, tensor<1x2x2x3x3xf64>) -> tensor<1x2x2x2x3xf16>
  %d = graph.grid_sample %i, %k {mode = "nearest"} : (tensor<1x1x9xi32>, tensor<1x4x1xf32>) -> tensor<1x1x4xi32>
  func.return %a, %b, %c, %d : tensor<2x3x4x6xf32>, tensor<2x3x4x6xf32>, tensor<1x2x2x2x3xf16>, tensor<1x1x4xi32>
}
