// bf16 and the float8 types as graph element types: casts (with saturate = false, the one value
// printed; true is the default) and exact hex literals print and parse back, custom and generic.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @casts(
// CHECK-SAME: [[X:%.*]]: tensor<5xf32>)
func.func @casts(%x: tensor<5xf32>) -> (tensor<5xbf16>, tensor<5xf8E4M3FN>, tensor<5xf8E4M3FNUZ>, tensor<5xf8E5M2>, tensor<5xf8E5M2FNUZ>, tensor<5xf32>, tensor<2xbf16>, tensor<3xf8E5M2>) {
  // CHECK-NEXT: [[B:%.*]] = graph.cast [[X]] : (tensor<5xf32>) -> tensor<5xbf16>
  // CHECK-NEXT: graph.cast [[X]] : (tensor<5xf32>) -> tensor<5xf8E4M3FN>
  // CHECK-NEXT: graph.cast [[X]] {saturate = false} : (tensor<5xf32>) -> tensor<5xf8E4M3FNUZ>
  // CHECK-NEXT: graph.cast [[X]] {saturate = false} : (tensor<5xf32>) -> tensor<5xf8E5M2>
  // CHECK-NEXT: graph.cast [[X]] : (tensor<5xf32>) -> tensor<5xf8E5M2FNUZ>
  // CHECK-NEXT: graph.cast [[B]] : (tensor<5xbf16>) -> tensor<5xf32>
  // CHECK-NEXT: graph.constant dense<"0xC03F807F"> : tensor<2xbf16>
  // CHECK-NEXT: graph.constant dense<"0x7B7CFE"> : tensor<3xf8E5M2>
  %b = graph.cast %x : (tensor<5xf32>) -> tensor<5xbf16>
  %c = graph.cast %x {saturate = true} : (tensor<5xf32>) -> tensor<5xf8E4M3FN>
  %d = graph.cast %x {saturate = false} : (tensor<5xf32>) -> tensor<5xf8E4M3FNUZ>
  %e = graph.cast %x {saturate = false} : (tensor<5xf32>) -> tensor<5xf8E5M2>
  %f = graph.cast %x : (tensor<5xf32>) -> tensor<5xf8E5M2FNUZ>
  %g = graph.cast %b : (tensor<5xbf16>) -> tensor<5xf32>
  %k = graph.constant dense<"0xC03F807F"> : tensor<2xbf16>
  %l = graph.constant dense<"0x7B7CFE"> : tensor<3xf8E5M2>
  func.return %b, %c, %d, %e, %f, %g, %k, %l : tensor<5xbf16>, tensor<5xf8E4M3FN>, tensor<5xf8E4M3FNUZ>, tensor<5xf8E5M2>, tensor<5xf8E5M2FNUZ>, tensor<5xf32>, tensor<2xbf16>, tensor<3xf8E5M2>
}
