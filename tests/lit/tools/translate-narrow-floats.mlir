// strati-translate --to llvm-ir with bf16 and float8 buffers: a bf16 element is an i16 in memory,
// widened to float by a shift (its bits are float32's top half) and rounded to nearest even on the
// way back (add 0x7fff plus the lowest kept bit, NaN kept quiet with 0x40); a float8 element is an
// i8, decoded through a 256-entry float table and encoded by bit arithmetic (roundeven below the
// smallest normal, the rebiased rounded bits above, overflow and NaN codes selected).
// RUN: strati-translate %s --to llvm-ir | filecheck %s
// CHECK-LABEL: define void @"f"(
// CHECK: [[H:%.*]] = load i16, ptr
// CHECK-NEXT: [[W:%.*]] = zext i16 [[H]] to i32
// CHECK-NEXT: [[S:%.*]] = shl i32 [[W]], 16
// CHECK-NEXT: [[X:%.*]] = bitcast i32 [[S]] to float
// CHECK: add i32 %{{.*}}, 32767
// CHECK: fcmp uno float
// CHECK: or i32 %{{.*}}, 64
// CHECK: store i16
// CHECK: getelementptr inbounds [256 x float], {{.*}}@"strati.f8e4m3fn.values", i64 0
// CHECK: call float @"llvm.roundeven.f32"
// CHECK: store i8
// CHECK: @"strati.f8e4m3fn.values" = internal constant [256 x float]
func.func @f(%a: memref<7xbf16>, %b: memref<7xf8E4M3FN>, %out: memref<7xbf16>, %out2: memref<7xf8E4M3FN>) attributes {strati.outputs = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  loop.for %i = %c0 to %c7 step %c1 {
    %x = memref.load %a[%i] : memref<7xbf16>
    %y = arith.addf %x, %x : bf16
    memref.store %y, %out[%i] : memref<7xbf16>
    %p = memref.load %b[%i] : memref<7xf8E4M3FN>
    %q = arith.mulf %p, %p : f8E4M3FN
    memref.store %q, %out2[%i] : memref<7xf8E4M3FN>
  }
  func.return
}
