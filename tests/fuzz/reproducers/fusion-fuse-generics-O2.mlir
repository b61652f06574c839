func.func @main(%a1: tensor<1x6x1x3xf32>, %a2: tensor<6x1xf32>, %a17: tensor<f32>) -> (tensor<4xf32>, tensor<f32>, tensor<i1>) {
  %c3 = graph.constant dense<"0x6C27403F83D447BFF7569CBF317FCEBF"> : tensor<1x4xf32>
  %c4 = graph.constant dense<"0xEA983F3E171E0E3F4DBDCCBFDCCC8EBE2A70C5BD24F3E5BE061375BF6ADB6D3FC191F93E1E2CD43FA4AFF93DB8B6AFBF9AEE873E71E0C6BE454982BD1794E63E2DD70540FF6BB6BDB6F86C3E6E5E613EAFE7CFBD5C0C6BBF4157593E3B2FEABF"> : tensor<6x4xf32>
  %v5 = graph.gemm %a2, %c3, %c4 : (tensor<6x1xf32>, tensor<1x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
  %v6 = graph.argmax %v5 {axis = 0, keepdims = false, select_last_index = true} : (tensor<6x4xf32>) -> tensor<4xi64>
  %v7 = graph.cast %v6 : (tensor<4xi64>) -> tensor<4xf32>
  %c8 = graph.constant dense<"0x46972ABFF13F52BE42EA0EBE8FB2EBBD2028193FC4F1F43F91A7ADBE73E4973ED0B154BF17CF70BFC16304BF9FE92E3F7663053F9BA597BF3E1C6A3EBF6232BE1F3BB63FBF4B9CBD24912BBE544B3CC000C4B0BF6CDB933E3232B0BE4C5A48BF3F9164BFB9759D3F858AADBE8F28E0BF7469613F8B7E22BF754098BFE94F593F2F3F603FC5B4D73F6B632E3F6D96543F8AE0463EB778653E84CC353F0C3F4B3F7C368EBF72F678BF86FF733F5FAB583F4C9CE8BC240385BFE357973F6214E03F69A8B3BC434313BFD417BFBE32C6E4BF1806ACBFDCF13EBE"> : tensor<3x6x1x3xf32>
  %v9 = graph.conv2d %a1, %c8 {pads = array<i64: 0, 0, 0, 2>} : (tensor<1x6x1x3xf32>, tensor<3x6x1x3xf32>) -> tensor<1x3x1x3xf32>
  %v10 = graph.resize %v9 : (tensor<1x3x1x3xf32>) -> tensor<1x3x1x6xf32>
  %v11 = graph.reduce_min %v10 {axes = array<i64: 0, -3, -2, 3>, keepdims = false} : (tensor<1x3x1x6xf32>) -> tensor<f32>
  %v12 = graph.abs %v11 : (tensor<f32>) -> tensor<f32>
  %c13 = graph.constant dense<"0x0000003F"> : tensor<f32>
  %v14 = graph.add %v12, %c13 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %v15 = graph.sqrt %v14 : (tensor<f32>) -> tensor<f32>
  %v16 = graph.clip %c13 {min = -0.5, max = 1.0} : (tensor<f32>) -> tensor<f32>
  %v18 = graph.equal %v16, %a17 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return %v7, %v15, %v18 : tensor<4xf32>, tensor<f32>, tensor<i1>
}
