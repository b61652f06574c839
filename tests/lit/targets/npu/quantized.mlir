// A quantised convolution on the NPU: the bias broadcast on the host is DMA'd into the
// accumulators (the load queue starts them, so the store->load tokens guard them), the
// GEMMs accumulate in int32, the ALU requantises (a rounding shift, a clip) and the store
// narrows to int8; bit for bit with the CPU.
// RUN: strati-opt --load-plugin %examples/npu %s --emit=hw --target npu | filecheck %s
// CHECK: npu.sync "push" "store" to "load"
// CHECK: npu.sync "pop" "store" to "load"
// CHECK: npu.dma_load %{{[0-9]+}}[%{{[0-9]+}}, %{{[0-9]+}}] to [[ACC:%[0-9]+]][[[S:%[0-9]+]]] : memref<20x25xi32> to memref<2x16x16xi32, #hw.space<"acc">>
// CHECK: npu.gemm {{.*}} into [[ACC]][[[S]]] : memref<2x16x16xi8, #hw.space<"inp">>, memref<2x16x16xi8, #hw.space<"wgt">> into memref<2x16x16xi32, #hw.space<"acc">>
// CHECK: npu.alu "shift" [[ACC]][[[S]]] imm [7]
// CHECK-NEXT: npu.alu "clip" [[ACC]][[[S]]] imm [-128, 127]
// CHECK: npu.dma_store [[ACC]][[[S]]] to %{{[0-9a-z_]+}}[%{{[0-9]+}}, %{{[0-9]+}}] : memref<2x16x16xi32, #hw.space<"acc">> to memref<20x25xi8>
// CHECK: npu.sync "push" "store" to "load"
//
// RUN: strati-run --load-plugin %examples/npu %s --target npu --random-inputs 0 --check --rtol 0 --atol 0 --profile | filecheck %s --check-prefix=EXEC
// EXEC: npu.alu 8 128 0 0
// (2x2 output tiles of 20 channels by 25 pixels, 3 steps of the 45 patch rows; a shift and a clip per tile)
// EXEC: npu.gemm 12 192 0 49152
// EXEC: check output0: max abs error 0, max rel error 0 (rtol 0, atol 0): ok

func.func @conv(%x: tensor<1x5x9x9xi8>, %k: tensor<20x5x3x3xi8>, %b: tensor<20xi32>) -> tensor<1x20x5x5xi8> {
  %y = graph.qconv2d %x, %k, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, shift = 7} : (tensor<1x5x9x9xi8>, tensor<20x5x3x3xi8>, tensor<20xi32>) -> tensor<1x20x5x5xi8>
  func.return %y : tensor<1x20x5x5xi8>
}
