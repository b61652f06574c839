// RUN: strati-opt %s --split-input-file -p convert-tensor-to-loop | filecheck %s
// RUN: strati-opt %s --split-input-file -p convert-tensor-to-loop | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p convert-tensor-to-loop --print-op-generic | strati-opt --split-input-file | filecheck %s
//
// Every function here is also run numerically (loop interpreter against numpy and the
// tensor-level interpreter) by tests/unit/test_tensor_to_loop.py, which needs a formula
// for each function name.

// Elementwise with a broadcast operand, computed straight into the output argument:
// destination-passing signature, no temporary, both loops parallel.
// CHECK-LABEL: func.func @bias_relu(
// CHECK-SAME: %x: memref<2x3xf32>, %b: memref<3xf32>, %out: memref<2x3xf32>) attributes {strati.outputs = 1 : i64} {
// CHECK-NOT: memref.alloc
// CHECK: loop.for [[I:%[a-z0-9_]+]] = [[C0:%[a-z0-9_]+]] to [[C2:%[a-z0-9_]+]] step [[C1:%[a-z0-9_]+]] {
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = [[C0]] to [[C3:%[a-z0-9_]+]] step [[C1]] {
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = memref.load %x[[[I]], [[J]]] : memref<2x3xf32>
// CHECK-NEXT: [[B:%[a-z0-9_]+]] = memref.load %b[[[J]]] : memref<3xf32>
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.addf [[A]], [[B]] : f32
// CHECK-NEXT: [[Z:%[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.maximumf [[S]], [[Z]] : f32
// CHECK-NEXT: memref.store [[R]], %out[[[I]], [[J]]] : memref<2x3xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: func.return
// CHECK-NEXT: }
func.func @bias_relu(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %z : f32
    tensor.yield %r : f32
  } -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// A row sum: the fill initialises the output in place, the reduction loop is
// innermost and not parallel; the accumulator is loaded and stored each step.
// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME: %x: memref<3x4xf32>, %out: memref<3xf32>) attributes {strati.outputs = 1 : i64} {
// CHECK-NOT: memref.alloc
// CHECK: [[ZERO:%[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: loop.for [[K:%[a-z0-9_]+]] = {{.*}} {
// CHECK-NEXT: memref.store [[ZERO]], %out[[[K]]] : memref<3xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] = {{.*}} {
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = {{.*}} {
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = memref.load %x[[[I]], [[J]]] : memref<3x4xf32>
// CHECK-NEXT: [[ACC:%[a-z0-9_]+]] = memref.load %out[[[I]]] : memref<3xf32>
// CHECK-NEXT: [[T:%[a-z0-9_]+]] = arith.addf [[ACC]], [[A]] : f32
// CHECK-NEXT: memref.store [[T]], %out[[[I]]] : memref<3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: func.return
func.func @row_sum(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = tensor.fill %zero, %e : (f32, tensor<3xf32>) -> tensor<3xf32>
  %s = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    tensor.yield %t : f32
  } -> tensor<3xf32>
  func.return %s : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %a: memref<2x3xf32>, %b: memref<3x4xf32>, %out: memref<2x4xf32>)
// CHECK-DAG: [[C2:%[a-z0-9_]+]] = arith.constant 2 : index
// CHECK-DAG: [[C3:%[a-z0-9_]+]] = arith.constant 3 : index
// CHECK-DAG: [[C4:%[a-z0-9_]+]] = arith.constant 4 : index
// CHECK: loop.for
// CHECK-NEXT: loop.for
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] = {{%[a-z0-9_]+}} to [[C2]] step
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = {{%[a-z0-9_]+}} to [[C4]] step
// CHECK-NEXT: loop.for [[K:%[a-z0-9_]+]] = {{%[a-z0-9_]+}} to [[C3]] step
// CHECK-NEXT: [[X:%[a-z0-9_]+]] = memref.load %a[[[I]], [[K]]] : memref<2x3xf32>
// CHECK-NEXT: [[Y:%[a-z0-9_]+]] = memref.load %b[[[K]], [[J]]] : memref<3x4xf32>
// CHECK-NEXT: [[ACC:%[a-z0-9_]+]] = memref.load %out[[[I]], [[J]]] : memref<2x4xf32>
// CHECK-NEXT: [[M:%[a-z0-9_]+]] = arith.mulf [[X]], [[Y]] : f32
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.addf [[ACC]], [[M]] : f32
// CHECK-NEXT: memref.store [[S]], %out[[[I]], [[J]]] : memref<2x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = tensor.fill %zero, %e : (f32, tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f : tensor<2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    tensor.yield %s : f32
  } -> tensor<2x4xf32>
  func.return %c : tensor<2x4xf32>
}

// -----

// A gather through tensor.extract (a load from the captured buffer), plus the loop
// index itself (tensor.index is the induction variable).
// CHECK-LABEL: func.func @gather_plus_index(
// CHECK-SAME: %table: memref<5xf32>, %idx: memref<2x3xi32>, %out: memref<2x3xf32>)
// CHECK: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] =
// CHECK-NEXT: [[N:%[a-z0-9_]+]] = memref.load %idx[[[I]], [[J]]] : memref<2x3xi32>
// CHECK-NEXT: [[K:%[a-z0-9_]+]] = arith.index_cast [[N]] : i32 to index
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = memref.load %table[[[K]]] : memref<5xf32>
// CHECK-NEXT: [[JI:%[a-z0-9_]+]] = arith.index_cast [[J]] : index to i32
// CHECK-NEXT: [[JF:%[a-z0-9_]+]] = arith.sitofp [[JI]] : i32 to f32
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.addf [[V]], [[JF]] : f32
// CHECK-NEXT: memref.store [[R]], %out[[[I]], [[J]]] : memref<2x3xf32>
// CHECK-NOT: tensor.
func.func @gather_plus_index(%table: tensor<5xf32>, %idx: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %g = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<2x3xi32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %k = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%k] : tensor<5xf32>
    %j = tensor.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %r = arith.addf %v, %jf : f32
    tensor.yield %r : f32
  } -> tensor<2x3xf32>
  func.return %g : tensor<2x3xf32>
}

// -----

// The returned reshape is a view of the output: its source is computed into that view.
// CHECK-LABEL: func.func @reshape_view(
// CHECK-SAME: %x: memref<2x3xf32>, %out: memref<6xf32>)
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = loop.view %out : memref<6xf32> to memref<2x3xf32>
// CHECK-NOT: memref.alloc
// CHECK: memref.store {{%[a-z0-9_]+}}, [[V]][{{%[a-z0-9_]+}}, {{%[a-z0-9_]+}}] : memref<2x3xf32>
// CHECK-NOT: memref.store
// CHECK: func.return
func.func @reshape_view(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %n = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    tensor.yield %r : f32
  } -> tensor<2x3xf32>
  %v = tensor.reshape %n : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return %v : tensor<6xf32>
}

// -----

// A reshape of an argument, read through a view (a transpose after it).
// CHECK-LABEL: func.func @reshape_input(
// CHECK: [[V:%[a-z0-9_]+]] = loop.view %x : memref<6xf32> to memref<2x3xf32>
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] =
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = memref.load [[V]][[[J]], [[I]]] : memref<2x3xf32>
// CHECK-NEXT: memref.store [[A]], %out[[[I]], [[J]]] : memref<3x2xf32>
func.func @reshape_input(%x: tensor<6xf32>) -> tensor<3x2xf32> {
  %v = tensor.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %t = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    tensor.yield %a : f32
  } -> tensor<3x2xf32>
  func.return %t : tensor<3x2xf32>
}

// -----

// A copy nest per operand; the second is offset along the concatenated dimension.
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %a: memref<2x2xf32>, %b: memref<2x3xf32>, %out: memref<2x5xf32>)
// CHECK: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] =
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = memref.load %a[[[I]], [[J]]] : memref<2x2xf32>
// CHECK-NEXT: memref.store [[A]], %out[[[I]], [[J]]] : memref<2x5xf32>
// CHECK: loop.for [[K:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[L:%[a-z0-9_]+]] =
// CHECK-NEXT: [[B:%[a-z0-9_]+]] = memref.load %b[[[K]], [[L]]] : memref<2x3xf32>
// CHECK-NEXT: [[L2:%[a-z0-9_]+]] = arith.addi [[L]], [[C2:%[a-z0-9_]+]] : index
// CHECK-NEXT: memref.store [[B]], %out[[[K]], [[L2]]] : memref<2x5xf32>
func.func @concat(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %c = tensor.concat %a, %b {dim = 1} : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  func.return %c : tensor<2x5xf32>
}

// -----

// Every other element of two rows, backwards: source index 5 - 2 * j.
// CHECK-LABEL: func.func @reverse_slice(
// CHECK-DAG: [[M2:%[a-z0-9_]+]] = arith.constant -2 : index
// CHECK-DAG: [[C5:%[a-z0-9_]+]] = arith.constant 5 : index
// CHECK-DAG: [[C1:%[a-z0-9_]+]] = arith.constant 1 : index
// CHECK: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] =
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.addi [[I]], [[C1]] : index
// CHECK-NEXT: [[T:%[a-z0-9_]+]] = arith.muli [[J]], [[M2]] : index
// CHECK-NEXT: [[C:%[a-z0-9_]+]] = arith.addi [[T]], [[C5]] : index
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = memref.load %x[[[R]], [[C]]] : memref<3x6xf32>
// CHECK-NEXT: memref.store [[V]], %out[[[I]], [[J]]] : memref<2x3xf32>
func.func @reverse_slice(%x: tensor<3x6xf32>) -> tensor<2x3xf32> {
  %s = tensor.extract_slice %x {offsets = array<i64: 1, 5>, sizes = array<i64: 2, 3>, strides = array<i64: 1, -2>} : (tensor<3x6xf32>) -> tensor<2x3xf32>
  func.return %s : tensor<2x3xf32>
}

// -----

// insert_slice into a temporary that has no later use: the temporary is computed in
// the output and the slice is written over it in place.
// CHECK-LABEL: func.func @insert(
// CHECK-SAME: %src: memref<2x2xf32>, %x: memref<3x4xf32>, %out: memref<3x4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: arith.mulf
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out
// CHECK: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] =
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = memref.load %src[[[I]], [[J]]] : memref<2x2xf32>
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.addi [[I]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT: [[C:%[a-z0-9_]+]] = arith.muli [[J]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT: memref.store [[V]], %out[[[R]], [[C]]] : memref<3x4xf32>
func.func @insert(%src: tensor<2x2xf32>, %x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %d = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    tensor.yield %r : f32
  } -> tensor<3x4xf32>
  %i = tensor.insert_slice %src, %d {offsets = array<i64: 1, 0>, strides = array<i64: 1, 3>} : (tensor<2x2xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %i : tensor<3x4xf32>
}

// -----

// Pad: a fill of the whole output, then the input copied at offset low.
// CHECK-LABEL: func.func @pad(
// CHECK: [[V:%[a-z0-9_]+]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] =
// CHECK-NEXT: memref.store [[V]], %out[[[I]], [[J]]] : memref<3x5xf32>
// CHECK: loop.for [[K:%[a-z0-9_]+]] =
// CHECK-NEXT: loop.for [[L:%[a-z0-9_]+]] =
// CHECK-NEXT: [[X:%[a-z0-9_]+]] = memref.load %x[[[K]], [[L]]] : memref<2x2xf32>
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.addi [[K]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT: [[C:%[a-z0-9_]+]] = arith.addi [[L]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT: memref.store [[X]], %out[[[R]], [[C]]] : memref<3x5xf32>
func.func @pad(%x: tensor<2x2xf32>) -> tensor<3x5xf32> {
  %v = arith.constant -1.0 : f32
  %p = tensor.pad %x, %v {low = array<i64: 1, 2>, high = array<i64: 0, 1>} : (tensor<2x2xf32>, f32) -> tensor<3x5xf32>
  func.return %p : tensor<3x5xf32>
}

// -----

// Returning an argument (twice) and a constant: each is copied into its output; the
// constant is a private constant global.
// CHECK: "memref.global"() <{sym_name = "__constant_2xf32", type = memref<2xf32>, initial_value = dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>, sym_visibility = "private", constant}> : () -> ()
// CHECK-LABEL: func.func @passthrough(
// CHECK-SAME: %x: memref<2xf32>, %out0: memref<2xf32>, %out1: memref<2xf32>, %out2: memref<2xf32>) attributes {strati.outputs = 3 : i64} {
// CHECK: [[K:%[a-z0-9_]+]] = memref.get_global @__constant_2xf32 : memref<2xf32>
// CHECK: [[A:%[a-z0-9_]+]] = memref.load %x[{{%[a-z0-9_]+}}] : memref<2xf32>
// CHECK-NEXT: memref.store [[A]], %out0
// CHECK: [[B:%[a-z0-9_]+]] = memref.load [[K]][{{%[a-z0-9_]+}}] : memref<2xf32>
// CHECK-NEXT: memref.store [[B]], %out1
// CHECK: [[C:%[a-z0-9_]+]] = memref.load %x[{{%[a-z0-9_]+}}] : memref<2xf32>
// CHECK-NEXT: memref.store [[C]], %out2
// CHECK-NOT: memref.store
// CHECK: func.return
func.func @passthrough(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %k = arith.constant dense<[1.5, -2.0]> : tensor<2xf32>
  func.return %x, %k, %x : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// A temporary between two generics is allocated, and freed after its last use; the
// second generic (reading it through (d0 + 3) mod 4, non-negative: remsi) writes the output.
// CHECK-LABEL: func.func @temporary(
// CHECK: [[W:%[a-z0-9_]+]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT: [[T:%[a-z0-9_]+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: loop.for
// CHECK: memref.store {{%[a-z0-9_]+}}, [[T]][{{%[a-z0-9_]+}}] : memref<4xf32>
// CHECK: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.addi [[I]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT: [[M:%[a-z0-9_]+]] = arith.remsi [[S]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = memref.load [[T]][[[M]]] : memref<4xf32>
// CHECK-NEXT: [[E:%[a-z0-9_]+]] = math.exp [[V]] : f32
// CHECK-NEXT: memref.store [[E]], %out[[[I]]] : memref<4xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: memref.dealloc [[T]] : memref<4xf32>
// CHECK-NEXT: func.return
func.func @temporary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %t = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    tensor.yield %m : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> ((d0 + 3) mod 4)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    tensor.yield %s : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// %a is read after the second generic, which accumulates into it: the second generic
// gets a copy of %a (no in-place write), and both temporaries are freed.
// CHECK-LABEL: func.func @inplace_conflict(
// CHECK: [[A:%[a-z0-9_]+]] = memref.alloc() : memref<4xf32>
// CHECK: [[B:%[a-z0-9_]+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = memref.load [[A]][[[I]]] : memref<4xf32>
// CHECK-NEXT: memref.store [[V]], [[B]][[[I]]] : memref<4xf32>
// CHECK: arith.addf
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, [[B]]
// CHECK: arith.subf
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out
// CHECK-NEXT: } {parallel = true}
// CHECK-DAG: memref.dealloc [[A]] : memref<4xf32>
// CHECK-DAG: memref.dealloc [[B]] : memref<4xf32>
// CHECK: func.return
func.func @inplace_conflict(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %a = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    tensor.yield %r : f32
  } -> tensor<4xf32>
  %b = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %o, %v : f32
    tensor.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %c = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.subf %p, %q : f32
    tensor.yield %r : f32
  } -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}

// -----

// One fill initialises two reductions and is returned too: each reduction gets its
// own buffer filled by a fill loop, and the returned fill is written into its output.
// CHECK-LABEL: func.func @fill_shared(
// CHECK-SAME: %out0: memref<2xf32>, %out1: memref<2xf32>) attributes {strati.outputs = 2 : i64}
// CHECK: [[Z:%[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: [[S1:%[a-z0-9_]+]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT: loop.for
// CHECK-NEXT: memref.store [[Z]], [[S1]]
// CHECK: [[S2:%[a-z0-9_]+]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT: loop.for
// CHECK-NEXT: memref.store [[Z]], [[S2]]
// CHECK: [[P:%[a-z0-9_]+]] = memref.load [[S1]]
// CHECK-NEXT: [[Q:%[a-z0-9_]+]] = memref.load [[S2]]
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.addf [[P]], [[Q]] : f32
// CHECK-NEXT: memref.store [[R]], %out0
// CHECK: memref.store [[Z]], %out1
func.func @fill_shared(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = tensor.fill %zero, %e : (f32, tensor<2xf32>) -> tensor<2xf32>
  %s1 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x3xf32>) outs(%f : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    tensor.yield %t : f32
  } -> tensor<2xf32>
  %s2 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x3xf32>) outs(%f : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %t = arith.addf %acc, %m : f32
    tensor.yield %t : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s1, %s2 : tensor<2xf32>, tensor<2xf32>) outs(%e2 : tensor<2xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    tensor.yield %t : f32
  } -> tensor<2xf32>
  func.return %r, %f : tensor<2xf32>, tensor<2xf32>
}

// -----

// Two outputs of one generic, returned in the other order: each is written in its output.
// CHECK-LABEL: func.func @min_max(
// CHECK-NOT: memref.alloc
// CHECK: arith.minimumf
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out1
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out0
func.func @min_max(%x: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %lo = arith.constant 0x7F800000 : f32
  %hi = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %fmin = tensor.fill %lo, %e : (f32, tensor<3xf32>) -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<3xf32>
  %fmax = tensor.fill %hi, %e2 : (f32, tensor<3xf32>) -> tensor<3xf32>
  %r:2 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%fmin, %fmax : tensor<3xf32>, tensor<3xf32>) {
  ^bb0(%a: f32, %m: f32, %n: f32):
    %p = arith.minimumf %m, %a : f32
    %q = arith.maximumf %n, %a : f32
    tensor.yield %p, %q : f32, f32
  } -> tensor<3xf32>, tensor<3xf32>
  func.return %r#1, %r#0 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Calls follow the convention: the callee's results become buffers the caller passes.
// CHECK-LABEL: func.func private @square(
// CHECK-SAME: %x: memref<3xf32>, %out: memref<3xf32>) attributes {strati.outputs = 1 : i64}
// CHECK-LABEL: func.func @calls(
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = memref.alloc() : memref<3xf32>
// CHECK-NEXT: func.call @square(%x, [[A]]) : (memref<3xf32>, memref<3xf32>) -> ()
// CHECK-NEXT: func.call @square([[A]], %out) : (memref<3xf32>, memref<3xf32>) -> ()
// CHECK-NEXT: memref.dealloc [[A]] : memref<3xf32>
// CHECK-NEXT: func.return
func.func private @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    tensor.yield %m : f32
  } -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

func.func @calls(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = func.call @square(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %b = func.call @square(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %b : tensor<3xf32>
}

// -----

// Rank 0: a full sum (two reduction loops, neither parallel) into a temporary, then a
// generic without loops scaling it by a scalar argument.
// CHECK-LABEL: func.func @total(
// CHECK-SAME: %x: memref<2x3xf32>, %k: f32, %out: memref<f32>)
// CHECK: [[F:%[a-z0-9_]+]] = memref.alloc() : memref<f32>
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, [[F]][] : memref<f32>
// CHECK-NEXT: loop.for
// CHECK-NEXT: loop.for
// CHECK: memref.store {{%[a-z0-9_]+}}, [[F]][] : memref<f32>
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = memref.load [[F]][] : memref<f32>
// CHECK-NEXT: memref.dealloc [[F]] : memref<f32>
// CHECK-NEXT: [[T:%[a-z0-9_]+]] = arith.mulf [[S]], %k : f32
// CHECK-NEXT: memref.store [[T]], %out[] : memref<f32>
func.func @total(%x: tensor<2x3xf32>, %k: f32) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = tensor.fill %zero, %e : (f32, tensor<f32>) -> tensor<f32>
  %s = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<2x3xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    tensor.yield %t : f32
  } -> tensor<f32>
  %e2 = tensor.empty() : tensor<f32>
  %r = tensor.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%s, %k : tensor<f32>, f32) outs(%e2 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.mulf %a, %b : f32
    tensor.yield %t : f32
  } -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// Index arithmetic that can go negative keeps floor semantics: mod as remsi plus a
// correction, floordiv and ceildiv as arith.floordivsi and arith.ceildivsi.
// CHECK-LABEL: func.func @roll(
// CHECK: loop.for [[I:%[a-z0-9_]+]] =
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.addi [[I]], [[M1:%[a-z0-9_]+]] : index
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.remsi [[S]], [[C4:%[a-z0-9_]+]] : index
// CHECK-NEXT: [[P:%[a-z0-9_]+]] = arith.addi [[R]], [[C4]] : index
// CHECK-NEXT: [[N:%[a-z0-9_]+]] = arith.cmpi slt, [[R]], {{%[a-z0-9_]+}} : index
// CHECK-NEXT: [[M:%[a-z0-9_]+]] = arith.select [[N]], [[P]], [[R]] : index
// CHECK-NEXT: memref.load %x[[[M]]] : memref<4xf32>
// CHECK: arith.floordivsi
// CHECK: arith.ceildivsi
func.func @roll(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 1) mod 4)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    tensor.yield %a : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %f = tensor.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 2) floordiv 2 + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    tensor.yield %a : f32
  } -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<4xf32>
  %c = tensor.generic {indexing_maps = [affine_map<(d0) -> ((d0 - 1) ceildiv 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e3 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    tensor.yield %a : f32
  } -> tensor<4xf32>
  func.return %r, %f, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The output map writes row 0 only: the rest of the output comes from the init (an
// argument, copied first); d0 does not index the output, so its loop is not parallel.
// CHECK-LABEL: func.func @partial_output(
// CHECK: memref.load %y
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out
// CHECK: loop.for
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] =
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = memref.load %x
// CHECK-NEXT: memref.store [[V]], %out[{{%[a-z0-9_]+}}, [[J]]] : memref<2x3xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: }{{$}}
func.func @partial_output(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x3xf32>) outs(%y : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    tensor.yield %a : f32
  } -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// The destination of the insert is read again afterwards: it is copied, not overwritten.
// CHECK-LABEL: func.func @insert_keeps_dest(
// CHECK: [[D:%[a-z0-9_]+]] = memref.alloc() : memref<3x3xf32>
// CHECK: [[I:%[a-z0-9_]+]] = memref.alloc() : memref<3x3xf32>
// CHECK-NEXT: loop.for
// CHECK-NEXT: loop.for
// CHECK-NEXT: memref.load [[D]]
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, [[I]]
// CHECK: memref.load %s
// CHECK: memref.store {{%[a-z0-9_]+}}, [[I]]
// CHECK: memref.load [[I]]
// CHECK-NEXT: memref.load [[D]]
// CHECK: memref.store {{%[a-z0-9_]+}}, %out
func.func @insert_keeps_dest(%x: tensor<3x3xf32>, %s: tensor<1x2xf32>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<3x3xf32>
  %d = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %a : f32
    tensor.yield %t : f32
  } -> tensor<3x3xf32>
  %i = tensor.insert_slice %s, %d {offsets = array<i64: 2, 2>, strides = array<i64: 1, -2>} : (tensor<1x2xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %e2 = tensor.empty() : tensor<3x3xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%i, %d : tensor<3x3xf32>, tensor<3x3xf32>) outs(%e2 : tensor<3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.subf %a, %b : f32
    tensor.yield %t : f32
  } -> tensor<3x3xf32>
  func.return %r : tensor<3x3xf32>
}

// -----

// A value returned as is and through a reshape (a view of the first output, copied),
// and a value returned through two reshapes (computed into a view of a view).
// CHECK-LABEL: func.func @reshapes(
// CHECK-SAME: %out0: memref<2x3xf32>, %out1: memref<6xf32>, %out2: memref<3x2xf32>)
// CHECK-NEXT: [[V1:%[a-z0-9_]+]] = loop.view %out2 : memref<3x2xf32> to memref<6xf32>
// CHECK-NEXT: [[V2:%[a-z0-9_]+]] = loop.view [[V1]] : memref<6xf32> to memref<2x3xf32>
// CHECK-NOT: memref.alloc
// CHECK: arith.negf
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out0
// CHECK: [[V:%[a-z0-9_]+]] = loop.view %out0 : memref<2x3xf32> to memref<6xf32>
// CHECK-NEXT: loop.for
// CHECK-NEXT: memref.load [[V]]
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, %out1
// CHECK: arith.mulf
// CHECK-NEXT: memref.store {{%[a-z0-9_]+}}, [[V2]]
func.func @reshapes(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xf32>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %n = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    tensor.yield %r : f32
  } -> tensor<2x3xf32>
  %v = tensor.reshape %n : (tensor<2x3xf32>) -> tensor<6xf32>
  %m = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    tensor.yield %r : f32
  } -> tensor<2x3xf32>
  %w = tensor.reshape %m : (tensor<2x3xf32>) -> tensor<6xf32>
  %w2 = tensor.reshape %w : (tensor<6xf32>) -> tensor<3x2xf32>
  func.return %n, %v, %w2 : tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xf32>
}

// -----

// Accumulating into an argument: it is copied into the output first (inputs are read only).
// CHECK-LABEL: func.func @accumulate(
// CHECK: [[A:%[a-z0-9_]+]] = memref.load %acc[{{%[a-z0-9_]+}}] : memref<2xf32>
// CHECK-NEXT: memref.store [[A]], %out
// CHECK-NOT: memref.store {{.*}} %acc
// CHECK: func.return
func.func @accumulate(%x: tensor<2x3xf32>, %acc: tensor<2xf32>) -> tensor<2xf32> {
  %s = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x3xf32>) outs(%acc : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    tensor.yield %t : f32
  } -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}

// -----

// Integer arithmetic and a comparison, cloned as they are.
// CHECK-LABEL: func.func @integers(
// CHECK-SAME: %x: memref<5xi32>, %y: memref<5xi32>, %out: memref<5xi32>)
// CHECK: arith.muli {{.*}} : i32
// CHECK: arith.divsi {{.*}} : i32
// CHECK: arith.cmpi slt
// CHECK: arith.select
func.func @integers(%x: tensor<5xi32>, %y: tensor<5xi32>) -> tensor<5xi32> {
  %e = tensor.empty() : tensor<5xi32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<5xi32>, tensor<5xi32>) outs(%e : tensor<5xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %c3 = arith.constant 3 : i32
    %c2 = arith.constant 2 : i32
    %m = arith.muli %a, %c3 : i32
    %s = arith.addi %m, %b : i32
    %q = arith.divsi %s, %c2 : i32
    %lt = arith.cmpi slt, %a, %b : i32
    %r = arith.select %lt, %q, %a : i32
    tensor.yield %r : i32
  } -> tensor<5xi32>
  func.return %r : tensor<5xi32>
}

// -----

// Identical constants share one global; a constant used as an init is copied, never written.
// CHECK: "memref.global"() <{sym_name = "__constant_3xf32"
// CHECK-NOT: "memref.global"
// CHECK-LABEL: func.func @constants(
// CHECK: [[K1:%[a-z0-9_]+]] = memref.get_global @__constant_3xf32 : memref<3xf32>
// CHECK-NEXT: [[K2:%[a-z0-9_]+]] = memref.get_global @__constant_3xf32 : memref<3xf32>
// CHECK-NOT: memref.store {{.*}}, [[K1]]
// CHECK-NOT: memref.store {{.*}}, [[K2]]
// CHECK: func.return
func.func @constants(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %k1 = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %k2 = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<3xf32>) outs(%k1 : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %o : f32
    tensor.yield %t : f32
  } -> tensor<3xf32>
  func.return %r, %k2 : tensor<3xf32>, tensor<3xf32>
}

// -----

// One tensor.empty as the destination of two generics (two buffers), a concat of three
// along dim -1, and a scalar read outside any generic (a load) filling an output.
// CHECK-LABEL: func.func @shared_empty(
// CHECK: [[A:%[a-z0-9_]+]] = memref.alloc() : memref<2x2xf32>
// CHECK: [[B:%[a-z0-9_]+]] = memref.alloc() : memref<2x2xf32>
// CHECK: memref.load [[A]]
// CHECK: memref.load %x
// CHECK: memref.load [[B]]
// CHECK: [[I:%[a-z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = memref.load %x[[[I]], [[I]]] : memref<2x2xf32>
// CHECK-NEXT: loop.for
// CHECK-NEXT: memref.store [[V]], %out1
func.func @shared_empty(%x: tensor<2x2xf32>) -> (tensor<2x6xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<2x2xf32>
  %a = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %v : f32
    tensor.yield %t : f32
  } -> tensor<2x2xf32>
  %b = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.mulf %v, %v : f32
    tensor.yield %t : f32
  } -> tensor<2x2xf32>
  %c = tensor.concat %a, %x, %b {dim = -1} : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x6xf32>
  %i = arith.constant 1 : index
  %v = tensor.extract %x[%i, %i] : tensor<2x2xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %f = tensor.fill %v, %e3 : (f32, tensor<3xf32>) -> tensor<3xf32>
  func.return %c, %f : tensor<2x6xf32>, tensor<3xf32>
}
