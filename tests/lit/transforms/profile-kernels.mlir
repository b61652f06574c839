// RUN: strati-opt %s --split-input-file -p 'outline-kernels{min_ops=1},profile-kernels' | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'outline-kernels{min_ops=1},profile-kernels' | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'outline-kernels{min_ops=1},profile-kernels' | strati-opt --split-input-file -p profile-kernels | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'outline-kernels{min_ops=1},profile-kernels' --emit=llvm | filecheck %s --check-prefix=LLVM
//
// profile-kernels: a cycle counter around each kernel call and loop nest of a public
// function, and one around its whole body; the module's `strati.profile` names each counter
// by what its op writes (the callee's stores through its arguments, through its own calls).  Running it twice
// changes nothing (a function already counted is left alone).  In LLVM IR a begin reads
// the cycle counter into the counter's start slot, an end adds the difference and a call.
// Numerics and the executable's report: tests/unit/test_profile_kernels.py.

// CHECK: builtin.module attributes {strati.profile = ["@two_layers.kernel0 -> %t: 8xf32", "@two_layers.kernel0 -> %y: 8xf32", "@helper -> %z: 4xf32", "@two_layers (the whole call)"]}
// CHECK-LABEL: func.func @two_layers(
// CHECK-NEXT: loop.profile_begin 3
// CHECK: loop.profile_begin 0
// CHECK-NEXT: func.call @two_layers.kernel0(%x, %t)
// CHECK-NEXT: loop.profile_end 0
// CHECK-NEXT: loop.profile_begin 1
// CHECK-NEXT: func.call @two_layers.kernel0(%t, %y)
// CHECK-NEXT: loop.profile_end 1
// CHECK-NEXT: %c4 = arith.constant 4 : index
// CHECK-NEXT: loop.profile_begin 2
// CHECK-NEXT: func.call @helper(%z, %c4)
// CHECK-NEXT: loop.profile_end 2
// CHECK-NEXT: loop.profile_end 3
// CHECK-NEXT: func.return
// CHECK: func.func private @two_layers.kernel0(
// CHECK-NOT: loop.profile
// CHECK: func.func private @helper(
// CHECK-NOT: loop.profile
// CHECK: }

// LLVM: define void @"two_layers"(
// LLVM: %[[T0:.*]] = call i64 @"llvm.readcyclecounter"()
// LLVM-NEXT: %[[S0:.*]] = getelementptr inbounds i64, ptr @"strati.profile.counters", i64 9
// LLVM-NEXT: store i64 %[[T0]], ptr %[[S0]]
// LLVM: call i64 @"llvm.readcyclecounter"()
// LLVM-NEXT: getelementptr inbounds i64, ptr @"strati.profile.counters", i64 0
// LLVM: call i64 @"llvm.readcyclecounter"()
// LLVM-NEXT: getelementptr inbounds i64, ptr @"strati.profile.counters", i64 0
// LLVM: getelementptr inbounds i64, ptr @"strati.profile.counters", i64 1
// LLVM: getelementptr inbounds i64, ptr @"strati.profile.counters", i64 2
// LLVM: @"strati.profile.counters" = external global [12 x i64]
func.func @two_layers(%x: memref<8xf32>, %t: memref<8xf32>, %y: memref<8xf32>, %z: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  loop.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %r = arith.maximumf %a, %zero : f32
    memref.store %r, %t[%i] : memref<8xf32>
  }
  loop.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %t[%i] : memref<8xf32>
    %r = arith.maximumf %a, %zero : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  %c4 = arith.constant 4 : index
  func.call @helper(%z, %c4) : (memref<4xf32>, index) -> ()
  func.return
}
func.func private @helper(%z: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  loop.for %i = %c0 to %n step %c1 {
    memref.store %one, %z[%i] : memref<4xf32>
  }
  func.return
}
