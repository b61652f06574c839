// Every tensor-level op prints and reads back, in the custom and the generic form.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @structured(
func.func @structured(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  // CHECK: [[E:%.*]] = tensor.empty() : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  // CHECK: [[F:%.*]] = tensor.fill [[Z:%.*]], [[E]] : (f32, tensor<4xf32>) -> tensor<4xf32>
  %f = tensor.fill %z, %e : (f32, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs([[F]] : tensor<4xf32>) {
  // CHECK-NEXT: ^bb0([[X:%.*]]: f32, [[Y:%.*]]: f32, [[ACC:%.*]]: f32):
  // CHECK-NEXT: [[I:%.*]] = tensor.index 1 : index
  // CHECK-NEXT: [[V:%.*]] = tensor.extract %b[[[I]]] : tensor<8xf32>
  // CHECK-NEXT: [[M:%.*]] = arith.mulf [[X]], [[V]] : f32
  // CHECK-NEXT: [[S:%.*]] = arith.addf [[M]], [[ACC]] : f32
  // CHECK-NEXT: tensor.yield [[S]] : f32
  // CHECK-NEXT: } -> tensor<4xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %i = tensor.index 1 : index
    %v = tensor.extract %b[%i] : tensor<8xf32>
    %m = arith.mulf %x, %v : f32
    %s = arith.addf %m, %acc : f32
    tensor.yield %s : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @two_outputs_and_conv_map(
func.func @two_outputs_and_conv_map(%x: tensor<10xf32>, %w: tensor<3xf32>, %o1: tensor<8xf32>, %o2: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> ((d0 + d1))>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
  // CHECK: } -> tensor<8xf32>, tensor<8xf32>
  %r:2 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%o1, %o2 : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %m: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %s, %p : f32
    %u = arith.maximumf %m, %a : f32
    tensor.yield %t, %u : f32, f32
  } -> tensor<8xf32>, tensor<8xf32>
  func.return %r#0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @movement(
func.func @movement(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<32xf32> {
  %z = arith.constant 0.0 : f32
  // CHECK: tensor.pad %a, {{%.*}} {low = array<i64: 1, 0>, high = array<i64: 2, 3>} : (tensor<4x8xf32>, f32) -> tensor<7x11xf32>
  %p = tensor.pad %a, %z {low = array<i64: 1, 0>, high = array<i64: 2, 3>} : (tensor<4x8xf32>, f32) -> tensor<7x11xf32>
  // CHECK: tensor.extract_slice {{%.*}} {offsets = array<i64: 6, 0>, sizes = array<i64: 3, 4>, strides = array<i64: -2, 3>} : (tensor<7x11xf32>) -> tensor<3x4xf32>
  %s = tensor.extract_slice %p {offsets = array<i64: 6, 0>, sizes = array<i64: 3, 4>, strides = array<i64: -2, 3>} : (tensor<7x11xf32>) -> tensor<3x4xf32>
  // CHECK: tensor.insert_slice {{%.*}}, %a {offsets = array<i64: 0, 1>, strides = array<i64: 1, 2>} : (tensor<3x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %i = tensor.insert_slice %s, %a {offsets = array<i64: 0, 1>, strides = array<i64: 1, 2>} : (tensor<3x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: tensor.concat %a, %b {dim = 0} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>
  %c = tensor.concat %a, %b {dim = 0} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<6x8xf32>
  // CHECK: tensor.reshape {{%.*}} : (tensor<4x8xf32>) -> tensor<32xf32>
  %r = tensor.reshape %i : (tensor<4x8xf32>) -> tensor<32xf32>
  func.return %r : tensor<32xf32>
}

// Attributes beside the two properties (a schedule's knobs) print after the operands, as
// linalg.generic's `attrs = {...}`, and read back: --emit=tensor keeps a conv's blocking.
// CHECK-LABEL: func.func @scheduled(
func.func @scheduled(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: tensor.generic {{.*}} outs(%a : tensor<4xf32>) attrs = {schedule.ow_tile = 7 : i64} {
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%a : tensor<4xf32>) attrs = {schedule.ow_tile = 7 : i64} {
  ^bb0(%x: f32):
    tensor.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
