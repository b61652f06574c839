// -O picks the optional passes of --emit; -O0 lowers only.
// RUN: strati-opt %s --emit=loop -O0 --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=O0
// O0-NOT: IR Dump After simplify-inference
// O0: IR Dump After convert-graph-to-tensor
// O0: IR Dump After convert-tensor-to-loop
// RUN: strati-opt %s --emit=loop -O3 --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=O3
// O3: IR Dump After simplify-inference
// O3: IR Dump After canonicalize
// O3: IR Dump After fold-constants
// O3: IR Dump After fuse-ops
// O3: IR Dump After convert-graph-to-tensor
// O3: IR Dump After fuse-generics
// O3: IR Dump After convert-tensor-to-loop
// O3: IR Dump After fuse-loops
// O3: IR Dump After plan-memory
// At -O3 the temporaries are views of one arena.
// RUN: strati-opt %s --emit=loop -O3 | filecheck %s --check-prefix=ARENA
// ARENA: memref.alloc() {{.*}} : memref<{{[0-9]+}}xi8>
// ARENA: loop.arena_view
// RUN: strati-run %s --random-inputs 0 -O3 --check | filecheck %s --check-prefix=CHECK3
// CHECK3: check output0: {{.*}}: ok
// RUN: strati-run %s --random-inputs 0 -O0 --check | filecheck %s --check-prefix=CHECK0
// CHECK0: check output0: {{.*}}: ok

func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %a = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %b = graph.tanh %a : tensor<8x16xf32>
  %c = graph.matmul %b, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %d = graph.relu %c : tensor<8x16xf32>
  %e = graph.softmax %d : tensor<8x16xf32>
  func.return %e : tensor<8x16xf32>
}
