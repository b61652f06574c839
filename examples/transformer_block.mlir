builtin.module {
  func.func @encoder_block(%x: tensor<1x8x16xf32>, %ln1_g: tensor<16xf32>, %ln1_b: tensor<16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x16xf32>, %wv: tensor<16x16xf32>, %wo: tensor<16x16xf32>, %bo: tensor<16xf32>, %ln2_g: tensor<16xf32>, %ln2_b: tensor<16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>, %w2: tensor<32x16xf32>, %b2: tensor<16xf32>) -> tensor<1x8x16xf32> {
    %scale = graph.constant dense<3.535534e-01> : tensor<f32>
    %ln1 = graph.layer_norm %x, %ln1_g, %ln1_b : (tensor<1x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
    %q = graph.matmul %ln1, %wq : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
    %k = graph.matmul %ln1, %wk : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
    %v = graph.matmul %ln1, %wv : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
    %q4 = graph.reshape %q : (tensor<1x8x16xf32>) -> tensor<1x8x2x8xf32>
    %k4 = graph.reshape %k : (tensor<1x8x16xf32>) -> tensor<1x8x2x8xf32>
    %v4 = graph.reshape %v : (tensor<1x8x16xf32>) -> tensor<1x8x2x8xf32>
    %qh = graph.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x8xf32>) -> tensor<1x2x8x8xf32>
    %kt = graph.transpose %k4 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x2x8xf32>) -> tensor<1x2x8x8xf32>
    %vh = graph.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x8xf32>) -> tensor<1x2x8x8xf32>
    %s = graph.matmul %qh, %kt : tensor<1x2x8x8xf32>
    %ss = graph.mul %s, %scale : (tensor<1x2x8x8xf32>, tensor<f32>) -> tensor<1x2x8x8xf32>
    %a = graph.softmax %ss : tensor<1x2x8x8xf32>
    %ctx = graph.matmul %a, %vh : tensor<1x2x8x8xf32>
    %ct = graph.transpose %ctx {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x8x8xf32>) -> tensor<1x8x2x8xf32>
    %c3 = graph.reshape %ct : (tensor<1x8x2x8xf32>) -> tensor<1x8x16xf32>
    %o = graph.matmul %c3, %wo : (tensor<1x8x16xf32>, tensor<16x16xf32>) -> tensor<1x8x16xf32>
    %ob = graph.add %o, %bo : (tensor<1x8x16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
    %x1 = graph.add %x, %ob : tensor<1x8x16xf32>
    %ln2 = graph.layer_norm %x1, %ln2_g, %ln2_b : (tensor<1x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
    %h = graph.matmul %ln2, %w1 : (tensor<1x8x16xf32>, tensor<16x32xf32>) -> tensor<1x8x32xf32>
    %hb = graph.add %h, %b1 : (tensor<1x8x32xf32>, tensor<32xf32>) -> tensor<1x8x32xf32>
    %g = graph.gelu %hb : tensor<1x8x32xf32>
    %f = graph.matmul %g, %w2 : (tensor<1x8x32xf32>, tensor<32x16xf32>) -> tensor<1x8x16xf32>
    %fb = graph.add %f, %b2 : (tensor<1x8x16xf32>, tensor<16xf32>) -> tensor<1x8x16xf32>
    %y = graph.add %x1, %fb : tensor<1x8x16xf32>
    func.return %y : tensor<1x8x16xf32>
  }
}
