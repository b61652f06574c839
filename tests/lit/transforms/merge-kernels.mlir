// RUN: strati-opt %s --split-input-file -p merge-kernels | filecheck %s
// RUN: strati-opt %s --split-input-file -p merge-kernels | strati-opt --split-input-file | filecheck %s
//
// merge-kernels: kernels alike but for their index constants and the sizes of the buffers they
// only load from and store to become one kernel, `<first>.family`, parametric in them: an
// index argument per column of differing values (the trip count of %j and the row length of
// %x and %y are one), the buffers of differing sizes flat (memref<?xf32>), their accesses
// linearised.  Each kernel becomes a call of the family with its own values.  Numerics and
// models: tests/unit/test_merge_kernels.py.

// CHECK-LABEL: func.func private @scale.kernel0.family(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>, %p0: index, %p1: index) attributes {strati.kernel} {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: loop.for %i = %c0 to %p0 step %c1 {
// CHECK-NEXT: loop.for %j = %c0 to %p1 step %c1 {
// CHECK-NEXT: %0 = arith.muli %i, %p1 : index
// CHECK-NEXT: %1 = arith.addi %0, %j : index
// CHECK-NEXT: %a = memref.load %x[%1] : memref<?xf32>
// CHECK-NEXT: %b = memref.load %w[%j] : memref<?xf32>
// CHECK-NEXT: %m = arith.mulf %a, %b : f32
// CHECK-NEXT: memref.store %m, %y[%1] : memref<?xf32>
// CHECK: func.func private @scale.kernel0(%x: memref<2x200xf32>, %w: memref<200xf32>, %y: memref<2x200xf32>) {
// CHECK-NEXT: %0 = loop.view %x : memref<2x200xf32> to memref<400xf32>
// CHECK-NEXT: %1 = "memref.cast"(%0) : (memref<400xf32>) -> memref<?xf32>
// CHECK-NEXT: %2 = "memref.cast"(%w) : (memref<200xf32>) -> memref<?xf32>
// CHECK-NEXT: %3 = loop.view %y : memref<2x200xf32> to memref<400xf32>
// CHECK-NEXT: %4 = "memref.cast"(%3) : (memref<400xf32>) -> memref<?xf32>
// CHECK-NEXT: %5 = arith.constant 2 : index
// CHECK-NEXT: %6 = arith.constant 200 : index
// CHECK-NEXT: func.call @scale.kernel0.family(%1, %2, %4, %5, %6) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index) -> ()
// CHECK-NEXT: func.return
// CHECK: func.func private @scale.kernel1(
// CHECK: %5 = arith.constant 2 : index
// CHECK-NEXT: %6 = arith.constant 150 : index
// CHECK-NEXT: func.call @scale.kernel0.family(
// CHECK: func.func private @scale.kernel2(
// CHECK: %5 = arith.constant 3 : index
// CHECK-NEXT: %6 = arith.constant 150 : index
// CHECK-NEXT: func.call @scale.kernel0.family(
// CHECK: func.func @scale(
// CHECK-NEXT: func.call @scale.kernel0(%x0, %w0, %y0)

func.func private @scale.kernel0(%x: memref<2x200xf32>, %w: memref<200xf32>, %y: memref<2x200xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c200 = arith.constant 200 : index
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c200 step %c1 {
      %a = memref.load %x[%i, %j] : memref<2x200xf32>
      %b = memref.load %w[%j] : memref<200xf32>
      %m = arith.mulf %a, %b : f32
      memref.store %m, %y[%i, %j] : memref<2x200xf32>
    }
  }
  func.return
}
func.func private @scale.kernel1(%x: memref<2x150xf32>, %w: memref<150xf32>, %y: memref<2x150xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c150 = arith.constant 150 : index
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c150 step %c1 {
      %a = memref.load %x[%i, %j] : memref<2x150xf32>
      %b = memref.load %w[%j] : memref<150xf32>
      %m = arith.mulf %a, %b : f32
      memref.store %m, %y[%i, %j] : memref<2x150xf32>
    }
  }
  func.return
}
func.func private @scale.kernel2(%x: memref<3x150xf32>, %w: memref<150xf32>, %y: memref<3x150xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c150 = arith.constant 150 : index
  loop.for %i = %c0 to %c3 step %c1 {
    loop.for %j = %c0 to %c150 step %c1 {
      %a = memref.load %x[%i, %j] : memref<3x150xf32>
      %b = memref.load %w[%j] : memref<150xf32>
      %m = arith.mulf %a, %b : f32
      memref.store %m, %y[%i, %j] : memref<3x150xf32>
    }
  }
  func.return
}
func.func @scale(%x0: memref<2x200xf32>, %w0: memref<200xf32>, %y0: memref<2x200xf32>, %x1: memref<2x150xf32>, %w1: memref<150xf32>, %y1: memref<2x150xf32>, %x2: memref<3x150xf32>, %y2: memref<3x150xf32>) {
  func.call @scale.kernel0(%x0, %w0, %y0) : (memref<2x200xf32>, memref<200xf32>, memref<2x200xf32>) -> ()
  func.call @scale.kernel1(%x1, %w1, %y1) : (memref<2x150xf32>, memref<150xf32>, memref<2x150xf32>) -> ()
  func.call @scale.kernel2(%x2, %w1, %y2) : (memref<3x150xf32>, memref<150xf32>, memref<3x150xf32>) -> ()
  func.return
}

// -----

// A buffer of the same size in every kernel keeps its type; a trip count the same everywhere
// stays a constant.  Kernels that differ in a float constant, or in a buffer they view
// (not only load and store), do not merge.
// CHECK-LABEL: func.func private @same.kernel0.family(%x: memref<?xf32>, %w: memref<64xf32>, %p0: index) attributes {strati.kernel} {
// CHECK: %c64 = arith.constant 64 : index
// CHECK: loop.for %i = %c0 to %p0 step %c1 {
// CHECK: loop.for %j = %c0 to %c64 step %c1 {
// CHECK: memref.load %w[%j] : memref<64xf32>
// CHECK: func.func private @same.kernel0(%x: memref<3x64xf32>, %w: memref<64xf32>) {
// CHECK-NEXT: %0 = loop.view %x : memref<3x64xf32> to memref<192xf32>
// CHECK-NEXT: %1 = "memref.cast"(%0) : (memref<192xf32>) -> memref<?xf32>
// CHECK-NEXT: %2 = arith.constant 3 : index
// CHECK-NEXT: func.call @same.kernel0.family(%1, %w, %2) : (memref<?xf32>, memref<64xf32>, index) -> ()
// CHECK: func.func private @same.kernel1(%x: memref<5x64xf32>, %w: memref<64xf32>) {
// CHECK: func.call @same.kernel0.family(
// CHECK: func.func private @same.kernel2(%x: memref<5x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK: func.func private @same.kernel3(%x: memref<3x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
// CHECK: loop.view %x
// CHECK: func.func private @same.kernel4(%x: memref<5x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
// CHECK: loop.view %x
// CHECK-NOT: .family
func.func private @same.kernel0(%x: memref<3x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  loop.for %i = %c0 to %c3 step %c1 {
    loop.for %j = %c0 to %c64 step %c1 {
      %a = memref.load %x[%i, %j] : memref<3x64xf32>
      %b = memref.load %w[%j] : memref<64xf32>
      %m = arith.mulf %a, %b : f32
      %n = arith.mulf %m, %two : f32
      memref.store %n, %x[%i, %j] : memref<3x64xf32>
    }
  }
  func.return
}
func.func private @same.kernel1(%x: memref<5x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  loop.for %i = %c0 to %c5 step %c1 {
    loop.for %j = %c0 to %c64 step %c1 {
      %a = memref.load %x[%i, %j] : memref<5x64xf32>
      %b = memref.load %w[%j] : memref<64xf32>
      %m = arith.mulf %a, %b : f32
      %n = arith.mulf %m, %two : f32
      memref.store %n, %x[%i, %j] : memref<5x64xf32>
    }
  }
  func.return
}
func.func private @same.kernel2(%x: memref<5x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %three = arith.constant 3.0 : f32
  loop.for %i = %c0 to %c5 step %c1 {
    loop.for %j = %c0 to %c64 step %c1 {
      %a = memref.load %x[%i, %j] : memref<5x64xf32>
      %b = memref.load %w[%j] : memref<64xf32>
      %m = arith.mulf %a, %b : f32
      %n = arith.mulf %m, %three : f32
      memref.store %n, %x[%i, %j] : memref<5x64xf32>
    }
  }
  func.return
}
func.func private @same.kernel3(%x: memref<3x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c192 = arith.constant 192 : index
  %v = loop.view %x : memref<3x64xf32> to memref<192xf32>
  loop.for %i = %c0 to %c192 step %c1 {
    %a = memref.load %v[%i] : memref<192xf32>
    memref.store %a, %v[%i] : memref<192xf32>
  }
  func.return
}
func.func private @same.kernel4(%x: memref<5x64xf32>, %w: memref<64xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c320 = arith.constant 320 : index
  %v = loop.view %x : memref<5x64xf32> to memref<320xf32>
  loop.for %i = %c0 to %c320 step %c1 {
    %a = memref.load %v[%i] : memref<320xf32>
    memref.store %a, %v[%i] : memref<320xf32>
  }
  func.return
}

// -----

// A loop LLVM unrolls fully (its trip count times its ops at most 300: a window of taps)
// keeps its constant bound: kernels that differ in it do not merge; those alike in it do.
// CHECK-LABEL: func.func private @window.kernel0.family(%x: memref<?xf32>, %y: memref<?xf32>, %p0: index) attributes {strati.kernel} {
// CHECK: loop.for %i = %c0 to %p0 step %c1 {
// CHECK: loop.for %k = %c0 to %c3 step %c1 {
// CHECK: func.func private @window.kernel0(
// CHECK: func.call @window.kernel0.family(
// CHECK: func.func private @window.kernel1(
// CHECK: func.call @window.kernel0.family(
// CHECK: func.func private @window.kernel2(%x: memref<505xf32>, %y: memref<500xf32>) attributes {strati.kernel} {
// CHECK: loop.for %k = %c0 to %c5 step %c1 {
func.func private @window.kernel0(%x: memref<402xf32>, %y: memref<400xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c400 = arith.constant 400 : index
  loop.for %i = %c0 to %c400 step %c1 {
    loop.for %k = %c0 to %c3 step %c1 {
      %t = arith.addi %i, %k : index
      %a = memref.load %x[%t] : memref<402xf32>
      %b = memref.load %y[%i] : memref<400xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %y[%i] : memref<400xf32>
    }
  }
  func.return
}
func.func private @window.kernel1(%x: memref<502xf32>, %y: memref<500xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c500 = arith.constant 500 : index
  loop.for %i = %c0 to %c500 step %c1 {
    loop.for %k = %c0 to %c3 step %c1 {
      %t = arith.addi %i, %k : index
      %a = memref.load %x[%t] : memref<502xf32>
      %b = memref.load %y[%i] : memref<500xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %y[%i] : memref<500xf32>
    }
  }
  func.return
}
func.func private @window.kernel2(%x: memref<505xf32>, %y: memref<500xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c500 = arith.constant 500 : index
  loop.for %i = %c0 to %c500 step %c1 {
    loop.for %k = %c0 to %c5 step %c1 {
      %t = arith.addi %i, %k : index
      %a = memref.load %x[%t] : memref<505xf32>
      %b = memref.load %y[%i] : memref<500xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %y[%i] : memref<500xf32>
    }
  }
  func.return
}

// -----

// Functions that are not kernels do not merge (a kernel whose access surely leaves its buffer
// does not either: tests/unit/test_merge_kernels.py, as the verifier rejects such input here).
// CHECK-LABEL: func.func private @helper0(%x: memref<4xf32>) {
// CHECK: func.func private @helper1(%x: memref<6xf32>) {
// CHECK-NOT: .family
func.func private @helper0(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  loop.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<4xf32>
    memref.store %a, %x[%i] : memref<4xf32>
  }
  func.return
}
func.func private @helper1(%x: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  loop.for %i = %c0 to %c6 step %c1 {
    %a = memref.load %x[%i] : memref<6xf32>
    memref.store %a, %x[%i] : memref<6xf32>
  }
  func.return
}

// -----

// With a target description (after convert-loop-to-hw's schedules) a `schedule.*` attribute
// is a record: kernels that differ in one merge, and the family keeps it only where they agree.
// CHECK-LABEL: func.func private @records.kernel0.family(%x: memref<?xf32>, %p0: index) attributes {strati.kernel} {
// CHECK: loop.for %i = %c0 to %p0 step %c1 {
// CHECK-NEXT: memref.load
// CHECK: } {schedule.same = 2}
// CHECK: func.func private @records.kernel0(
// CHECK: func.func private @records.kernel1(
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 33554432>} {
  func.func private @records.kernel0(%x: memref<400xf32>) attributes {strati.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c400 = arith.constant 400 : index
    loop.for %i = %c0 to %c400 step %c1 {
      %a = memref.load %x[%i] : memref<400xf32>
      %s = arith.addf %a, %a : f32
      memref.store %s, %x[%i] : memref<400xf32>
    } {schedule.same = 2 : i64, schedule.chunk = 8 : i64}
    func.return
  }
  func.func private @records.kernel1(%x: memref<500xf32>) attributes {strati.kernel} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c500 = arith.constant 500 : index
    loop.for %i = %c0 to %c500 step %c1 {
      %a = memref.load %x[%i] : memref<500xf32>
      %s = arith.addf %a, %a : f32
      memref.store %s, %x[%i] : memref<500xf32>
    } {schedule.same = 2 : i64, schedule.chunk = 9 : i64}
    func.return
  }
}

// -----

// Without one, the schedules are still to be applied: kernels of other knobs stay apart.
// CHECK-LABEL: func.func private @knobs.kernel0(%x: memref<400xf32>) attributes {strati.kernel} {
// CHECK: func.func private @knobs.kernel1(%x: memref<500xf32>) attributes {strati.kernel} {
// CHECK-NOT: .family
func.func private @knobs.kernel0(%x: memref<400xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c400 = arith.constant 400 : index
  loop.for %i = %c0 to %c400 step %c1 {
    %a = memref.load %x[%i] : memref<400xf32>
    %s = arith.addf %a, %a : f32
    memref.store %s, %x[%i] : memref<400xf32>
  } {schedule.chunk = 8 : i64}
  func.return
}
func.func private @knobs.kernel1(%x: memref<500xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c500 = arith.constant 500 : index
  loop.for %i = %c0 to %c500 step %c1 {
    %a = memref.load %x[%i] : memref<500xf32>
    %s = arith.addf %a, %a : f32
    memref.store %s, %x[%i] : memref<500xf32>
  } {schedule.chunk = 9 : i64}
  func.return
}
