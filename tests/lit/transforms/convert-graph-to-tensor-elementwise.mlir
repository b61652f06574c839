// Every elementwise graph op lowers to one parallel tensor.generic whose maps make numpy
// broadcasting explicit (a size-1 dimension reads index 0, a missing one is dropped).
// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s
// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | strati-opt --split-input-file | filecheck %s
// CHECK-LABEL: func.func @neg(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.negf
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @neg(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.neg %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @abs(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.absf
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @abs(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.abs %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @exp(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.exp
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @exp(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.exp %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @log(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.log
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @log(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.log %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @sqrt(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.sqrt
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @sqrt(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.sqrt %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @rsqrt(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.rsqrt
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @rsqrt(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.rsqrt %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @tanh(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.tanh
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @tanh(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.tanh %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @sigmoid(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.exp
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @sigmoid(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.sigmoid %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @erf(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.erf
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @erf(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.erf %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @relu(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.maximumf
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @relu(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.relu %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @leaky_relu(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.select
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @leaky_relu(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.leaky_relu %x {alpha = 0.2} : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @gelu(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.erf
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @gelu(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.gelu %x : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @clip(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.minimumf
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @clip(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.clip %x {min = -1.0, max = 1.0} : (tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @cast(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.fptosi
// CHECK: tensor.yield
// CHECK-NOT: graph.
func.func @cast(%x: tensor<4x7xf32>) -> tensor<4x7xi32> {
  %y = graph.cast %x : (tensor<4x7xf32>) -> tensor<4x7xi32>
  func.return %y : tensor<4x7xi32>
}

// -----

// CHECK-LABEL: func.func @add(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
// CHECK-NOT: graph.
func.func @add(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xf32> {
  %y = graph.add %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @sub(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.subf
// CHECK-NOT: graph.
func.func @sub(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xf32> {
  %y = graph.sub %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @mul(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.mulf
// CHECK-NOT: graph.
func.func @mul(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xf32> {
  %y = graph.mul %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @div(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.divf
// CHECK-NOT: graph.
func.func @div(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xf32> {
  %y = graph.div %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @pow(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: math.powf
// CHECK-NOT: graph.
func.func @pow(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xf32> {
  %y = graph.pow %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @maximum(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.maximumf
// CHECK-NOT: graph.
func.func @maximum(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xf32> {
  %y = graph.maximum %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @minimum(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.minimumf
// CHECK-NOT: graph.
func.func @minimum(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xf32> {
  %y = graph.minimum %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// CHECK-LABEL: func.func @equal(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.cmpf oeq
// CHECK-NOT: graph.
func.func @equal(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xi1> {
  %y = graph.equal %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xi1>
  func.return %y : tensor<4x7xi1>
}

// -----

// CHECK-LABEL: func.func @less(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.cmpf olt
// CHECK-NOT: graph.
func.func @less(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xi1> {
  %y = graph.less %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xi1>
  func.return %y : tensor<4x7xi1>
}

// -----

// CHECK-LABEL: func.func @greater(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.cmpf ogt
// CHECK-NOT: graph.
func.func @greater(%a: tensor<4x1xf32>, %b: tensor<7xf32>) -> tensor<4x7xi1> {
  %y = graph.greater %a, %b : (tensor<4x1xf32>, tensor<7xf32>) -> tensor<4x7xi1>
  func.return %y : tensor<4x7xi1>
}

// -----

// CHECK-LABEL: func.func @where(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.select
func.func @where(%c: tensor<4x1xi1>, %a: tensor<7xf32>, %b: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %y = graph.where %c, %a, %b : (tensor<4x1xi1>, tensor<7xf32>, tensor<4x7xf32>) -> tensor<4x7xf32>
  func.return %y : tensor<4x7xf32>
}

// -----

// Identity and dropout are no computation; a constant becomes arith.constant.
// CHECK-LABEL: func.func @no_compute(
// CHECK-NEXT: [[C:%.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: func.return %x, [[C]] : tensor<2xf32>, tensor<2xf32>
func.func @no_compute(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = graph.identity %x : tensor<2xf32>
  %b = graph.dropout %a {ratio = 0.25} : tensor<2xf32>
  %c = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  func.return %b, %c : tensor<2xf32>, tensor<2xf32>
}
