func.func @main(%a1: tensor<3x6x4x6xf32>, %a10: tensor<3x1x4x6xf32>) -> (tensor<3x0x4x6xf32>, tensor<3x0x4x6xi1>, tensor<3x1x4x6xf32>) {
  %v2 = graph.relu %a1 : (tensor<3x6x4x6xf32>) -> tensor<3x6x4x6xf32>
  %c3 = graph.constant dense<"0xFBFFFFFFFFFFFFFF"> : tensor<1xi64>
  %c4 = graph.constant dense<"0x0100000000000000"> : tensor<1xi64>
  %v5 = graph.dynamic_slice %v2, %c3, %c4 {axes = array<i64: 1>} : (tensor<3x6x4x6xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x0x4x6xf32>
  %v6:3 = graph.split %v5 {axis = 1} : (tensor<3x0x4x6xf32>) -> (tensor<3x0x4x6xf32>, tensor<3x0x4x6xf32>, tensor<3x0x4x6xf32>)
  %v9 = graph.lrn %v6#0 {size = 1} : (tensor<3x0x4x6xf32>) -> tensor<3x0x4x6xf32>
  %v11 = graph.less %v9, %a10 : (tensor<3x0x4x6xf32>, tensor<3x1x4x6xf32>) -> tensor<3x0x4x6xi1>
  %v12 = graph.sigmoid %a10 : (tensor<3x1x4x6xf32>) -> tensor<3x1x4x6xf32>
  func.return %v6#2, %v11, %v12 : tensor<3x0x4x6xf32>, tensor<3x0x4x6xi1>, tensor<3x1x4x6xf32>
}
