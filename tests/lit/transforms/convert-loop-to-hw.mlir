// RUN: strati-opt %s --split-input-file -p convert-loop-to-hw | filecheck %s
// RUN: strati-opt %s --split-input-file -p convert-loop-to-hw | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p convert-loop-to-hw --print-op-generic | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'convert-loop-to-hw{pipeline="cpu-parallelize{threshold=1}"}' | filecheck %s --check-prefix=OPTS
// RUN: strati-opt %s --split-input-file -p 'cpu-parallelize{threshold=1}' | filecheck %s --check-prefix=OPTS
// RUN: not strati-opt %s --split-input-file -p 'convert-loop-to-hw{target=tpu}' 2>&1 | filecheck %s --check-prefix=BADTARGET
// RUN: strati-opt %examples/mlp.mlir --emit=hw | filecheck %s --check-prefix=EMIT
// RUN: strati-opt %examples/mlp.mlir --emit=hw | not strati-opt --emit=loop 2>&1 | filecheck %s --check-prefix=BELOW
//
// Each module carries a fixed AVX2-like description (8 f32 lanes, FMA, 2 cores): the pass
// reads it instead of detecting the host, so the output does not depend on the machine.
// The last module has none: the host's ("cpu") is attached.  The same functions run
// numerically in tests/unit/test_hw_cpu.py.

// BADTARGET: error: convert-loop-to-hw: unknown target 'tpu' (targets: cpu)
//
// The driver runs a pipeline of separate passes (the target's, or its 'pipeline' option's):
// the fourth and fifth RUN lines give the same output (the OPTS prefix: only
// parallelisation, at any size).

// The standard pipeline stops at level 4 with --emit=hw: the host's description, vector code.
// EMIT: builtin.module attributes {hw.target = #hw.target<"cpu", vector_width =
// EMIT: func.func @mlp(%x: memref<4x64xf32>
// EMIT: vector.load
// EMIT: func.return
// BELOW: error: the module is at the hw level, below --emit=loop

// An elementwise loop: a vector loop over the first 96 elements, 8 lanes at a time, and a
// scalar remainder for the last 3.  The invariant scalar is broadcast once, before the loop.
// Too little work for a task: no cpu.parallel.
// CHECK-LABEL: func.func @axpb(
// CHECK-DAG: [[C96:%[a-z0-9_]+]] = arith.constant 96 : index
// CHECK-DAG: [[C8:%[a-z0-9_]+]] = arith.constant 8 : index
// CHECK: [[TWO:%[a-z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: [[TWOV:%[a-z0-9_]+]] = vector.broadcast [[TWO]] : f32 to vector<8xf32>
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] = %c0 to [[C96]] step [[C8]] {
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = vector.load %x[[[I]]] : memref<99xf32>, vector<8xf32>
// CHECK-NEXT: [[M:%[a-z0-9_]+]] = arith.mulf [[V]], [[TWOV]] : vector<8xf32>
// CHECK-NEXT: [[E:%[a-z0-9_]+]] = math.exp [[M]] : vector<8xf32>
// CHECK-NEXT: vector.store [[E]], %out[[[I]]] : memref<99xf32>, vector<8xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for [[R:%[a-z0-9_]+]] = [[C96]] to %c99 step %c1 {
// CHECK-NEXT: [[SV:%[a-z0-9_]+]] = memref.load %x[[[R]]] : memref<99xf32>
// CHECK-NEXT: [[SM:%[a-z0-9_]+]] = arith.mulf [[SV]], [[TWO]] : f32
// CHECK-NEXT: [[SE:%[a-z0-9_]+]] = math.exp [[SM]] : f32
// CHECK-NEXT: memref.store [[SE]], %out[[[R]]] : memref<99xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: func.return
// CHECK-NOT: cpu.parallel
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @axpb(%x: memref<99xf32>, %out: memref<99xf32>) attributes {strati.outputs = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c99 = arith.constant 99 : index
    %two = arith.constant 2.0 : f32
    loop.for %i = %c0 to %c99 step %c1 {
      %v = memref.load %x[%i] : memref<99xf32>
      %m = arith.mulf %v, %two : f32
      %e = math.exp %m : f32
      memref.store %e, %out[%i] : memref<99xf32>
    } {parallel = true}
    func.return
  }
}

// -----

// A remainder of 4 (100 = 96 + 4) gets a vector loop of 4 lanes: nothing scalar is left.
// CHECK-LABEL: func.func @remainder_vectors(
// CHECK: loop.for [[I:%[a-z0-9_]+]] = %c0 to %c96 step %c8 {
// CHECK-NEXT: vector.load %x[[[I]]] : memref<100xf32>, vector<8xf32>
// CHECK: loop.for [[J:%[a-z0-9_]+]] = %c96 to %c100 step %c4 {
// CHECK-NEXT: vector.load %x[[[J]]] : memref<100xf32>, vector<4xf32>
// CHECK-NOT: memref.load
// CHECK: func.return
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @remainder_vectors(%x: memref<100xf32>, %out: memref<100xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    loop.for %i = %c0 to %c100 step %c1 {
      %v = memref.load %x[%i] : memref<100xf32>
      %n = arith.negf %v : f32
      memref.store %n, %out[%i] : memref<100xf32>
    }
    func.return
  }
}

// -----

// A trip count that is a multiple of the width: no remainder.  A constant defined in the
// body is broadcast in the body; the row of %b is loaded contiguously (a broadcast operand
// of the tensor level), %x along its last dimension.
// CHECK: hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>
// CHECK-LABEL: func.func @bias_relu(
// CHECK: loop.for [[I:%[a-z0-9_]+]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = %c0 to %c64 step [[C8:%[a-z0-9_]+]] {
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = vector.load %x[[[I]], [[J]]] : memref<4x64xf32>, vector<8xf32>
// CHECK-NEXT: [[C:%[a-z0-9_]+]] = vector.load %b[[[J]]] : memref<64xf32>, vector<8xf32>
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.addf [[A]], [[C]] : vector<8xf32>
// CHECK-NEXT: [[Z:%[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: [[ZV:%[a-z0-9_]+]] = vector.broadcast [[Z]] : f32 to vector<8xf32>
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = arith.maximumf [[S]], [[ZV]] : vector<8xf32>
// CHECK-NEXT: vector.store [[R]], %out[[[I]], [[J]]] : memref<4x64xf32>, vector<8xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: func.return
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @bias_relu(%x: memref<4x64xf32>, %b: memref<64xf32>, %out: memref<4x64xf32>) attributes {strati.outputs = 1 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c4 step %c1 {
      loop.for %j = %c0 to %c64 step %c1 {
        %a = memref.load %x[%i, %j] : memref<4x64xf32>
        %c = memref.load %b[%j] : memref<64xf32>
        %s = arith.addf %a, %c : f32
        %z = arith.constant 0.0 : f32
        %r = arith.maximumf %s, %z : f32
        memref.store %r, %out[%i, %j] : memref<4x64xf32>
      } {parallel = true}
    } {parallel = true}
    func.return
  }
}

// -----

// What stays scalar: a strided access (a column), a loop of step 2, a reduction (a store
// to an address that does not depend on the loop: row_sum's j, and i has a strided load),
// a dependence between iterations (x[i] = x[i + 1]), a call.
// CHECK-LABEL: func.func @column(
// CHECK-NOT: vector.
// CHECK: loop.for {{%[a-z0-9_]+}} = %c0 to %c64 step %c1 {
// CHECK-NEXT: memref.load %x[{{%[a-z0-9_]+}}, %c0] : memref<64x64xf32>
// CHECK-LABEL: func.func @step2(
// CHECK-NOT: vector.
// CHECK: loop.for {{%[a-z0-9_]+}} = %c0 to %c64 step %c2 {
// CHECK-LABEL: func.func @row_sum(
// CHECK-NOT: vector.
// CHECK: memref.store {{%[a-z0-9_]+}}, %out[{{%[a-z0-9_]+}}] : memref<4xf32>
// CHECK-LABEL: func.func @shifted(
// CHECK-NOT: vector.
// CHECK: memref.store {{%[a-z0-9_]+}}, %x[{{%[a-z0-9_]+}}] : memref<65xf32>
// CHECK-LABEL: func.func @calls(
// CHECK-NOT: vector.
// CHECK: func.call @g
// CHECK-NOT: vector.
// CHECK: func.func private @g
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @column(%x: memref<64x64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c64 step %c1 {
      %a = memref.load %x[%i, %c0] : memref<64x64xf32>
      memref.store %a, %out[%i] : memref<64xf32>
    }
    func.return
  }
  func.func @step2(%x: memref<64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c64 step %c2 {
      %a = memref.load %x[%i] : memref<64xf32>
      memref.store %a, %out[%i] : memref<64xf32>
    }
    func.return
  }
  func.func @row_sum(%x: memref<4x64xf32>, %out: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c4 step %c1 {
      loop.for %j = %c0 to %c64 step %c1 {
        %a = memref.load %x[%i, %j] : memref<4x64xf32>
        %acc = memref.load %out[%i] : memref<4xf32>
        %s = arith.addf %acc, %a : f32
        memref.store %s, %out[%i] : memref<4xf32>
      }
    } {parallel = true}
    func.return
  }
  func.func @shifted(%x: memref<65xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c64 step %c1 {
      %n = arith.addi %i, %c1 : index
      %a = memref.load %x[%n] : memref<65xf32>
      memref.store %a, %x[%i] : memref<65xf32>
    }
    func.return
  }
  func.func @calls(%x: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c64 step %c1 {
      %a = memref.load %x[%i] : memref<64xf32>
      %s = func.call @g(%a) : (f32) -> f32
      memref.store %s, %x[%i] : memref<64xf32>
    }
    func.return
  }
  func.func private @g(f32) -> f32
}

// -----

// A large parallel loop becomes tasks for the thread pool (1024 x 128 vector steps);
// a tiny one (4 x 1) stays a loop.
// CHECK-LABEL: func.func @big(
// CHECK: cpu.parallel [[I:%[a-z0-9_]+]] = %c0 to %c1024 step %c1 {
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = %c0 to %c1024 step {{%[a-z0-9_]+}} {
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = vector.load %x[[[I]], [[J]]] : memref<1024x1024xf32>, vector<8xf32>
// CHECK-NEXT: [[T:%[a-z0-9_]+]] = math.tanh [[A]] : vector<8xf32>
// CHECK-NEXT: vector.store [[T]], %out[[[I]], [[J]]]
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: }
// CHECK-NEXT: func.return
// CHECK-LABEL: func.func @tiny(
// CHECK-NOT: cpu.parallel
// CHECK: loop.for {{%[a-z0-9_]+}} = %c0 to %c4 step %c1 {
// CHECK-NEXT: loop.for {{%[a-z0-9_]+}} = %c0 to %c8 step %c8 {
// CHECK: } {parallel = true}
// CHECK-NEXT: } {parallel = true}
// OPTS-LABEL: func.func @tiny(
// OPTS: cpu.parallel {{%[a-z0-9_]+}} = %c0 to %c4 step %c1 {
// OPTS-NEXT: loop.for {{%[a-z0-9_]+}} = %c0 to %c8 step %c1 {
// OPTS-NEXT: memref.load
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @big(%x: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    loop.for %i = %c0 to %c1024 step %c1 {
      loop.for %j = %c0 to %c1024 step %c1 {
        %a = memref.load %x[%i, %j] : memref<1024x1024xf32>
        %t = math.tanh %a : f32
        memref.store %t, %out[%i, %j] : memref<1024x1024xf32>
      } {parallel = true}
    } {parallel = true}
    func.return
  }
  func.func @tiny(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    loop.for %i = %c0 to %c4 step %c1 {
      loop.for %j = %c0 to %c8 step %c1 {
        %a = memref.load %x[%i, %j] : memref<4x8xf32>
        %t = math.tanh %a : f32
        memref.store %t, %out[%i, %j] : memref<4x8xf32>
      } {parallel = true}
    } {parallel = true}
    func.return
  }
}

// -----

// Matmul (i, j, k) with the reduction k innermost: j, the stores' last index, is rotated
// innermost (i, k, j); then a[i, k] is a broadcast, b[k, j] and out[i, j] contiguous, and
// the multiply-add a vector.fma (12,288 of them: worth tasks over i).  With b transposed
// (b[j, k]) the rotated loop would read b with a stride: no interchange, and the scalar nest
// becomes tasks too.
// CHECK-LABEL: func.func @matmul(
// CHECK: cpu.parallel [[I:%[a-z0-9_]+]] = %c0 to %c64 step %c1 {
// CHECK-NEXT: loop.for [[K:%[a-z0-9_]+]] = %c0 to %c32 step %c1 {
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = %c0 to %c48 step {{%[a-z0-9_]+}} {
// CHECK-NEXT: [[X:%[a-z0-9_]+]] = memref.load %a[[[I]], [[K]]] : memref<64x32xf32>
// CHECK-NEXT: [[Y:%[a-z0-9_]+]] = vector.load %b[[[K]], [[J]]] : memref<32x48xf32>, vector<8xf32>
// CHECK-NEXT: [[ACC:%[a-z0-9_]+]] = vector.load %out[[[I]], [[J]]] : memref<64x48xf32>, vector<8xf32>
// CHECK-NEXT: [[XV:%[a-z0-9_]+]] = vector.broadcast [[X]] : f32 to vector<8xf32>
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = vector.fma [[XV]], [[Y]], [[ACC]] : vector<8xf32>
// CHECK-NEXT: vector.store [[S]], %out[[[I]], [[J]]] : memref<64x48xf32>, vector<8xf32>
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-LABEL: func.func @matmul_bt(
// CHECK-NOT: vector.
// CHECK: cpu.parallel [[I:%[a-z0-9_]+]] = %c0 to %c64 step %c1 {
// CHECK-NEXT: loop.for [[J:%[a-z0-9_]+]] = %c0 to %c48 step %c1 {
// CHECK-NEXT: loop.for [[K:%[a-z0-9_]+]] = %c0 to %c32 step %c1 {
// CHECK-NEXT: memref.load %a[[[I]], [[K]]]
// CHECK-NEXT: memref.load %b[[[J]], [[K]]]
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %out: memref<64x48xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c64 step %c1 {
      loop.for %j = %c0 to %c48 step %c1 {
        loop.for %k = %c0 to %c32 step %c1 {
          %x = memref.load %a[%i, %k] : memref<64x32xf32>
          %y = memref.load %b[%k, %j] : memref<32x48xf32>
          %acc = memref.load %out[%i, %j] : memref<64x48xf32>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %m : f32
          memref.store %s, %out[%i, %j] : memref<64x48xf32>
        }
      } {parallel = true}
    } {parallel = true}
    func.return
  }
  func.func @matmul_bt(%a: memref<64x32xf32>, %b: memref<48x32xf32>, %out: memref<64x48xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    loop.for %i = %c0 to %c64 step %c1 {
      loop.for %j = %c0 to %c48 step %c1 {
        loop.for %k = %c0 to %c32 step %c1 {
          %x = memref.load %a[%i, %k] : memref<64x32xf32>
          %y = memref.load %b[%j, %k] : memref<48x32xf32>
          %acc = memref.load %out[%i, %j] : memref<64x48xf32>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %m : f32
          memref.store %s, %out[%i, %j] : memref<64x48xf32>
        }
      } {parallel = true}
    } {parallel = true}
    func.return
  }
}

// -----

// f64 has half as many lanes (4 of the 8 f32 lanes); a loop shorter than that (6) still
// gets them.  The vector_width schedule, when set, wins over the target's width.  Bounds
// that are not constants: the vector loop ends at n - (n - lb) mod 8.  In place (x[i] read
// and written at the same address) is vectorised.
// CHECK-LABEL: func.func @short(
// CHECK: loop.for [[I:%[a-z0-9_]+]] = %c0 to %c4 step %c4 {
// CHECK-NEXT: vector.load %x[[[I]]] : memref<6xf64>, vector<4xf64>
// CHECK-NEXT: math.sqrt {{%[a-z0-9_]+}} : vector<4xf64>
// CHECK: loop.for {{%[a-z0-9_]+}} = %c4 to %c6 step %c1 {
// CHECK-NEXT: memref.load %x
// CHECK-LABEL: func.func @scheduled(
// CHECK: loop.for {{%[a-z0-9_]+}} = %c0 to %c32 step %c2 {
// CHECK-NEXT: vector.load %x[{{%[a-z0-9_]+}}] : memref<32xf32>, vector<2xf32>
// CHECK-NOT: loop.for
// CHECK: func.return
// CHECK-LABEL: func.func @dynamic(
// CHECK: [[LEN:%[a-z0-9_]+]] = arith.subi %n, %c0 : index
// CHECK-NEXT: [[REM:%[a-z0-9_]+]] = arith.remsi [[LEN]], [[C8:%[a-z0-9_]+]] : index
// CHECK-NEXT: [[END:%[a-z0-9_]+]] = arith.subi %n, [[REM]] : index
// CHECK-NEXT: loop.for [[I:%[a-z0-9_]+]] = %c0 to [[END]] step [[C8]] {
// CHECK-NEXT: [[A:%[a-z0-9_]+]] = vector.load %x[[[I]]] : memref<64xf32>, vector<8xf32>
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.mulf [[A]], [[A]] : vector<8xf32>
// CHECK-NEXT: vector.store [[S]], %x[[[I]]] : memref<64xf32>, vector<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: loop.for {{%[a-z0-9_]+}} = [[END]] to %n step %c1 {
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @short(%x: memref<6xf64>, %out: memref<6xf64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    loop.for %i = %c0 to %c6 step %c1 {
      %a = memref.load %x[%i] : memref<6xf64>
      %s = math.sqrt %a : f64
      memref.store %s, %out[%i] : memref<6xf64>
    }
    func.return
  }
  func.func @scheduled(%x: memref<32xf32>, %out: memref<32xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    loop.for %i = %c0 to %c32 step %c1 {
      %a = memref.load %x[%i] : memref<32xf32>
      %s = arith.negf %a : f32
      memref.store %s, %out[%i] : memref<32xf32>
    } {vector_width = 2}
    func.return
  }
  func.func @dynamic(%x: memref<64xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    loop.for %i = %c0 to %n step %c1 {
      %a = memref.load %x[%i] : memref<64xf32>
      %s = arith.mulf %a, %a : f32
      memref.store %s, %x[%i] : memref<64xf32>
    }
    func.return
  }
}

// -----

// No description on the module: the registry's "cpu" (this machine) is attached.
// CHECK: builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = {{(4|8|16)}}, fma = {{(true|false)}}, cores = {{[0-9]+}}, l1 = {{[0-9]+}}, l2 = {{[0-9]+}}, l3 = {{[0-9]+}}>}
// CHECK-LABEL: func.func @host(
func.func @host(%x: memref<64xf32>, %out: memref<64xf32>) {
  func.return
}
