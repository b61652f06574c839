builtin.module {
  func.func @mlp(%x: tensor<4x64xf32>, %w1: tensor<32x64xf32>, %b1: tensor<32xf32>, %w2: tensor<10x32xf32>, %b2: tensor<10xf32>) -> tensor<4x10xf32> {
    %h = graph.gemm %x, %w1, %b1 {trans_b = true} : (tensor<4x64xf32>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<4x32xf32>
    %r = graph.relu %h : tensor<4x32xf32>
    %z = graph.gemm %r, %w2, %b2 {trans_b = true} : (tensor<4x32xf32>, tensor<10x32xf32>, tensor<10xf32>) -> tensor<4x10xf32>
    %y = graph.softmax %z : tensor<4x10xf32>
    func.return %y : tensor<4x10xf32>
  }
}
