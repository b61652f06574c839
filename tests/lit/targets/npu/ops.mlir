// The npu dialect's ops print, parse back and verify (examples/npu/ops.py).
// RUN: strati-opt --load-plugin %examples/npu %s | filecheck %s
// RUN: strati-opt --load-plugin %examples/npu %s | strati-opt --load-plugin %examples/npu | filecheck %s
// RUN: strati-opt --load-plugin %examples/npu %s --print-op-generic | strati-opt --load-plugin %examples/npu | filecheck %s

// CHECK: builtin.module attributes {hw.target = #hw.target<"npu", inp_bytes = 32768, wgt_bytes = 262144, acc_bytes = 131072, tile = [16, 16, 16], dtype = "int8", dma_align = 64, dma_bytes_per_cycle = 8, dma_latency = 32>}
builtin.module attributes {hw.target = #hw.target<"npu">} {
  func.func @tile(%a: memref<20x30xi8>, %b: memref<30x16xi8>, %c: memref<20x16xi8>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %inp = memref.alloc() : memref<2x16x16xi8, #hw.space<"inp">>
    %wgt = memref.alloc() : memref<2x16x16xi8, #hw.space<"wgt">>
    %acc = memref.alloc() : memref<2x16x16xi32, #hw.space<"acc">>
    // CHECK: npu.sync "push" "compute" to "load"
    npu.sync "push" "compute" to "load"
    npu.sync "pop" "compute" to "load"
    // CHECK: npu.dma_load %a[%c0, %c0] to %inp[%c1] : memref<20x30xi8> to memref<2x16x16xi8, #hw.space<"inp">>
    npu.dma_load %a[%c0, %c0] to %inp[%c1] : memref<20x30xi8> to memref<2x16x16xi8, #hw.space<"inp">>
    npu.dma_load %b[%c0, %c0] to %wgt[%c0] : memref<30x16xi8> to memref<2x16x16xi8, #hw.space<"wgt">>
    // CHECK: npu.alu "set" %acc[%c0] imm [0] : memref<2x16x16xi32, #hw.space<"acc">>
    npu.alu "set" %acc[%c0] imm [0] : memref<2x16x16xi32, #hw.space<"acc">>
    // CHECK: npu.gemm %inp[%c1], %wgt[%c0] into %acc[%c0] : memref<2x16x16xi8, #hw.space<"inp">>, memref<2x16x16xi8, #hw.space<"wgt">> into memref<2x16x16xi32, #hw.space<"acc">>
    npu.gemm %inp[%c1], %wgt[%c0] into %acc[%c0] : memref<2x16x16xi8, #hw.space<"inp">>, memref<2x16x16xi8, #hw.space<"wgt">> into memref<2x16x16xi32, #hw.space<"acc">>
    // CHECK: npu.alu "add" %acc[%c0], %acc[%c1] : memref<2x16x16xi32, #hw.space<"acc">>, memref<2x16x16xi32, #hw.space<"acc">>
    npu.alu "add" %acc[%c0], %acc[%c1] : memref<2x16x16xi32, #hw.space<"acc">>, memref<2x16x16xi32, #hw.space<"acc">>
    // CHECK: npu.alu "shift" %acc[%c0] imm [4]
    npu.alu "shift" %acc[%c0] imm [4] : memref<2x16x16xi32, #hw.space<"acc">>
    // CHECK: npu.alu "clip" %acc[%c0] imm [-128, 127]
    npu.alu "clip" %acc[%c0] imm [-128, 127] : memref<2x16x16xi32, #hw.space<"acc">>
    npu.alu "max" %acc[%c0] imm [0] : memref<2x16x16xi32, #hw.space<"acc">>
    // CHECK: npu.dma_store %acc[%c0] to %c[%c0, %c0] : memref<2x16x16xi32, #hw.space<"acc">> to memref<20x16xi8>
    npu.dma_store %acc[%c0] to %c[%c0, %c0] : memref<2x16x16xi32, #hw.space<"acc">> to memref<20x16xi8>
    func.return
  }
}
