// pack of a constant: the tiles a loop would copy are laid out at compile time (numpy) in a new
// constant global, side by side, one block per iteration of the tile loops around them; the loads
// read their tile's block and no copy is left to run.  The original global goes when nothing
// reads it any more; one packed global per (constant, layout).
// RUN: strati-opt %s --split-input-file -p pack | filecheck %s
// RUN: strati-opt %s --split-input-file -p pack | strati-opt --split-input-file | filecheck %s --check-prefix=ROUNDTRIP

// W (5x8) read transposed, w[j, k], in tiles of 4 rows of k: two blocks of a 4x5 tile, in the
// order the loops read it (k, then j), so w_packed[b, kk, j] = w[j, 4b + kk].
// CHECK-LABEL: "memref.global"() <{sym_name = "w_packed_{{[0-9a-f]+}}", type = memref<2x4x5xf32>, initial_value = dense<{{\[\[\[}}0.000000e+00, 8.000000e+00, 1.600000e+01, 2.400000e+01, 3.200000e+01], [1.000000e+00, 9.000000e+00, 1.700000e+01, 2.500000e+01, 3.300000e+01], [2.000000e+00, {{.*}}], [3.000000e+00, {{.*}}]], {{\[\[}}4.000000e+00, 1.200000e+01, 2.000000e+01, 2.800000e+01, 3.600000e+01], {{.*}}, [7.000000e+00, 1.500000e+01, 2.300000e+01, 3.100000e+01, 3.900000e+01]]]> : tensor<2x4x5xf32>, sym_visibility = "private", constant, alignment = 64 : i64}>
// CHECK-NOT: sym_name = "w"
// CHECK-LABEL: func.func @mm(
// CHECK-NOT: memref.alloc
// CHECK: %b_packed = memref.get_global @w_packed_{{[0-9a-f]+}} : memref<2x4x5xf32>
// CHECK-NEXT: loop.for %kc = %c0 to %c8 step %c4 {
// CHECK-NEXT: %ke = arith.addi %kc, %c4 : index
// CHECK-NEXT: %[[B:[0-9]+]] = arith.divui %kc, %c4 : index
// CHECK-NEXT: loop.for %i
// CHECK: %[[K:[0-9]+]] = arith.subi %k, %kc : index
// CHECK-NEXT: %y = memref.load %b_packed[%[[B]], %[[K]], %j] : memref<2x4x5xf32>
// CHECK-NOT: memref.dealloc
// CHECK-NOT: schedule.pack
// ROUNDTRIP: func.func @mm(
builtin.module {
  "memref.global"() <{sym_name = "w", type = memref<5x8xf32>, initial_value = dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0], [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0]]> : tensor<5x8xf32>, sym_visibility = "private", constant}> : () -> ()
  func.func @mm(%a: memref<6x8xf32>, %out: memref<6x5xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %b = memref.get_global @w : memref<5x8xf32>
    loop.for %kc = %c0 to %c8 step %c4 {
      %ke = arith.addi %kc, %c4 : index
      loop.for %i = %c0 to %c6 step %c1 {
        loop.for %k = %kc to %ke step %c1 {
          loop.for %j = %c0 to %c5 step %c1 {
            %x = memref.load %a[%i, %k] : memref<6x8xf32>
            %y = memref.load %b[%j, %k] : memref<5x8xf32>
            %acc = memref.load %out[%i, %j] : memref<6x5xf32>
            %m = arith.mulf %x, %y : f32
            %s = arith.addf %acc, %m : f32
            memref.store %s, %out[%i, %j] : memref<6x5xf32>
          }
        }
      } {parallel = true}
    } {schedule.pack = ["b"]}
    func.return
  }
}

// -----

// A kernel whose weights come as an argument: every call passes a constant global, so each call
// passes the packed global of its own constant instead (a new argument; the old one goes, and
// with it the globals nothing reads).  Two calls passing @u share one packed global.  The last
// tile of j is partial (7 = 4 + 3): its block is zero-padded.
// CHECK-LABEL: "memref.global"() <{sym_name = "u_packed_{{[0-9a-f]+}}", type = memref<2x3x4xf32>
// CHECK-SAME: dense<{{\[\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]
// CHECK-SAME: {{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00]
// CHECK-NOT: sym_name = "u"
// CHECK: "memref.global"() <{sym_name = "v_packed_{{[0-9a-f]+}}", type = memref<2x3x4xf32>
// CHECK-NOT: sym_name = "v"
// CHECK-LABEL: func.func @f(
// CHECK: %[[U:[0-9]+]] = memref.get_global @u_packed_{{[0-9a-f]+}} : memref<2x3x4xf32>
// CHECK-NEXT: func.call @f.kernel0(%x, %y, %[[U]]) : (memref<2x3xf32>, memref<2x7xf32>, memref<2x3x4xf32>) -> ()
// CHECK: %[[V:[0-9]+]] = memref.get_global @v_packed_{{[0-9a-f]+}} : memref<2x3x4xf32>
// CHECK-NEXT: func.call @f.kernel0(%x, %y, %[[V]])
// CHECK: %[[U2:[0-9]+]] = memref.get_global @u_packed_{{[0-9a-f]+}} : memref<2x3x4xf32>
// CHECK-NEXT: func.call @f.kernel0(%x, %y, %[[U2]])
// CHECK: func.func private @f.kernel0(%a: memref<2x3xf32>, %out: memref<2x7xf32>, %w_packed: memref<2x3x4xf32>) attributes {strati.kernel} {
// CHECK: loop.for %jt = %c0 to %c7 step %c4 {
// CHECK: %[[B:[0-9]+]] = arith.divui %jt, %c4 : index
// CHECK: %[[J:[0-9]+]] = arith.subi %j, %jt : index
// CHECK-NEXT: memref.load %w_packed[%[[B]], %k, %[[J]]] : memref<2x3x4xf32>
builtin.module {
  "memref.global"() <{sym_name = "u", type = memref<3x7xf32>, initial_value = dense<1.0> : tensor<3x7xf32>, sym_visibility = "private", constant}> : () -> ()
  "memref.global"() <{sym_name = "v", type = memref<3x7xf32>, initial_value = dense<2.0> : tensor<3x7xf32>, sym_visibility = "private", constant}> : () -> ()
  func.func @f(%x: memref<2x3xf32>, %y: memref<2x7xf32>) {
    %u = memref.get_global @u : memref<3x7xf32>
    func.call @f.kernel0(%x, %y, %u) : (memref<2x3xf32>, memref<2x7xf32>, memref<3x7xf32>) -> ()
    %v = memref.get_global @v : memref<3x7xf32>
    func.call @f.kernel0(%x, %y, %v) : (memref<2x3xf32>, memref<2x7xf32>, memref<3x7xf32>) -> ()
    %u2 = memref.get_global @u : memref<3x7xf32>
    func.call @f.kernel0(%x, %y, %u2) : (memref<2x3xf32>, memref<2x7xf32>, memref<3x7xf32>) -> ()
    func.return
  }
  func.func private @f.kernel0(%a: memref<2x3xf32>, %out: memref<2x7xf32>, %w: memref<3x7xf32>) attributes {strati.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    loop.for %jt = %c0 to %c7 step %c4 {
      %je0 = arith.addi %jt, %c4 : index
      %je = arith.minsi %je0, %c7 : index
      loop.for %i = %c0 to %c2 step %c1 {
        loop.for %k = %c0 to %c3 step %c1 {
          loop.for %j = %jt to %je step %c1 {
            %p = memref.load %a[%i, %k] : memref<2x3xf32>
            %q = memref.load %w[%k, %j] : memref<3x7xf32>
            %acc = memref.load %out[%i, %j] : memref<2x7xf32>
            %m = arith.mulf %p, %q : f32
            %s = arith.addf %acc, %m : f32
            memref.store %s, %out[%i, %j] : memref<2x7xf32>
          }
        }
      } {parallel = true}
    } {schedule.pack = ["w"]}
    func.return
  }
}
