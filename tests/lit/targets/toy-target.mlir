// A target from outside strati (tests/unit/plugins/toy_target.py: a matmul unit with a
// scratchpad) joins every tool through --load-plugin, with no edit to strati.
// RUN: strati-opt --load-plugin %S/../../unit/plugins/toy_target.py --list-targets | filecheck %s --check-prefix=LIST
// LIST: cpu  [strati.dialects.hw.cpu.target]
// LIST: toy  [toy_target]  a matmul unit with a scratchpad (a test plug-in)
// LIST-NEXT: dialects: toy
// LIST-NEXT: pipeline: (none)
// LIST-NEXT: field sram_bytes: int (default 65536)  scratchpad bytes
// LIST-NEXT: memory space 'sram': capacity in field sram_bytes
// LIST-NEXT: strategies for graph.matmul: toy_matmul
//
// RUN: strati-opt --load-plugin %S/../../unit/plugins/toy_target.py --list-op-attrs | filecheck %s --check-prefix=ATTRS
// ATTRS: op {{.*}} reference {{.*}} bufferize emit
// ATTRS: toy.copy {{.*}} x {{.*}} - x
// ATTRS: toy.matmul {{.*}} x {{.*}} x x
//
// The matmul takes the target's strategy, and bufferizes through the scratchpad; relu stays
// host code.
// RUN: strati-opt --load-plugin %S/../../unit/plugins/toy_target.py %s --emit=hw --target toy --print-strategy 2>&1 | filecheck %s --check-prefix=HW
// HW: strategy: graph.matmul -> toy/toy_matmul: the only one that applies (cost 1) (at {{.*}}toy-target.mlir:[[# @LINE + 33]]:3)
// HW: builtin.module attributes {hw.target = #hw.target<"toy", sram_bytes = 65536>} {
// HW: [[A:%[0-9]+]] = memref.alloc() : memref<4x8xf32, #hw.space<"sram">>
// HW: [[B:%[0-9]+]] = memref.alloc() : memref<8x16xf32, #hw.space<"sram">>
// HW: [[C:%[0-9]+]] = memref.alloc() : memref<4x16xf32, #hw.space<"sram">>
// HW: "toy.copy"(%x, [[A]])
// HW: "toy.copy"(%w, [[B]])
// HW: "toy.matmul"([[A]], [[B]], [[C]])
// HW: "toy.copy"([[C]], %y)
// HW: arith.maximumf
//
// With plan-memory (-O3), one arena per memory space.
// RUN: strati-opt --load-plugin %S/../../unit/plugins/toy_target.py %s --emit=hw --target toy -O3 | filecheck %s --check-prefix=ARENA
// ARENA: %arena_sram = memref.alloc() {alignment = 64 : i64} : memref<896xi8, #hw.space<"sram">>
// ARENA: %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// ARENA: loop.arena_view %arena_sram[{{[0-9]+}}] : memref<896xi8, #hw.space<"sram">> to memref<4x8xf32, #hw.space<"sram">>
//
// It runs (the simulator through the JIT) and matches the reference interpreter; the
// level-4 module runs in the loop interpreter through the toy ops' references.
// RUN: strati-run --load-plugin %S/../../unit/plugins/toy_target.py %s --target toy --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-opt --load-plugin %S/../../unit/plugins/toy_target.py %s --emit=hw --target toy -O3 -o %t.mlir
// RUN: strati-run --load-plugin %S/../../unit/plugins/toy_target.py %t.mlir --backend interp --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: cat %t.mlir | strati-opt --load-plugin %S/../../unit/plugins/toy_target.py | strati-opt --load-plugin %S/../../unit/plugins/toy_target.py | filecheck %s --check-prefix=ARENA
// EXEC-NOT: FAILED
// EXEC: check output0: max abs error {{.*}}: ok
//
// Without the plug-in, its target is unknown.
// RUN: not strati-opt %s --emit=hw --target toy 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: strati-opt: error: unknown target 'toy' (targets: cpu)
// RUN: not strati-run %s --target toy --random-inputs 0 2>&1 | filecheck %s --check-prefix=NOTARGET
// NOTARGET: strati-run: error: unknown target 'toy' (targets: cpu)

func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %z = graph.relu %y : tensor<4x16xf32>
  func.return %z : tensor<4x16xf32>
}
