// The linear-algebra and nn ops print in the graph syntax and round-trip, custom and generic.
// Properties holding their default value are not printed; the others are.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: [[A:%.*]]: tensor<2x1x3x5xf32>, [[B:%.*]]: tensor<4x5x7xf32>, [[V:%.*]]: tensor<5xf32>, [[D:%.*]]: tensor<?x5xi32>, [[E:%.*]]: tensor<5x?xi32>)
func.func @matmul(%a: tensor<2x1x3x5xf32>, %b: tensor<4x5x7xf32>, %v: tensor<5xf32>, %d: tensor<?x5xi32>, %e: tensor<5x?xi32>) -> tensor<2x4x3x7xf32> {
  // CHECK-NEXT: [[M:%.*]] = graph.matmul [[A]], [[B]] : (tensor<2x1x3x5xf32>, tensor<4x5x7xf32>) -> tensor<2x4x3x7xf32>
  %m = graph.matmul %a, %b : (tensor<2x1x3x5xf32>, tensor<4x5x7xf32>) -> tensor<2x4x3x7xf32>
  // 1-D operands are promoted and the promoted dimension dropped: a vector times a vector is a scalar.
  // CHECK-NEXT: [[S:%.*]] = graph.matmul [[V]], [[V]] : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  %s = graph.matmul %v, %v : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  // CHECK-NEXT: [[MV:%.*]] = graph.matmul [[A]], [[V]] : (tensor<2x1x3x5xf32>, tensor<5xf32>) -> tensor<2x1x3xf32>
  %mv = graph.matmul %a, %v : (tensor<2x1x3x5xf32>, tensor<5xf32>) -> tensor<2x1x3xf32>
  // CHECK-NEXT: [[DE:%.*]] = graph.matmul [[D]], [[E]] : (tensor<?x5xi32>, tensor<5x?xi32>) -> tensor<?x?xi32>
  %de = graph.matmul %d, %e : (tensor<?x5xi32>, tensor<5x?xi32>) -> tensor<?x?xi32>
  // CHECK-NEXT: func.return [[M]] : tensor<2x4x3x7xf32>
  func.return %m : tensor<2x4x3x7xf32>
}

// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: [[A:%.*]]: tensor<4x3xf32>, [[B:%.*]]: tensor<5x3xf32>, [[C:%.*]]: tensor<5xf32>)
func.func @gemm(%a: tensor<4x3xf32>, %b: tensor<5x3xf32>, %c: tensor<5xf32>) -> tensor<4x5xf32> {
  // CHECK-NEXT: [[G:%.*]] = graph.gemm [[A]], [[B]], [[C]] {alpha = 0.5, beta = 2.0, trans_b = true} : (tensor<4x3xf32>, tensor<5x3xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %g = graph.gemm %a, %b, %c {alpha = 0.5, beta = 2.0, trans_b = true, trans_a = false} : (tensor<4x3xf32>, tensor<5x3xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  // Without c, and with every property at its default.
  // CHECK-NEXT: [[H:%.*]] = graph.gemm [[A]], [[A]] {trans_a = true} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  %h = graph.gemm %a, %a {trans_a = true, trans_b = false, alpha = 1.0, beta = 1.0} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  // CHECK-NEXT: [[I:%.*]] = graph.gemm [[A]], [[B]] {trans_b = true} : (tensor<4x3xf32>, tensor<5x3xf32>) -> tensor<4x5xf32>
  %i = graph.gemm %a, %b {trans_b = true} : (tensor<4x3xf32>, tensor<5x3xf32>) -> tensor<4x5xf32>
  // CHECK-NEXT: func.return [[G]] : tensor<4x5xf32>
  func.return %g : tensor<4x5xf32>
}

// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME: [[X:%.*]]: tensor<1x4x8x9xf32>, [[W:%.*]]: tensor<6x2x3x3xf32>, [[B:%.*]]: tensor<6xf32>, [[D:%.*]]: tensor<?x4x?x9xf32>, [[DW:%.*]]: tensor<4x1x3x3xf32>)
func.func @conv2d(%x: tensor<1x4x8x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>, %d: tensor<?x4x?x9xf32>, %dw: tensor<4x1x3x3xf32>) -> tensor<1x6x8x9xf32> {
  // CHECK-NEXT: [[Y:%.*]] = graph.conv2d [[X]], [[W]], [[B]] {strides = array<i64: 2, 1>, pads = array<i64: 1, 2, 0, 1>, dilations = array<i64: 1, 2>, groups = 2} : (tensor<1x4x8x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x8xf32>
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 1>, pads = array<i64: 1, 2, 0, 1>, dilations = array<i64: 1, 2>, groups = 2} : (tensor<1x4x8x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x8xf32>
  // Default strides, pads, dilations and groups are not printed; no bias.
  // CHECK-NEXT: [[Z:%.*]] = graph.conv2d [[D]], [[DW]] {groups = 4} : (tensor<?x4x?x9xf32>, tensor<4x1x3x3xf32>) -> tensor<?x4x?x7xf32>
  %z = graph.conv2d %d, %dw {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 4} : (tensor<?x4x?x9xf32>, tensor<4x1x3x3xf32>) -> tensor<?x4x?x7xf32>
  // CHECK-NEXT: [[U:%.*]] = graph.conv2d [[X]], [[W]] {pads = array<i64: 1, 1, 1, 1>, groups = 2} : (tensor<1x4x8x9xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x8x9xf32>
  %u = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, groups = 2} : (tensor<1x4x8x9xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x8x9xf32>
  // CHECK-NEXT: func.return [[U]] : tensor<1x6x8x9xf32>
  func.return %u : tensor<1x6x8x9xf32>
}

// CHECK-LABEL: func.func @pools(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x5x5xf32>, [[I:%.*]]: tensor<1x2x6x7xi8>)
func.func @pools(%x: tensor<2x3x5x5xf32>, %i: tensor<1x2x6x7xi8>) -> tensor<2x3x1x1xf32> {
  // CHECK-NEXT: [[M:%.*]] = graph.max_pool2d [[X]] {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x3x5x5xf32>) -> tensor<2x3x2x2xf32>
  %m = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, ceil_mode = false} : (tensor<2x3x5x5xf32>) -> tensor<2x3x2x2xf32>
  // Ceil mode keeps the partial last window, unless it would start in the right padding.
  // CHECK-NEXT: [[C:%.*]] = graph.max_pool2d [[X]] {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = true} : (tensor<2x3x5x5xf32>) -> tensor<2x3x3x3xf32>
  %c = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = true} : (tensor<2x3x5x5xf32>) -> tensor<2x3x3x3xf32>
  // CHECK-NEXT: [[J:%.*]] = graph.max_pool2d [[I]] {kernel = array<i64: 2, 3>, dilations = array<i64: 2, 1>} : (tensor<1x2x6x7xi8>) -> tensor<1x2x4x5xi8>
  %j = graph.max_pool2d %i {kernel = array<i64: 2, 3>, dilations = array<i64: 2, 1>} : (tensor<1x2x6x7xi8>) -> tensor<1x2x4x5xi8>
  // CHECK-NEXT: [[A:%.*]] = graph.avg_pool2d [[X]] {count_include_pad = true, kernel = array<i64: 3, 2>, pads = array<i64: 1, 0, 1, 1>, ceil_mode = true} : tensor<2x3x5x5xf32>
  %a = graph.avg_pool2d %x {kernel = array<i64: 3, 2>, pads = array<i64: 1, 0, 1, 1>, ceil_mode = true, count_include_pad = true} : tensor<2x3x5x5xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.avg_pool2d [[X]] {kernel = array<i64: 5, 5>} : (tensor<2x3x5x5xf32>) -> tensor<2x3x1x1xf32>
  %b = graph.avg_pool2d %x {kernel = array<i64: 5, 5>, count_include_pad = false} : (tensor<2x3x5x5xf32>) -> tensor<2x3x1x1xf32>
  // CHECK-NEXT: [[G:%.*]] = graph.global_avg_pool2d [[X]] : (tensor<2x3x5x5xf32>) -> tensor<2x3x1x1xf32>
  %g = graph.global_avg_pool2d %x : (tensor<2x3x5x5xf32>) -> tensor<2x3x1x1xf32>
  // CHECK-NEXT: func.return [[G]] : tensor<2x3x1x1xf32>
  func.return %g : tensor<2x3x1x1xf32>
}

// CHECK-LABEL: func.func @norms(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x4x5xf32>, [[C:%.*]]: tensor<3xf32>, [[L:%.*]]: tensor<4x5xf32>, [[R:%.*]]: tensor<5xf32>)
func.func @norms(%x: tensor<2x3x4x5xf32>, %c: tensor<3xf32>, %l: tensor<4x5xf32>, %r: tensor<5xf32>) -> tensor<2x3x4x5xf32> {
  // CHECK-NEXT: [[BN:%.*]] = graph.batch_norm [[X]], [[C]], [[C]], [[C]], [[C]] : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %bn = graph.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-05} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  // CHECK-NEXT: [[BE:%.*]] = graph.batch_norm [[X]], [[C]], [[C]], [[C]], [[C]] {epsilon = 0.001} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %be = graph.batch_norm %x, %c, %c, %c, %c {epsilon = 0.001} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  // CHECK-NEXT: [[LN:%.*]] = graph.layer_norm [[X]], [[L]], [[L]] {axis = 2} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %ln = graph.layer_norm %x, %l, %l {axis = 2, epsilon = 1.0e-05} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK-NEXT: [[LR:%.*]] = graph.layer_norm [[X]], [[R]] {epsilon = 1.0e-06} : (tensor<2x3x4x5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
  %lr = graph.layer_norm %x, %r {axis = -1, epsilon = 1.0e-06} : (tensor<2x3x4x5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK-NEXT: [[N:%.*]] = graph.lrn [[X]] {size = 3} : tensor<2x3x4x5xf32>
  %n = graph.lrn %x {size = 3, alpha = 1.0e-04, beta = 0.75, bias = 1.0} : tensor<2x3x4x5xf32>
  // CHECK-NEXT: [[NN:%.*]] = graph.lrn [[X]] {size = 5, alpha = 0.002, beta = 0.5, bias = 2.0} : tensor<2x3x4x5xf32>
  %nn = graph.lrn %x {size = 5, alpha = 0.002, beta = 0.5, bias = 2.0} : tensor<2x3x4x5xf32>
  // CHECK-NEXT: func.return [[LN]] : tensor<2x3x4x5xf32>
  func.return %ln : tensor<2x3x4x5xf32>
}

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: [[X:%.*]]: tensor<4x10xf32>, [[D:%.*]]: tensor<?x?xf64>)
func.func @softmax(%x: tensor<4x10xf32>, %d: tensor<?x?xf64>) -> tensor<4x10xf32> {
  // CHECK-NEXT: [[S:%.*]] = graph.softmax [[X]] : tensor<4x10xf32>
  %s = graph.softmax %x {axis = -1} : tensor<4x10xf32>
  // CHECK-NEXT: [[T:%.*]] = graph.softmax [[X]] {axis = 0} : tensor<4x10xf32>
  %t = graph.softmax %x {axis = 0} : tensor<4x10xf32>
  // CHECK-NEXT: [[L:%.*]] = graph.log_softmax [[D]] {axis = -2} : tensor<?x?xf64>
  %l = graph.log_softmax %d {axis = -2} : tensor<?x?xf64>
  // CHECK-NEXT: [[M:%.*]] = graph.log_softmax [[X]] : tensor<4x10xf32>
  %m = graph.log_softmax %x : tensor<4x10xf32>
  // CHECK-NEXT: func.return [[S]] : tensor<4x10xf32>
  func.return %s : tensor<4x10xf32>
}
