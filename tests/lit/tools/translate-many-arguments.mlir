// RUN: strati-translate %s --to llvm-ir | filecheck %s
//
// A public function of more than 64 arguments (strati.codegen.llvm.TABLE_ENTRY_ARGUMENTS): its entry wrapper holds its body, each argument
// loaded from the table just before the first op that uses it (no call of all of them: LLVM's
// instruction selection of such a call is quadratic in its arguments); the function itself
// stays, internal, for calls from the module.  A scalar argument is loaded through its slot's
// pointer, the scalar result stored to the slot after the arguments.  Numerics:
// tests/unit/test_compile_scaling.py.

// CHECK: define internal float @"many"(
// CHECK: define void @"many_entry"(ptr %"args")
// CHECK-NOT: call
// CHECK: getelementptr inbounds ptr, ptr %"args", i64 0
// CHECK-NEXT: %"a0" = load ptr, ptr
// CHECK-NEXT: getelementptr inbounds float, ptr %"a0", i64 0
// CHECK-NEXT: %"v0" = load float
// CHECK-NEXT: getelementptr inbounds ptr, ptr %"args", i64 66
// CHECK-NEXT: %"out" = load ptr, ptr
// CHECK-NOT: %"out" = load
// CHECK: %"a1" = load ptr, ptr
// CHECK: %"a64" = load ptr, ptr
// CHECK: getelementptr inbounds ptr, ptr %"args", i64 65
// CHECK-NEXT: %"s" = load ptr, ptr
// CHECK-NEXT: load float, ptr %"s"
// CHECK: getelementptr inbounds ptr, ptr %"args", i64 67
// CHECK-NEXT: load ptr, ptr
// CHECK-NEXT: store float %"d"
// CHECK-NEXT: ret void
// CHECK-NOT: call

func.func @many(%a0: memref<1xf32>, %a1: memref<1xf32>, %a2: memref<1xf32>, %a3: memref<1xf32>, %a4: memref<1xf32>, %a5: memref<1xf32>, %a6: memref<1xf32>, %a7: memref<1xf32>, %a8: memref<1xf32>, %a9: memref<1xf32>, %a10: memref<1xf32>, %a11: memref<1xf32>, %a12: memref<1xf32>, %a13: memref<1xf32>, %a14: memref<1xf32>, %a15: memref<1xf32>, %a16: memref<1xf32>, %a17: memref<1xf32>, %a18: memref<1xf32>, %a19: memref<1xf32>, %a20: memref<1xf32>, %a21: memref<1xf32>, %a22: memref<1xf32>, %a23: memref<1xf32>, %a24: memref<1xf32>, %a25: memref<1xf32>, %a26: memref<1xf32>, %a27: memref<1xf32>, %a28: memref<1xf32>, %a29: memref<1xf32>, %a30: memref<1xf32>, %a31: memref<1xf32>, %a32: memref<1xf32>, %a33: memref<1xf32>, %a34: memref<1xf32>, %a35: memref<1xf32>, %a36: memref<1xf32>, %a37: memref<1xf32>, %a38: memref<1xf32>, %a39: memref<1xf32>, %a40: memref<1xf32>, %a41: memref<1xf32>, %a42: memref<1xf32>, %a43: memref<1xf32>, %a44: memref<1xf32>, %a45: memref<1xf32>, %a46: memref<1xf32>, %a47: memref<1xf32>, %a48: memref<1xf32>, %a49: memref<1xf32>, %a50: memref<1xf32>, %a51: memref<1xf32>, %a52: memref<1xf32>, %a53: memref<1xf32>, %a54: memref<1xf32>, %a55: memref<1xf32>, %a56: memref<1xf32>, %a57: memref<1xf32>, %a58: memref<1xf32>, %a59: memref<1xf32>, %a60: memref<1xf32>, %a61: memref<1xf32>, %a62: memref<1xf32>, %a63: memref<1xf32>, %a64: memref<1xf32>, %s: f32, %out: memref<65xf32>) -> f32 attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c2_ = arith.constant 1 : index
  %c3_ = arith.constant 2 : index
  %c4_ = arith.constant 3 : index
  %c5_ = arith.constant 4 : index
  %c6_ = arith.constant 5 : index
  %c7_ = arith.constant 6 : index
  %c8_ = arith.constant 7 : index
  %c9_ = arith.constant 8 : index
  %c10_ = arith.constant 9 : index
  %c11_ = arith.constant 10 : index
  %c12_ = arith.constant 11 : index
  %c13_ = arith.constant 12 : index
  %c14_ = arith.constant 13 : index
  %c15_ = arith.constant 14 : index
  %c16_ = arith.constant 15 : index
  %c17_ = arith.constant 16 : index
  %c18_ = arith.constant 17 : index
  %c19_ = arith.constant 18 : index
  %c20_ = arith.constant 19 : index
  %c21_ = arith.constant 20 : index
  %c22_ = arith.constant 21 : index
  %c23_ = arith.constant 22 : index
  %c24_ = arith.constant 23 : index
  %c25_ = arith.constant 24 : index
  %c26_ = arith.constant 25 : index
  %c27_ = arith.constant 26 : index
  %c28_ = arith.constant 27 : index
  %c29_ = arith.constant 28 : index
  %c30_ = arith.constant 29 : index
  %c31_ = arith.constant 30 : index
  %c32_ = arith.constant 31 : index
  %c33_ = arith.constant 32 : index
  %c34_ = arith.constant 33 : index
  %c35_ = arith.constant 34 : index
  %c36_ = arith.constant 35 : index
  %c37_ = arith.constant 36 : index
  %c38_ = arith.constant 37 : index
  %c39_ = arith.constant 38 : index
  %c40_ = arith.constant 39 : index
  %c41_ = arith.constant 40 : index
  %c42_ = arith.constant 41 : index
  %c43_ = arith.constant 42 : index
  %c44_ = arith.constant 43 : index
  %c45_ = arith.constant 44 : index
  %c46_ = arith.constant 45 : index
  %c47_ = arith.constant 46 : index
  %c48_ = arith.constant 47 : index
  %c49_ = arith.constant 48 : index
  %c50_ = arith.constant 49 : index
  %c51_ = arith.constant 50 : index
  %c52_ = arith.constant 51 : index
  %c53_ = arith.constant 52 : index
  %c54_ = arith.constant 53 : index
  %c55_ = arith.constant 54 : index
  %c56_ = arith.constant 55 : index
  %c57_ = arith.constant 56 : index
  %c58_ = arith.constant 57 : index
  %c59_ = arith.constant 58 : index
  %c60_ = arith.constant 59 : index
  %c61_ = arith.constant 60 : index
  %c62_ = arith.constant 61 : index
  %c63_ = arith.constant 62 : index
  %c64_ = arith.constant 63 : index
  %c65_ = arith.constant 64 : index
  %v0 = memref.load %a0[%c0] : memref<1xf32>
  memref.store %v0, %out[%c0] : memref<65xf32>
  %v1 = memref.load %a1[%c0] : memref<1xf32>
  memref.store %v1, %out[%c2_] : memref<65xf32>
  %v2 = memref.load %a2[%c0] : memref<1xf32>
  memref.store %v2, %out[%c3_] : memref<65xf32>
  %v3 = memref.load %a3[%c0] : memref<1xf32>
  memref.store %v3, %out[%c4_] : memref<65xf32>
  %v4 = memref.load %a4[%c0] : memref<1xf32>
  memref.store %v4, %out[%c5_] : memref<65xf32>
  %v5 = memref.load %a5[%c0] : memref<1xf32>
  memref.store %v5, %out[%c6_] : memref<65xf32>
  %v6 = memref.load %a6[%c0] : memref<1xf32>
  memref.store %v6, %out[%c7_] : memref<65xf32>
  %v7 = memref.load %a7[%c0] : memref<1xf32>
  memref.store %v7, %out[%c8_] : memref<65xf32>
  %v8 = memref.load %a8[%c0] : memref<1xf32>
  memref.store %v8, %out[%c9_] : memref<65xf32>
  %v9 = memref.load %a9[%c0] : memref<1xf32>
  memref.store %v9, %out[%c10_] : memref<65xf32>
  %v10 = memref.load %a10[%c0] : memref<1xf32>
  memref.store %v10, %out[%c11_] : memref<65xf32>
  %v11 = memref.load %a11[%c0] : memref<1xf32>
  memref.store %v11, %out[%c12_] : memref<65xf32>
  %v12 = memref.load %a12[%c0] : memref<1xf32>
  memref.store %v12, %out[%c13_] : memref<65xf32>
  %v13 = memref.load %a13[%c0] : memref<1xf32>
  memref.store %v13, %out[%c14_] : memref<65xf32>
  %v14 = memref.load %a14[%c0] : memref<1xf32>
  memref.store %v14, %out[%c15_] : memref<65xf32>
  %v15 = memref.load %a15[%c0] : memref<1xf32>
  memref.store %v15, %out[%c16_] : memref<65xf32>
  %v16 = memref.load %a16[%c0] : memref<1xf32>
  memref.store %v16, %out[%c17_] : memref<65xf32>
  %v17 = memref.load %a17[%c0] : memref<1xf32>
  memref.store %v17, %out[%c18_] : memref<65xf32>
  %v18 = memref.load %a18[%c0] : memref<1xf32>
  memref.store %v18, %out[%c19_] : memref<65xf32>
  %v19 = memref.load %a19[%c0] : memref<1xf32>
  memref.store %v19, %out[%c20_] : memref<65xf32>
  %v20 = memref.load %a20[%c0] : memref<1xf32>
  memref.store %v20, %out[%c21_] : memref<65xf32>
  %v21 = memref.load %a21[%c0] : memref<1xf32>
  memref.store %v21, %out[%c22_] : memref<65xf32>
  %v22 = memref.load %a22[%c0] : memref<1xf32>
  memref.store %v22, %out[%c23_] : memref<65xf32>
  %v23 = memref.load %a23[%c0] : memref<1xf32>
  memref.store %v23, %out[%c24_] : memref<65xf32>
  %v24 = memref.load %a24[%c0] : memref<1xf32>
  memref.store %v24, %out[%c25_] : memref<65xf32>
  %v25 = memref.load %a25[%c0] : memref<1xf32>
  memref.store %v25, %out[%c26_] : memref<65xf32>
  %v26 = memref.load %a26[%c0] : memref<1xf32>
  memref.store %v26, %out[%c27_] : memref<65xf32>
  %v27 = memref.load %a27[%c0] : memref<1xf32>
  memref.store %v27, %out[%c28_] : memref<65xf32>
  %v28 = memref.load %a28[%c0] : memref<1xf32>
  memref.store %v28, %out[%c29_] : memref<65xf32>
  %v29 = memref.load %a29[%c0] : memref<1xf32>
  memref.store %v29, %out[%c30_] : memref<65xf32>
  %v30 = memref.load %a30[%c0] : memref<1xf32>
  memref.store %v30, %out[%c31_] : memref<65xf32>
  %v31 = memref.load %a31[%c0] : memref<1xf32>
  memref.store %v31, %out[%c32_] : memref<65xf32>
  %v32 = memref.load %a32[%c0] : memref<1xf32>
  memref.store %v32, %out[%c33_] : memref<65xf32>
  %v33 = memref.load %a33[%c0] : memref<1xf32>
  memref.store %v33, %out[%c34_] : memref<65xf32>
  %v34 = memref.load %a34[%c0] : memref<1xf32>
  memref.store %v34, %out[%c35_] : memref<65xf32>
  %v35 = memref.load %a35[%c0] : memref<1xf32>
  memref.store %v35, %out[%c36_] : memref<65xf32>
  %v36 = memref.load %a36[%c0] : memref<1xf32>
  memref.store %v36, %out[%c37_] : memref<65xf32>
  %v37 = memref.load %a37[%c0] : memref<1xf32>
  memref.store %v37, %out[%c38_] : memref<65xf32>
  %v38 = memref.load %a38[%c0] : memref<1xf32>
  memref.store %v38, %out[%c39_] : memref<65xf32>
  %v39 = memref.load %a39[%c0] : memref<1xf32>
  memref.store %v39, %out[%c40_] : memref<65xf32>
  %v40 = memref.load %a40[%c0] : memref<1xf32>
  memref.store %v40, %out[%c41_] : memref<65xf32>
  %v41 = memref.load %a41[%c0] : memref<1xf32>
  memref.store %v41, %out[%c42_] : memref<65xf32>
  %v42 = memref.load %a42[%c0] : memref<1xf32>
  memref.store %v42, %out[%c43_] : memref<65xf32>
  %v43 = memref.load %a43[%c0] : memref<1xf32>
  memref.store %v43, %out[%c44_] : memref<65xf32>
  %v44 = memref.load %a44[%c0] : memref<1xf32>
  memref.store %v44, %out[%c45_] : memref<65xf32>
  %v45 = memref.load %a45[%c0] : memref<1xf32>
  memref.store %v45, %out[%c46_] : memref<65xf32>
  %v46 = memref.load %a46[%c0] : memref<1xf32>
  memref.store %v46, %out[%c47_] : memref<65xf32>
  %v47 = memref.load %a47[%c0] : memref<1xf32>
  memref.store %v47, %out[%c48_] : memref<65xf32>
  %v48 = memref.load %a48[%c0] : memref<1xf32>
  memref.store %v48, %out[%c49_] : memref<65xf32>
  %v49 = memref.load %a49[%c0] : memref<1xf32>
  memref.store %v49, %out[%c50_] : memref<65xf32>
  %v50 = memref.load %a50[%c0] : memref<1xf32>
  memref.store %v50, %out[%c51_] : memref<65xf32>
  %v51 = memref.load %a51[%c0] : memref<1xf32>
  memref.store %v51, %out[%c52_] : memref<65xf32>
  %v52 = memref.load %a52[%c0] : memref<1xf32>
  memref.store %v52, %out[%c53_] : memref<65xf32>
  %v53 = memref.load %a53[%c0] : memref<1xf32>
  memref.store %v53, %out[%c54_] : memref<65xf32>
  %v54 = memref.load %a54[%c0] : memref<1xf32>
  memref.store %v54, %out[%c55_] : memref<65xf32>
  %v55 = memref.load %a55[%c0] : memref<1xf32>
  memref.store %v55, %out[%c56_] : memref<65xf32>
  %v56 = memref.load %a56[%c0] : memref<1xf32>
  memref.store %v56, %out[%c57_] : memref<65xf32>
  %v57 = memref.load %a57[%c0] : memref<1xf32>
  memref.store %v57, %out[%c58_] : memref<65xf32>
  %v58 = memref.load %a58[%c0] : memref<1xf32>
  memref.store %v58, %out[%c59_] : memref<65xf32>
  %v59 = memref.load %a59[%c0] : memref<1xf32>
  memref.store %v59, %out[%c60_] : memref<65xf32>
  %v60 = memref.load %a60[%c0] : memref<1xf32>
  memref.store %v60, %out[%c61_] : memref<65xf32>
  %v61 = memref.load %a61[%c0] : memref<1xf32>
  memref.store %v61, %out[%c62_] : memref<65xf32>
  %v62 = memref.load %a62[%c0] : memref<1xf32>
  memref.store %v62, %out[%c63_] : memref<65xf32>
  %v63 = memref.load %a63[%c0] : memref<1xf32>
  memref.store %v63, %out[%c64_] : memref<65xf32>
  %v64 = memref.load %a64[%c0] : memref<1xf32>
  memref.store %v64, %out[%c65_] : memref<65xf32>
  %d = arith.addf %s, %s : f32
  func.return %d : f32
}
