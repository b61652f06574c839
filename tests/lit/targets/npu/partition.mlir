// Partitioning: each graph op goes to the NPU when one of its strategies applies, else it
// stays on the host; the NPU's connected groups are numbered; the fallbacks are noted.
// RUN: strati-opt --load-plugin %examples/npu %s -p 'partition{target=npu}' 2>&1 | filecheck %s
// --emit=graph shows the same placement, for the module's target or the one given.
// RUN: strati-opt --load-plugin %examples/npu %s --emit=graph 2>&1 | filecheck %s
// RUN: strati-opt --load-plugin %examples/npu %s --emit=graph --target npu 2>&1 | filecheck %s
// CHECK: note: @f: 3 ops in 2 partitions on npu; on the host cpu (no npu strategy applies): graph.flatten, graph.max_pool2d, graph.relu
// CHECK: graph.conv2d %x, %k {pads = array<i64: 1, 1, 1, 1>, strati.placement = "npu", strati.partition = 0}
// CHECK: graph.relu %c {strati.placement = "cpu"}
// CHECK: graph.max_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, strati.placement = "cpu"}
// CHECK: graph.matmul %f, %w {strati.placement = "npu", strati.partition = 1}
// CHECK: graph.matmul %m, %w2 {strati.placement = "npu", strati.partition = 1}
//
// The placement steers the lowering; an op moved to the host by hand stays there.
// RUN: strati-opt --load-plugin %examples/npu %s -p 'partition{target=npu}' 2>/dev/null | sed 's/strati.placement = "npu", strati.partition = 1}/strati.placement = "cpu"}/' | strati-opt --load-plugin %examples/npu --emit=tensor --target npu --print-strategy 2>&1 | filecheck %s --check-prefix=MOVED
// MOVED: strategy: graph.conv2d -> npu/npu_im2col
// MOVED-NOT: strategy: graph.matmul
// MOVED: npu.matmul {{.*}} : (tensor<8x27xf32>, tensor<27x256xf32>) -> tensor<8x256xf32>
// MOVED-NOT: npu.matmul
//
// The picture, coloured by target.
// RUN: strati-opt --load-plugin %examples/npu %s -p 'partition{target=npu}' 2>/dev/null | strati-translate --load-plugin %examples/npu --to dot - | filecheck %s --check-prefix=DOT
// DOT: label="graph.conv2d\ntensor<1x8x16x16xf32>\n@npu", style=filled, fillcolor="[[NPU:#[0-9a-f]+]]"
// DOT: label="graph.relu\ntensor<1x8x16x16xf32>\n@cpu", style=filled, fillcolor="[[CPU:#[0-9a-f]+]]"
// DOT: label="graph.matmul\ntensor<1x16xf32>\n@npu", style=filled, fillcolor="[[NPU]]"
//
// The whole model compiles for the NPU and matches the interpreter.
// RUN: strati-run --load-plugin %examples/npu %s --target npu --random-inputs 1 --check 2>&1 | filecheck %s --check-prefix=EXEC
// EXEC: note: @f: 3 ops in 2 partitions on npu
// EXEC: check output0: {{.*}}: ok
//
// On the host target there is nothing to partition.
// RUN: strati-opt --load-plugin %examples/npu %s -p 'partition{target=cpu}' | filecheck %s --check-prefix=HOST
// RUN: strati-opt --load-plugin %examples/npu %s --emit=graph --target cpu | filecheck %s --check-prefix=HOST
// HOST-NOT: strati.placement

builtin.module attributes {hw.target = #hw.target<"npu", dtype = "f32">} {
  func.func @f(%x: tensor<1x3x16x16xf32>, %k: tensor<8x3x3x3xf32>, %w: tensor<512x16xf32>, %w2: tensor<16x16xf32>) -> tensor<1x16xf32> {
    %c = graph.conv2d %x, %k {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32>
    %r = graph.relu %c : tensor<1x8x16x16xf32>
    %p = graph.max_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
    %f = graph.flatten %p : (tensor<1x8x8x8xf32>) -> tensor<1x512xf32>
    %m = graph.matmul %f, %w : (tensor<1x512xf32>, tensor<512x16xf32>) -> tensor<1x16xf32>
    %y = graph.matmul %m, %w2 : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    func.return %y : tensor<1x16xf32>
  }
}
