// graph.matmul on the NPU: the strategy picks the tiling (npu.matmul), bufferization writes
// the tiled program (DMA into double-buffered slots, GEMM, store, token syncs between the
// queues), and the code calls the simulator, which matches the interpreter.
// RUN: strati-opt --load-plugin %examples/npu %s --emit=tensor --target npu --print-strategy 2>&1 | filecheck %s --check-prefix=TILE
// TILE: strategy: graph.matmul -> npu/npu_gemm: the only one that applies (cost 192)
// TILE: npu.matmul %x, %w tile [16, 16, 16] slots [2, 2] : (tensor<40x20xf32>, tensor<20x24xf32>) -> tensor<40x24xf32>
// TILE: arith.maximumf
//
// RUN: strati-opt --load-plugin %examples/npu %s --emit=hw --target npu | filecheck %s --check-prefix=HW
// HW: [[INP:%[0-9]+]] = memref.alloc() : memref<2x16x16xf32, #hw.space<"inp">>
// HW-NEXT: [[WGT:%[0-9]+]] = memref.alloc() : memref<2x16x16xf32, #hw.space<"wgt">>
// HW-NEXT: [[ACC:%[0-9]+]] = memref.alloc() : memref<2x16x16xf32, #hw.space<"acc">>
// HW-NEXT: npu.sync "push" "compute" to "load"
// HW-NEXT: npu.sync "push" "compute" to "load"
// HW-NEXT: npu.sync "push" "store" to "compute"
// HW-NEXT: npu.sync "push" "store" to "compute"
// HW-NEXT: loop.for %[[I:[0-9]+]] = %c0 to %c3 step %c1 {
// HW-NEXT: loop.for %[[J:[0-9]+]] = %c0 to %c2 step %c1 {
// HW: [[S:%[0-9]+]] = arith.remui %{{[0-9]+}}, %c2 : index
// HW-NEXT: npu.sync "pop" "store" to "compute"
// HW-NEXT: npu.alu "set" [[ACC]][[[S]]] imm [0]
// HW-NEXT: loop.for %[[K:[0-9]+]] = %c0 to %c2 step %c1 {
// HW: [[T:%[0-9]+]] = arith.remui %{{[0-9]+}}, %c2 : index
// HW-NEXT: npu.sync "pop" "compute" to "load"
// HW: npu.dma_load %x[%{{[0-9]+}}, %{{[0-9]+}}] to [[INP]][[[T]]]
// HW: npu.dma_load %w[%{{[0-9]+}}, %{{[0-9]+}}] to [[WGT]][[[T]]]
// HW-NEXT: npu.sync "push" "load" to "compute"
// HW-NEXT: npu.sync "pop" "load" to "compute"
// HW-NEXT: npu.gemm [[INP]][[[T]]], [[WGT]][[[T]]] into [[ACC]][[[S]]]
// HW-NEXT: npu.sync "push" "compute" to "load"
// HW-NEXT: }
// HW-NEXT: npu.sync "push" "compute" to "store"
// HW-NEXT: npu.sync "pop" "compute" to "store"
// HW: npu.dma_store [[ACC]][[[S]]] to %y[%{{[0-9]+}}, %{{[0-9]+}}]
// HW-NEXT: npu.sync "push" "store" to "compute"
// HW: npu.sync "pop" "compute" to "load"
// HW-NEXT: npu.sync "pop" "compute" to "load"
// HW-NEXT: npu.sync "pop" "store" to "compute"
// HW-NEXT: npu.sync "pop" "store" to "compute"
// HW: arith.maximumf
//
// Compiled onto the simulator, against the interpreter; the hw-level module in the loop
// interpreter (the ops' references) against the simulator, bit for bit.
// RUN: strati-run --load-plugin %examples/npu %s --target npu --random-inputs 0 --check --profile | filecheck %s --check-prefix=PROF
// RUN: strati-opt --load-plugin %examples/npu %s --emit=hw --target npu -O3 -o %t.mlir
// RUN: strati-run --load-plugin %examples/npu %t.mlir --backend interp --random-inputs 0 --check --rtol 0 --atol 0 | filecheck %s --check-prefix=EXACT
// RUN: strati-opt --load-plugin %examples/npu %t.mlir | filecheck %s --check-prefix=ARENA
// PROF-NOT: FAILED
// 3x2 output tiles of 2 steps; bytes: x 40*20*4 twice (once per j), w 20*24*4 three times, y 40*24*4.
// PROF: npu profile: {{[0-9]+}} cycles; the queues were busy {{[0-9]+}} cycles, an overlap of {{.*}}x
// PROF-NEXT: op count busy cycles bytes MACs utilisation
// PROF-NEXT: npu.alu 6 96 0 0
// PROF-NEXT: npu.dma_load 24 {{[0-9]+}} 12160 0
// PROF-NEXT: npu.dma_store 6 {{[0-9]+}} 3840 0
// PROF-NEXT: npu.gemm 12 192 0 49152
// PROF: check output0: {{.*}}: ok
// EXACT: check output0: max abs error 0, max rel error 0 (rtol 0, atol 0): ok
// ARENA: %arena_inp = memref.alloc() {alignment = 64 : i64} : memref<2048xi8, #hw.space<"inp">>
//
// Without room for two tiles, one slot: no double buffering.
// RUN: sed 's/dtype = "f32"/dtype = "f32", inp_bytes = 1024/' %s > %t.single.mlir
// RUN: strati-opt --load-plugin %examples/npu %t.single.mlir --emit=tensor --target npu | filecheck %s --check-prefix=SINGLE
// SINGLE: npu.matmul %x, %w tile [16, 16, 16] slots [1, 2]

builtin.module attributes {hw.target = #hw.target<"npu", dtype = "f32">} {
  func.func @mm(%x: tensor<40x20xf32>, %w: tensor<20x24xf32>) -> tensor<40x24xf32> {
    %y = graph.matmul %x, %w : (tensor<40x20xf32>, tensor<20x24xf32>) -> tensor<40x24xf32>
    %z = graph.relu %y : tensor<40x24xf32>
    func.return %z : tensor<40x24xf32>
  }
}
