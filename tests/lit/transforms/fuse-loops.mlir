// RUN: strati-opt %s --split-input-file -p fuse-loops | filecheck %s
// RUN: strati-opt %s --split-input-file -p fuse-loops | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'fuse-loops{keep_innermost=false}' | filecheck %s --check-prefix=FULL
// RUN: strati-opt %s --split-input-file -p simplify-inference,fuse-ops,convert-graph-to-tensor,fuse-generics,convert-tensor-to-loop,fuse-loops | filecheck %s --check-prefix=PIPE
//
// Loop fusion after bufferization.  The first functions are loop-level input (CHECK,
// FULL); the last ones go through the whole fusion pipeline from the graph level
// (PIPE): conv2d -> batch_norm -> relu, with the batch norm folded into the conv by
// simplify-inference, is ONE loop nest with no buffer between its ops.
// tests/unit/test_fusion.py runs every loop-level function here through the loop
// interpreter before and after the pass.

// conv -> relu: the bias initialisation goes in before the reduction loops, the relu
// after them; each keeps its own innermost loop (so the convolution stays a perfect
// nest for convert-loop-to-hw); the temporary becomes the output (the accumulation
// happens in %out and the relu is applied in place).
// CHECK-LABEL: func.func @conv_relu(
// CHECK-NOT: memref.alloc
// CHECK: loop.for %n = %c0 to %c1 step %c1 {
// CHECK-NEXT: loop.for %o = %c0 to %c3 step %c1 {
// CHECK-NEXT: loop.for %h = %c0 to %c3 step %c1 {
// CHECK-NEXT: loop.for %v = %c0 to %c3 step %c1 {
// CHECK-NEXT: %bias = memref.load %b[%o] : memref<3xf32>
// CHECK-NEXT: memref.store %bias, %out[%n, %o, %h, %v] : memref<1x3x3x3xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for [[V:%[a-z0-9_]+]] = %c0 to %c3 step %c1 {
// CHECK-NEXT: loop.for %i = %c0 to %c2 step %c1 {
// CHECK-NEXT: loop.for %kh = %c0 to %c3 step %c1 {
// CHECK-NEXT: loop.for %kw = %c0 to %c3 step %c1 {
// CHECK-NEXT: %r = arith.addi %h, %kh : index
// CHECK-NEXT: %s = arith.addi [[V]], %kw : index
// CHECK-NEXT: %xv = memref.load %x[%n, %i, %r, %s] : memref<1x2x5x5xf32>
// CHECK-NEXT: %wv = memref.load %w[%o, %i, %kh, %kw] : memref<3x2x3x3xf32>
// CHECK-NEXT: %acc = memref.load %out[%n, %o, %h, [[V]]] : memref<1x3x3x3xf32>
// CHECK-NEXT: %p = arith.mulf %xv, %wv : f32
// CHECK-NEXT: %sum = arith.addf %acc, %p : f32
// CHECK-NEXT: memref.store %sum, %out[%n, %o, %h, [[V]]] : memref<1x3x3x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for [[W:%[a-z0-9_]+]] = %c0 to %c3 step %c1 {
// CHECK-NEXT: %y = memref.load %out[%n, %o, %h, [[W]]] : memref<1x3x3x3xf32>
// CHECK-NEXT: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %relu = arith.maximumf %y, %zero : f32
// CHECK-NEXT: memref.store %relu, %out[%n, %o, %h, [[W]]] : memref<1x3x3x3xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: func.return
// With keep_innermost=false the three parts share the innermost parallel loop.
// FULL-LABEL: func.func @conv_relu(
// FULL-NOT: memref.alloc
// FULL: loop.for %v = %c0 to %c3 step %c1 {
// FULL-NEXT: %bias = memref.load %b[%o]
// FULL-NEXT: memref.store %bias, %out[%n, %o, %h, %v]
// FULL-NEXT: loop.for %i = %c0 to %c2 step %c1 {
// FULL: memref.store %sum, %out[%n, %o, %h, %v]
// FULL-NEXT: }
// FULL-NEXT: }
// FULL-NEXT: }
// FULL-NEXT: %y = memref.load %out[%n, %o, %h, %v]
// FULL: memref.store %relu, %out[%n, %o, %h, %v]
// FULL-NEXT: } {parallel = true}
// FULL-NEXT: } {parallel = true}
// FULL-NEXT: } {parallel = true}
// FULL-NEXT: } {parallel = true}
// FULL-NEXT: func.return
func.func @conv_relu(%x: memref<1x2x5x5xf32>, %w: memref<3x2x3x3xf32>, %b: memref<3xf32>, %out: memref<1x3x3x3xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t = memref.alloc() : memref<1x3x3x3xf32>
  loop.for %n = %c0 to %c1 step %c1 {
    loop.for %o = %c0 to %c3 step %c1 {
      loop.for %h = %c0 to %c3 step %c1 {
        loop.for %v = %c0 to %c3 step %c1 {
          %bias = memref.load %b[%o] : memref<3xf32>
          memref.store %bias, %t[%n, %o, %h, %v] : memref<1x3x3x3xf32>
        } {parallel = true}
      } {parallel = true}
    } {parallel = true}
  } {parallel = true}
  loop.for %n = %c0 to %c1 step %c1 {
    loop.for %o = %c0 to %c3 step %c1 {
      loop.for %h = %c0 to %c3 step %c1 {
        loop.for %v = %c0 to %c3 step %c1 {
          loop.for %i = %c0 to %c2 step %c1 {
            loop.for %kh = %c0 to %c3 step %c1 {
              loop.for %kw = %c0 to %c3 step %c1 {
                %r = arith.addi %h, %kh : index
                %s = arith.addi %v, %kw : index
                %xv = memref.load %x[%n, %i, %r, %s] : memref<1x2x5x5xf32>
                %wv = memref.load %w[%o, %i, %kh, %kw] : memref<3x2x3x3xf32>
                %acc = memref.load %t[%n, %o, %h, %v] : memref<1x3x3x3xf32>
                %p = arith.mulf %xv, %wv : f32
                %sum = arith.addf %acc, %p : f32
                memref.store %sum, %t[%n, %o, %h, %v] : memref<1x3x3x3xf32>
              }
            }
          }
        } {parallel = true}
      } {parallel = true}
    } {parallel = true}
  } {parallel = true}
  loop.for %n = %c0 to %c1 step %c1 {
    loop.for %o = %c0 to %c3 step %c1 {
      loop.for %h = %c0 to %c3 step %c1 {
        loop.for %v = %c0 to %c3 step %c1 {
          %y = memref.load %t[%n, %o, %h, %v] : memref<1x3x3x3xf32>
          %zero = arith.constant 0.0 : f32
          %relu = arith.maximumf %y, %zero : f32
          memref.store %relu, %out[%n, %o, %h, %v] : memref<1x3x3x3xf32>
        } {parallel = true}
      } {parallel = true}
    } {parallel = true}
  } {parallel = true}
  memref.dealloc %t : memref<1x3x3x3xf32>
  func.return
}

// -----

// Two elementwise nests: one loop body; the load of the temporary is the value
// stored, and the temporary is gone.
// CHECK-LABEL: func.func @elementwise(
// CHECK-NOT: memref.alloc
// CHECK: loop.for %i = %c0 to %c4 step %c1 {
// CHECK-NEXT: loop.for %j = %c0 to %c8 step %c1 {
// CHECK-NEXT: %a = memref.load %x[%i, %j] : memref<4x8xf32>
// CHECK-NEXT: %e = math.exp %a : f32
// CHECK-NEXT: %n = arith.negf %e : f32
// CHECK-NEXT: memref.store %n, %out[%i, %j] : memref<4x8xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: func.return
func.func @elementwise(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<4x8xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %e = math.exp %a : f32
      memref.store %e, %t[%i, %j] : memref<4x8xf32>
    } {parallel = true}
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %t[%i, %j] : memref<4x8xf32>
      %n = arith.negf %a : f32
      memref.store %n, %out[%i, %j] : memref<4x8xf32>
    } {parallel = true}
  } {parallel = true}
  memref.dealloc %t : memref<4x8xf32>
  func.return
}

// -----

// Not fused: the consumer reads element (j, i) in iteration (i, j), which the producer
// writes in another iteration.
// CHECK-LABEL: func.func @transposed_read(
// CHECK: %t = memref.alloc() : memref<4x4xf32>
// CHECK: memref.store %e, %t[%i, %j]
// CHECK: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for
// CHECK: memref.load %t[
func.func @transposed_read(%x: memref<4x4xf32>, %out: memref<4x4xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4x4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c4 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x4xf32>
      %e = math.exp %a : f32
      memref.store %e, %t[%i, %j] : memref<4x4xf32>
    } {parallel = true}
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c4 step %c1 {
      %a = memref.load %t[%j, %i] : memref<4x4xf32>
      memref.store %a, %out[%i, %j] : memref<4x4xf32>
    } {parallel = true}
  } {parallel = true}
  memref.dealloc %t : memref<4x4xf32>
  func.return
}

// -----

// Full fusion would be illegal (the row maximum is complete only after the row), so the
// exponentials join the reduction at the row level.  The initialisation of %m, over a
// different iteration space (4x1), stays apart.
// CHECK-LABEL: func.func @row_max_exp(
// CHECK: memref.store %low, %m[%i, %k]
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: loop.for %j = %c0 to %c8 step %c1 {
// CHECK: memref.store %mx, %m[[[I]], %c0]
// CHECK-NEXT: }
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = %c0 to %c8 step %c1 {
// CHECK: %mv = memref.load %m[[[I]], %c0]
// CHECK: memref.store %e, %out[[[I]], [[J]]]
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: memref.dealloc %m
func.func @row_max_exp(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloc() : memref<4x1xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %k = %c0 to %c1 step %c1 {
      %low = arith.constant -3.0e+38 : f32
      memref.store %low, %m[%i, %k] : memref<4x1xf32>
    } {parallel = true}
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %cur = memref.load %m[%i, %c0] : memref<4x1xf32>
      %mx = arith.maximumf %cur, %a : f32
      memref.store %mx, %m[%i, %c0] : memref<4x1xf32>
    }
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %mv = memref.load %m[%i, %c0] : memref<4x1xf32>
      %d = arith.subf %a, %mv : f32
      %e = math.exp %d : f32
      memref.store %e, %out[%i, %j] : memref<4x8xf32>
    } {parallel = true}
  } {parallel = true}
  memref.dealloc %m : memref<4x1xf32>
  func.return
}

// -----

// Not fused: a call that may read or write %t stands between the two nests.
// CHECK-LABEL: func.func @blocked(
// CHECK: %t = memref.alloc()
// CHECK: memref.store %a, %t[%i]
// CHECK: func.call @observe(%t)
// CHECK-NEXT: loop.for
// CHECK: memref.load %t[
func.func private @observe(memref<4xf32>)

func.func @blocked(%x: memref<4xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<4xf32>
    memref.store %a, %t[%i] : memref<4xf32>
  } {parallel = true}
  func.call @observe(%t) : (memref<4xf32>) -> ()
  loop.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %t[%i] : memref<4xf32>
    memref.store %a, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %t : memref<4xf32>
  func.return
}

// -----

// A temporary read by two nests: both join its producer and the temporary goes.
// CHECK-LABEL: func.func @two_readers(
// CHECK-NOT: memref.alloc
// CHECK: loop.for %i = %c0 to %c4 step %c1 {
// CHECK-NEXT: %a = memref.load %x[%i] : memref<4xf32>
// CHECK-NEXT: %e = math.exp %a : f32
// CHECK-NEXT: %n = arith.negf %e : f32
// CHECK-NEXT: memref.store %n, %out0[%i] : memref<4xf32>
// CHECK-NEXT: [[T:%[a-z0-9_]+]] = math.tanh %e : f32
// CHECK-NEXT: memref.store [[T]], %out1[%i] : memref<4xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: func.return
func.func @two_readers(%x: memref<4xf32>, %out0: memref<4xf32>, %out1: memref<4xf32>) attributes {strati.outputs = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<4xf32>
    %e = math.exp %a : f32
    memref.store %e, %t[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %t[%i] : memref<4xf32>
    %n = arith.negf %a : f32
    memref.store %n, %out0[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %t[%i] : memref<4xf32>
    %n = math.tanh %a : f32
    memref.store %n, %out1[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %t : memref<4xf32>
  func.return
}

// -----

// The issue's chain: conv2d -> batch_norm -> relu.  simplify-inference folds the batch
// norm into the conv's weights and bias, fuse-ops makes conv and relu one group, and
// fuse-loops makes the group one loop nest: bias, accumulation and relu inside the
// same (n, oc, oh) loops, in the output buffer, with no memref.alloc anywhere.
// PIPE-LABEL: func.func @conv_bn_relu(
// PIPE-SAME: %x: memref<1x2x5x5xf32>, %out: memref<1x3x3x3xf32>)
// PIPE-NOT: memref.alloc
// PIPE: loop.for [[N:%[0-9]+]] = %c0 to %c1 step %c1 {
// PIPE-NEXT: loop.for [[O:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for [[H:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for [[V1:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: [[B:%[0-9]+]] = memref.load %beta[[[O]]] : memref<3xf32>
// PIPE-NEXT: memref.store [[B]], %out[[[N]], [[O]], [[H]], [[V1]]] : memref<1x3x3x3xf32>
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: loop.for [[V2:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for {{.*}} = %c0 to %c2 step %c1 {
// PIPE-NEXT: loop.for
// PIPE-NEXT: loop.for
// PIPE-NEXT: arith.addi
// PIPE-NEXT: arith.addi
// PIPE-NEXT: memref.load %x
// PIPE-NEXT: memref.load %w
// PIPE-NEXT: [[ACC:%[0-9]+]] = memref.load %out[[[N]], [[O]], [[H]], [[V2]]]
// PIPE-NEXT: [[P:%[0-9]+]] = arith.mulf
// PIPE-NEXT: [[S:%[0-9]+]] = arith.addf [[ACC]], [[P]] : f32
// PIPE-NEXT: memref.store [[S]], %out[[[N]], [[O]], [[H]], [[V2]]]
// PIPE-NEXT: }
// PIPE-NEXT: }
// PIPE-NEXT: }
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: loop.for [[V3:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: [[Y:%[0-9]+]] = memref.load %out[[[N]], [[O]], [[H]], [[V3]]]
// PIPE-NEXT: [[Z:%[0-9]+]] = arith.constant 0.000000e+00 : f32
// PIPE-NEXT: [[R:%[0-9]+]] = arith.maximumf [[Y]], [[Z]] : f32
// PIPE-NEXT: memref.store [[R]], %out[[[N]], [[O]], [[H]], [[V3]]]
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: func.return
func.func @conv_bn_relu(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x3x3xf32> {
  %w = graph.constant dense<0.25> : tensor<3x2x3x3xf32>
  %gamma = graph.constant dense<[1.0, 0.5, 2.0]> : tensor<3xf32>
  %beta = graph.constant dense<[0.0, 0.1, -0.1]> : tensor<3xf32>
  %mean = graph.constant dense<[0.1, 0.0, -0.1]> : tensor<3xf32>
  %var = graph.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %n = graph.batch_norm %c, %gamma, %beta, %mean, %var : (tensor<1x3x3x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
  %r = graph.relu %n : tensor<1x3x3x3xf32>
  func.return %r : tensor<1x3x3x3xf32>
}

// -----

// The same without simplify-inference's help: conv2d -> add (bias) -> relu.  The add
// and the relu are one generic after fuse-generics, and that generic's loops join the
// conv's: one nest, no alloc.
// PIPE-LABEL: func.func @conv_add_relu(
// PIPE-NOT: memref.alloc
// PIPE: loop.for [[N:%[0-9]+]] = %c0 to %c1 step %c1 {
// PIPE-NEXT: loop.for [[O:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for [[H:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for
// PIPE-NEXT: memref.store {{.*}}, %out
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: loop.for
// PIPE-NOT: memref.alloc
// PIPE: } {parallel = true}
// PIPE-NEXT: loop.for [[V:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: [[Y:%[0-9]+]] = memref.load %out[[[N]], [[O]], [[H]], [[V]]]
// PIPE-NEXT: [[B:%[0-9]+]] = memref.load %b[[[O]], %c0, %c0]
// PIPE-NEXT: arith.addf [[Y]], [[B]]
// PIPE-NEXT: arith.constant 0.0
// PIPE-NEXT: arith.maximumf
// PIPE-NEXT: memref.store {{.*}}, %out[[[N]], [[O]], [[H]], [[V]]]
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: func.return
func.func @conv_add_relu(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>, %b: tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %a = graph.add %c, %b : (tensor<1x3x3x3xf32>, tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32>
  %r = graph.relu %a : tensor<1x3x3x3xf32>
  func.return %r : tensor<1x3x3x3xf32>
}

// -----

// gemm -> relu (the MLP's layer): zero-fill, matmul and bias + relu in one nest over the rows.
// PIPE-LABEL: func.func @gemm_relu(
// PIPE-NOT: memref.alloc
// PIPE: loop.for [[I:%[0-9]+]] = %c0 to %c4 step %c1 {
// PIPE-NEXT: loop.for
// PIPE-NEXT: memref.store {{.*}}, %out
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: loop.for
// PIPE-NEXT: loop.for
// PIPE: memref.store {{.*}}, %out
// PIPE-NEXT: }
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: loop.for
// PIPE: arith.maximumf
// PIPE-NEXT: memref.store {{.*}}, %out
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: func.return
func.func @gemm_relu(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %h = graph.gemm %x, %w, %b {trans_b = true} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %r = graph.relu %h : tensor<4x16xf32>
  func.return %r : tensor<4x16xf32>
}
