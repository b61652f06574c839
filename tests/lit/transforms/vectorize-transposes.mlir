// vectorize-transposes: a copy whose loads are contiguous in one of its two innermost loops and
// whose store is contiguous in the other moves N x N tiles: N vector loads, log2(N) rounds of
// N two-input shuffles (the transpose), N vector stores; the loops' other iterations stay scalar.
// RUN: strati-opt %s --split-input-file -p vectorize-transposes | filecheck %s

// NCHW{32}c back to NCHW, with a relu: the loads run along the inner loop (c), the store along
// the outer one (w, 11 = 8 + 3: the last 3 pixels stay scalar). The zero is broadcast once.
// CHECK-LABEL: func.func @nchwc_to_nchw(
// CHECK: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[Z:.*]] = vector.broadcast %zero : f32 to vector<8xf32>
// CHECK-NEXT: loop.for %w = %c0 to %c8 step %c8 {
// CHECK-NEXT: loop.for %c = %c0 to %c32 step %c8 {
// CHECK-NEXT: %[[R0:.*]] = vector.load %in[%h, %w, %c] : memref<5x11x32xf32>, vector<8xf32>
// CHECK-NEXT: %[[M0:.*]] = arith.maximumf %[[R0]], %[[Z]] : vector<8xf32>
// CHECK-NEXT: %[[W1:.*]] = arith.addi %w, %c1 : index
// CHECK-NEXT: vector.load %in[%h, %[[W1]], %c]
// CHECK-COUNT-7: arith.maximumf
// CHECK-COUNT-24: vector.shuffle
// CHECK-NEXT: vector.store %{{.*}}, %out[%c, %h, %w] : memref<32x5x11xf32>, vector<8xf32>
// CHECK-NEXT: %[[C1:.*]] = arith.addi %c, %c1 : index
// CHECK-NEXT: vector.store %{{.*}}, %out[%[[C1]], %h, %w] : memref<32x5x11xf32>, vector<8xf32>
// CHECK-COUNT-6: vector.store
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for %w_1 = %c8 to %c11 step %c1 {
// CHECK-NEXT: loop.for %c_1 = %c0 to %c32 step %c1 {
// CHECK-NEXT: memref.load %in[%h, %w_1, %c_1]
// CHECK-NOT: vector.
// CHECK: func.return
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @nchwc_to_nchw(%in: memref<5x11x32xf32>, %out: memref<32x5x11xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %c32 = arith.constant 32 : index
    loop.for %h = %c0 to %c5 step %c1 {
      loop.for %w = %c0 to %c11 step %c1 {
        loop.for %c = %c0 to %c32 step %c1 {
          %x = memref.load %in[%h, %w, %c] : memref<5x11x32xf32>
          %zero = arith.constant 0.000000e+00 : f32
          %y = arith.maximumf %x, %zero : f32
          memref.store %y, %out[%c, %h, %w] : memref<32x5x11xf32>
        } {parallel = true}
      } {parallel = true}
    }
    func.return
  }
}

// -----

// A 2-D transpose, as graph.transpose lowers: the store runs along the inner loop (k, 9 = 8 + 1),
// the loads along the outer one (j). First the tiles, then the last k of the tiled j, then the
// last j (12 = 8 + 4) for every k.
// CHECK-LABEL: func.func @transpose(
// CHECK: loop.for %j = %c0 to %c8 step %c8 {
// CHECK-NEXT: loop.for %k = %c0 to %c8 step %c8 {
// CHECK-NEXT: vector.load %x[%k, %j] : memref<9x12xf32>, vector<8xf32>
// CHECK-NEXT: %[[K1:.*]] = arith.addi %k, %c1 : index
// CHECK-NEXT: vector.load %x[%[[K1]], %j] : memref<9x12xf32>, vector<8xf32>
// CHECK-COUNT-24: vector.shuffle
// CHECK-NEXT: vector.store %{{.*}}, %out[%j, %k] : memref<12x9xf32>, vector<8xf32>
// CHECK: loop.for %j_1 = %c0 to %c8 step %c1 {
// CHECK-NEXT: loop.for %k_1 = %c8 to %c9 step %c1 {
// CHECK: loop.for %j_2 = %c8 to %c12 step %c1 {
// CHECK-NEXT: loop.for %k_2 = %c0 to %c9 step %c1 {
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @transpose(%x: memref<9x12xf32>, %out: memref<12x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c12 = arith.constant 12 : index
    loop.for %j = %c0 to %c12 step %c1 {
      loop.for %k = %c0 to %c9 step %c1 {
        %v = memref.load %x[%k, %j] : memref<9x12xf32>
        memref.store %v, %out[%j, %k] : memref<12x9xf32>
      } {parallel = true}
    } {parallel = true}
    func.return
  }
}

// -----

// AVX-512: tiles of 16, four rounds of 16 shuffles.
// CHECK-LABEL: func.func @wide(
// CHECK: loop.for %w = %c0 to %c16 step %c16 {
// CHECK-COUNT-16: vector.load
// CHECK-COUNT-64: vector.shuffle
// CHECK-COUNT-16: vector.store
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 16777216>} {
  func.func @wide(%in: memref<16x32xf32>, %out: memref<32x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    loop.for %w = %c0 to %c16 step %c1 {
      loop.for %c = %c0 to %c32 step %c1 {
        %x = memref.load %in[%w, %c] : memref<16x32xf32>
        memref.store %x, %out[%c, %w] : memref<32x16xf32>
      } {parallel = true}
    } {parallel = true}
    func.return
  }
}

// -----

// ResNet's copy back with the residual added in place: the residual is read where the result is
// written (the same indices, a buffer that may be the same): after the transpose, column by
// column (the loads of %res along w, the add and the relu on the columns, then the store).
// CHECK-LABEL: func.func @residual(
// CHECK: loop.for %c = %c0 to %c32 step %c8 {
// CHECK-COUNT-8: vector.load %blocked
// CHECK-COUNT-24: vector.shuffle
// CHECK-NEXT: %[[R:.*]] = vector.load %res[%c, %h, %w] : memref<32x14x14xf32>, vector<8xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %{{.*}}, %[[R]] : vector<8xf32>
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<8xf32>
// CHECK-NEXT: vector.store %[[M]], %out[%c, %h, %w] : memref<32x14x14xf32>, vector<8xf32>
// CHECK-NEXT: %[[C1:.*]] = arith.addi %c, %c1 : index
// CHECK-NEXT: vector.load %res[%[[C1]], %h, %w]
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @residual(%res: memref<32x14x14xf32> {strati.may_alias}, %blocked: memref<14x14x32xf32>, %out: memref<32x14x14xf32> {strati.may_alias}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c14 = arith.constant 14 : index
    %c32 = arith.constant 32 : index
    loop.for %h = %c0 to %c14 step %c1 {
      loop.for %w = %c0 to %c14 step %c1 {
        loop.for %c = %c0 to %c32 step %c1 {
          %r = memref.load %res[%c, %h, %w] : memref<32x14x14xf32>
          %b = memref.load %blocked[%h, %w, %c] : memref<14x14x32xf32>
          %s = arith.addf %b, %r : f32
          %zero = arith.constant 0.000000e+00 : f32
          %y = arith.maximumf %s, %zero : f32
          memref.store %y, %out[%c, %h, %w] : memref<32x14x14xf32>
        } {parallel = true}
      } {parallel = true}
    }
    func.return
  }
}

// -----

// Left alone: a copy in place that reads the stored buffer elsewhere than it writes, a store
// strided in w, a loop shorter than the narrowest vector (3 < 4), and a bias broadcast along
// the store (its rows all the same: vectorize's work).
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: vector.
// CHECK: func.return
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @left_alone(%a: memref<16x16xf32>, %b: memref<16x32xf32>, %out: memref<16x32xf32>, %s: memref<3x16xf32>, %t: memref<16x3xf32>, %bias: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    loop.for %i = %c0 to %c16 step %c1 {
      loop.for %j = %c0 to %c16 step %c1 {
        %v = memref.load %a[%i, %j] : memref<16x16xf32>
        memref.store %v, %a[%j, %i] : memref<16x16xf32>
      }
    }
    loop.for %w = %c0 to %c16 step %c1 {
      loop.for %c = %c0 to %c16 step %c1 {
        %v = memref.load %b[%w, %c] : memref<16x32xf32>
        %w2 = arith.muli %w, %c2 : index
        memref.store %v, %out[%c, %w2] : memref<16x32xf32>
      }
    }
    loop.for %w = %c0 to %c16 step %c1 {
      loop.for %c = %c0 to %c3 step %c1 {
        %v = memref.load %t[%w, %c] : memref<16x3xf32>
        memref.store %v, %s[%c, %w] : memref<3x16xf32>
      }
    }
    loop.for %m = %c0 to %c16 step %c1 {
      loop.for %n = %c0 to %c16 step %c1 {
        %v = memref.load %bias[%m] : memref<16xf32>
        memref.store %v, %a[%m, %n] : memref<16x16xf32>
      }
    }
    func.return
  }
}
