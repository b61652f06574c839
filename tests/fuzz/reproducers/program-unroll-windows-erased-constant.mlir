func.func @main(%a1: tensor<f32>, %a2: tensor<f32>, %a7: tensor<5x5xf32>, %a10: tensor<5xf32>) -> (tensor<f32>, tensor<f32>, tensor<3xf32>) {
  %v3 = graph.abs %a2 : (tensor<f32>) -> tensor<f32>
  %c4 = graph.constant dense<"0x0000003F"> : tensor<f32>
  %v5 = graph.add %v3, %c4 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %v6 = graph.log %v5 : (tensor<f32>) -> tensor<f32>
  %v8 = graph.resize %a7 {coordinate_transformation_mode = "half_pixel"} : (tensor<5x5xf32>) -> tensor<6x6xf32>
  %v9 = graph.clip %v8 : (tensor<6x6xf32>) -> tensor<6x6xf32>
  %v11 = graph.reduce_min %a10 {keepdims = false} : (tensor<5xf32>) -> tensor<f32>
  %v12 = graph.cumsum %v9 {axis = -2} : (tensor<6x6xf32>) -> tensor<6x6xf32>
  %c13 = graph.constant dense<"0xBB30A33E511316401E4E45BDADBD2B402CA1EA3E7D529E3F"> : tensor<6xf32>
  %c14 = graph.constant dense<"0xC6FD603E924FA63FC929B43F817B043E9656B23FD8F82FBD"> : tensor<6xf32>
  %c15 = graph.constant dense<"0xF4D1573FA3591C3E73B3043F60222E3F5851B9BFFFAD6CBF"> : tensor<6xf32>
  %c16 = graph.constant dense<"0x3655893F66328B3F4B1A093F5BEA963F44230440296F5E3F"> : tensor<6xf32>
  %v17 = graph.batch_norm %v12, %c13, %c14, %c15, %c16 {epsilon = 0.001} : (tensor<6x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<6x6xf32>
  %v18 = graph.reduce_min %v17 {axes = array<i64: 0, 1>, keepdims = false} : (tensor<6x6xf32>) -> tensor<f32>
  %v19 = graph.dropout %v18 : (tensor<f32>) -> tensor<f32>
  %c20 = graph.constant dense<"0xFAFFFFFFFFFFFFFF"> : tensor<1xi64>
  %c21 = graph.constant dense<"0x0600000000000000"> : tensor<1xi64>
  %v22 = graph.dynamic_slice %c14, %c20, %c21 {axes = array<i64: 0>, steps = array<i64: 2>} : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  func.return %v11, %v19, %v22 : tensor<f32>, tensor<f32>, tensor<3xf32>
}
