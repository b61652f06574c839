// cpu-schedule-matmul with constant weights, and the small-M (GEMV) schedule.
// A constant operand (a get_global of a constant global) is packed at compile time: its packed
// global holds every panel in the order the loops read them, the loads read it, no copy runs.
// AVX-512 (16 lanes, 32 registers): M = 1 takes the small-M schedule, 4 vectors of columns (64).
// RUN: strati-opt %s --split-input-file -p 'cpu-schedule-matmul{min-work=1}' | filecheck %s --check-prefix=AVX512
// AVX2 (8 lanes, 16 registers): 4 vectors of 8 (32 columns) for one row.
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt --split-input-file -p 'cpu-schedule-matmul{min-work=1}' | filecheck %s --check-prefix=AVX2
// The cores split the columns: the column block loop becomes the parallel region.
// RUN: strati-opt %s --split-input-file -p 'cpu-schedule-matmul{min-work=1},cpu-parallelize{threshold=1}' | filecheck %s --check-prefix=PAR
// A tuner's small_m = 0 keeps the large-M schedule (its A is packed at run time, B still at compile time).
// RUN: sed -e 's/parallel = true, test.knobs = 0/parallel = true, schedule.small_m = 0/' %s | strati-opt --split-input-file -p 'cpu-schedule-matmul{min-work=1}' | filecheck %s --check-prefix=LARGE

// W (100x67, read transposed as in ONNX's Gemm with transB) in panels of 67 x 64 columns, the
// last one zero-padded: w_packed[0, jb, k, jj] = w[64 jb + jj, k].
// AVX512: "memref.global"() <{sym_name = "w_packed_{{[0-9a-f]+}}", type = memref<1x2x67x64xf32>, {{.*}}, sym_visibility = "private", constant, alignment = 64 : i64}>
// AVX512-NOT: sym_name = "w"
// AVX512-LABEL: func.func @gemv(
// AVX512-NOT: memref.alloc()
// AVX512: %w_packed = memref.get_global @w_packed_{{[0-9a-f]+}} : memref<1x2x67x64xf32>
// AVX512: loop.for %j_nc = %c0 to %c100 step %c64 {
// AVX512: loop.for %k_kc = %c0 to %c67 step %c67 {
// AVX512: loop.for %j_nr = %j_nc to %{{[0-9]+}} step %c64 {
// AVX512-NEXT: %[[B:[0-9]+]] = arith.divui %j_nr, %c64 : index
// AVX512-COUNT-4: memref.alloca() : memref<16xf32>
// AVX512: loop.for %k = %k_kc to
// AVX512-NEXT: memref.load %a
// AVX512-NOT: memref.store
// AVX512-COUNT-4: vector.load %w_packed[%c0, %[[B]], %{{[0-9]+}}, %{{[0-9]+}}] : memref<1x2x67x64xf32>, vector<16xf32>
// AVX512-COUNT-4: vector.fma {{.*}} : vector<16xf32>
// AVX512: } {parallel = true, schedule.nr = 64}
// AVX512: } {schedule.kc = 67}
// AVX512: } {parallel = true, {{.*}}schedule.nc = 64, schedule.small_m = 1}
// AVX512-NOT: memref.dealloc

// AVX2: "memref.global"() <{sym_name = "w_packed_{{[0-9a-f]+}}", type = memref<1x4x67x32xf32>
// AVX2-LABEL: func.func @gemv(
// AVX2-NOT: memref.alloc()
// AVX2: loop.for %j_nc = %c0 to %c100 step %c64 {
// AVX2-COUNT-4: memref.alloca() : memref<8xf32>
// AVX2: loop.for %k = %k_kc to
// AVX2-COUNT-4: vector.fma {{.*}} : vector<8xf32>
// AVX2: } {parallel = true, schedule.nr = 32}
// AVX2: } {parallel = true, {{.*}}schedule.nc = 64, schedule.small_m = 1}

// PAR-LABEL: func.func @gemv(
// PAR: cpu.parallel %j_nc = %c0 to %c100 step %c64 {

// LARGE-LABEL: func.func @gemv(
// LARGE: %a_packed = memref.alloc()
// LARGE-NOT: %w_packed = memref.alloc
// LARGE: schedule.mc = 1
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 16777216>} {
  "memref.global"() <{sym_name = "w", type = memref<100x67xf32>, initial_value = dense<0.5> : tensor<100x67xf32>, sym_visibility = "private", constant}> : () -> ()
  func.func @gemv(%a: memref<1x67xf32>, %out: memref<1x100xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c67 = arith.constant 67 : index
    %c100 = arith.constant 100 : index
    %w = memref.get_global @w : memref<100x67xf32>
    loop.for %i = %c0 to %c1 step %c1 {
      loop.for %j = %c0 to %c100 step %c1 {
        loop.for %k = %c0 to %c67 step %c1 {
          %x = memref.load %a[%i, %k] : memref<1x67xf32>
          %y = memref.load %w[%j, %k] : memref<100x67xf32>
          %acc = memref.load %out[%i, %j] : memref<1x100xf32>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %m : f32
          memref.store %s, %out[%i, %j] : memref<1x100xf32>
        }
      } {parallel = true}
    } {parallel = true, test.knobs = 0}
    func.return
  }
}

// -----

// M = 64, B (32x48) constant: the large-M schedule packs A at run time, B at compile time: one
// kc x nc panel (32 x 64: the 48 columns and zeros) per (kc, jc) block.
// AVX512: "memref.global"() <{sym_name = "b_packed_{{[0-9a-f]+}}", type = memref<1x1x32x64xf32>
// AVX512-LABEL: func.func @matmul(
// AVX512: %b_packed = memref.get_global @b_packed_{{[0-9a-f]+}} : memref<1x1x32x64xf32>
// AVX512: %a_packed = memref.alloc() {alignment = 64 : i64} : memref<35x32xf32>
// AVX512-NOT: memref.alloc()
// AVX512: loop.for %k = %k_kc to
// AVX512-COUNT-7: memref.load %a_packed
// AVX512-COUNT-2: vector.load %b_packed
// AVX512-COUNT-14: vector.fma {{.*}} : vector<16xf32>
// AVX512: } {parallel = true, schedule.mr = 7}
// AVX512: } {parallel = true, {{.*}}schedule.mc = 35}
// AVX512-NOT: small_m
// AVX2: "memref.global"() <{sym_name = "b_packed_{{[0-9a-f]+}}", type = memref<1x1x32x48xf32>
// AVX2-LABEL: func.func @matmul(
// AVX2: %a_packed = memref.alloc() {alignment = 64 : i64} : memref<36x32xf32>
// AVX2-NOT: memref.alloc()
// AVX2: } {parallel = true, {{.*}}schedule.mc = 36}
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 16777216>} {
  "memref.global"() <{sym_name = "b", type = memref<32x48xf32>, initial_value = dense<0.5> : tensor<32x48xf32>, sym_visibility = "private", constant}> : () -> ()
  func.func @matmul(%a: memref<64x32xf32>, %out: memref<64x48xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %b = memref.get_global @b : memref<32x48xf32>
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
}
