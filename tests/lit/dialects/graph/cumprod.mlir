// graph.cumprod (ONNX CumProd) prints, round-trips (custom and generic), verifies as
// graph.cumsum, and lowers to a reduction over the axis that multiplies from 1.
// RUN: strati-opt %s --split-input-file | strati-opt --split-input-file | filecheck %s --check-prefix=RT
// RUN: strati-opt %s --split-input-file --print-op-generic | strati-opt --split-input-file | filecheck %s --check-prefix=RT
// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s --check-prefix=LOWER
// RUN: strati-opt %s --split-input-file -p fold-constants | filecheck %s --check-prefix=FOLD

// RT-LABEL: func.func @cumprod(
// RT-NEXT: graph.cumprod %x {axis = 1} : tensor<4x7xf32>
// RT-NEXT: graph.cumprod %x {axis = 0, exclusive = true, reverse = true} : tensor<4x7xf32>
// LOWER-LABEL: func.func @cumprod(
// LOWER: [[ONE:%.*]] = tensor.fill
// LOWER-NEXT: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x7xf32>) outs([[ONE]] : tensor<4x7xf32>)
// LOWER-NEXT: ^{{.*}}([[E:%.*]]: f32, [[ACC:%.*]]: f32):
// LOWER-NEXT: [[J:%.*]] = tensor.index 2 : index
// LOWER-NEXT: [[I:%.*]] = tensor.index 1 : index
// LOWER-NEXT: [[TAKE:%.*]] = arith.cmpi sle, [[J]], [[I]] : index
// LOWER-NEXT: [[P:%.*]] = arith.mulf [[ACC]], [[E]] : f32
// LOWER-NEXT: arith.select [[TAKE]], [[P]], [[ACC]] : f32
func.func @cumprod(%x: tensor<4x7xf32>) -> (tensor<4x7xf32>, tensor<4x7xf32>) {
  %a = graph.cumprod %x {axis = 1, exclusive = false} : tensor<4x7xf32>
  %b = graph.cumprod %x {axis = 0, exclusive = true, reverse = true} : tensor<4x7xf32>
  func.return %a, %b : tensor<4x7xf32>, tensor<4x7xf32>
}

// -----

// The reference folds a constant operand (exclusive: 1 first).
// FOLD-LABEL: func.func @folded(
// FOLD-NEXT: graph.constant dense<[1, 2, 6, 24]> : tensor<4xi32>
// FOLD-NEXT: graph.constant dense<[1, 1, 2, 6]> : tensor<4xi32>
func.func @folded() -> (tensor<4xi32>, tensor<4xi32>) {
  %n = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %a = graph.cumprod %n {axis = 0} : tensor<4xi32>
  %b = graph.cumprod %n {axis = 0, exclusive = true} : tensor<4xi32>
  func.return %a, %b : tensor<4xi32>, tensor<4xi32>
}
