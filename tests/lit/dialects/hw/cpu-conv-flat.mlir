// The blocked convolution computes on a small output image as one row of oh * ow pixels when
// the register model says its tiles run faster so (flat_pixels). With AVX2 (tiles of at most 5
// pixels x 2 vectors) a 7x7 image's rows take tiles of 4 and 3 pixels (the last with 6
// accumulators): as one row of 49 it takes 9 tiles of 5 and one of 4. Pixel p reads the padded
// input at row p floordiv 7, column p mod 7; the result is [n][ob][1][49][16], reshaped when
// copied back to NCHW. With AVX-512 a row of 7 is one tile of 14 accumulators: rows kept.
// RUN: strati-opt %s --emit=tensor | filecheck %s
// RUN: strati-opt %s --emit=hw | filecheck %s --check-prefix=HW
// RUN: strati-run %s --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: sed -e 's/vector_width = 8/vector_width = 16/' %s | strati-opt --emit=tensor | filecheck %s --check-prefix=ROWS
// RUN: sed -e 's/vector_width = 8/vector_width = 16/' %s | strati-run - --random-inputs 0 --check | filecheck %s --check-prefix=EXEC

// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d6, ((d3 floordiv 7) + d4), ((d3 mod 7) + d5))>, {{.*}} outs({{.*}} : tensor<1x2x1x49x16xf32>) attrs = {schedule.ow_tile = 5 : i64, schedule.oh_tile = 1 : i64}
// CHECK: %y = tensor.reshape {{%[0-9]+}} : (tensor<1x2x16x1x49xf32>) -> tensor<1x32x7x7xf32>

// HW: loop.for %{{[0-9]+}} = %c0{{(_[0-9]+)?}} to %c45 step %c5 {
// HW: arith.divsi %{{[0-9]+}}, %c7{{(_[0-9]+)?}} : index
// HW-COUNT-10: vector.fma {{.*}} : vector<8xf32>
// HW: loop.for %{{[0-9]+}} = %c0{{(_[0-9]+)?}} to %c3{{(_[0-9]+)?}} step %c1{{(_[0-9]+)?}} {
// HW: loop.for %{{[0-9]+}} = %c0{{(_[0-9]+)?}} to %c3{{(_[0-9]+)?}} step %c1{{(_[0-9]+)?}} {
// HW-COUNT-8: vector.fma {{.*}} : vector<8xf32>

// ROWS: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d6, (d2 + d4), (d3 + d5))>, {{.*}} outs({{.*}} : tensor<1x1x7x7x32xf32>) attrs = {schedule.ow_tile = 7 : i64, schedule.oh_tile = 1 : i64}

// EXEC: check output0: {{.*}}: ok

builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @conv(%x: tensor<1x24x7x7xf32>, %w: tensor<32x24x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x7x7xf32> {
    %y = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x24x7x7xf32>, tensor<32x24x3x3xf32>, tensor<32xf32>) -> tensor<1x32x7x7xf32>
    func.return %y : tensor<1x32x7x7xf32>
  }
}
