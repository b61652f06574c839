// cpu-schedule-matmul: a matmul nest blocked for the caches, packed, and register-tiled,
// with knobs from the target's description, printed on the loops.
// AVX-512 (16 lanes, 32 registers): a 7 x 32 register tile, 14 accumulators of vector<16xf32>.
// RUN: strati-opt %s -p 'cpu-schedule-matmul{min-work=1}' | filecheck %s --check-prefix=AVX512
// AVX2 (8 lanes, 16 registers): a 6 x 16 register tile, 12 accumulators of vector<8xf32> (half again the 8 that keep two FMA pipes busy).
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt -p 'cpu-schedule-matmul{min-work=1}' | filecheck %s --check-prefix=AVX2
// Knobs given on the nest's outermost loop win; the others are fitted around them.
// RUN: sed -e 's/parallel = true, test.knobs = 0/parallel = true, schedule.mr = 4, schedule.kc = 8/' %s | strati-opt -p 'cpu-schedule-matmul{min-work=1}' | filecheck %s --check-prefix=KNOBS
// RUN: sed -e 's/parallel = true, test.knobs = 0/parallel = true, schedule.mr = 0/' %s | not strati-opt -p 'cpu-schedule-matmul{min-work=1}' 2>&1 | filecheck %s --check-prefix=BADKNOB
// The cores split the rows of this 64 x 48 product (its 48 columns are 2 tiles of 32 with AVX-512 and
// 3 of 16 with AVX2, no even share): the row block loop inside kc becomes the parallel region, the
// column block loop of one iteration is looked into. @wide's 128 columns split evenly: its column
// block loop is the region, each core packing its own panels of B.
// RUN: strati-opt %s -p 'cpu-schedule-matmul{min-work=1},cpu-parallelize{threshold=1}' | filecheck %s --check-prefix=PAR
// Below min-work (default 64^3 multiply-adds) the nest keeps the generic schedule.
// RUN: strati-opt %s -p cpu-schedule-matmul | filecheck %s --check-prefix=SMALL

// The zero fill keeps a loop of its own (fission), then the blocked nest: B packed once per
// (column block, k block) in micro-panels of kc x nr (each contiguous), A once per row block,
// into a buffer of each iteration (the row blocks may run at once).
// AVX512-LABEL: func.func @matmul(
// AVX512: memref.store %zero, %out
// AVX512: loop.for %j_nc = %c0 to %c48 step %c64 {
// AVX512: %b_packed = memref.alloc() {alignment = 64 : i64} : memref<2x32x32xf32>
// AVX512: loop.for %k_kc = %c0 to %c32 step %c32 {
// AVX512: memref.store {{.*}}, %b_packed
// AVX512: loop.for %i_mc = %c0 to %c64 step %c35 {
// AVX512-NEXT: %{{[0-9]+}} = arith.addi %i_mc, %c35
// AVX512-NEXT: %{{[0-9]+}} = arith.minsi
// AVX512-NEXT: %a_packed = memref.alloc() {alignment = 64 : i64} : memref<35x32xf32>
// AVX512: memref.store {{.*}}, %a_packed
// AVX512: loop.for %j_nr = %j_nc to %{{[0-9]+}} step %c32 {
// AVX512-NEXT: %{{[0-9]+}} = arith.subi %j_nr, %j_nc
// AVX512-NEXT: %[[PANEL:[0-9]+]] = arith.divui %{{[0-9]+}}, %c32
// AVX512: loop.for %{{[a-z0-9_]+}} = %i_mc to %{{[0-9]+}} step %c7 {
// AVX512-COUNT-14: memref.alloca() : memref<16xf32>
// AVX512: loop.for %k = %k_kc to
// AVX512-COUNT-7: memref.load %a_packed
// AVX512: vector.load %b_packed[%[[PANEL]], %{{[0-9]+}}, %{{[0-9]+}}] : memref<2x32x32xf32>, vector<16xf32>
// AVX512-COUNT-14: vector.fma {{.*}} : vector<16xf32>
// AVX512-NOT: %out
// AVX512: }
// AVX512-COUNT-14: vector.store {{.*}}, %out
// AVX512: } {parallel = true, schedule.mr = 7}
// AVX512: } {parallel = true, schedule.nr = 32}
// AVX512: memref.dealloc %a_packed
// AVX512-NEXT: } {parallel = true, schedule.mc = 35}
// AVX512-NEXT: } {schedule.kc = 32}
// AVX512-NEXT: memref.dealloc %b_packed
// AVX512-NEXT: } {parallel = true, {{.*}}schedule.nc = 64}

// AVX2-LABEL: func.func @matmul(
// AVX2: %b_packed = memref.alloc() {alignment = 64 : i64} : memref<3x32x16xf32>
// AVX2-COUNT-12: memref.alloca() : memref<8xf32>
// AVX2: loop.for %k = %k_kc to
// AVX2-COUNT-6: memref.load %a_packed
// AVX2-COUNT-12: vector.fma {{.*}} : vector<8xf32>
// AVX2: } {parallel = true, schedule.mr = 6}
// AVX2: } {parallel = true, schedule.nr = 16}
// AVX2: } {parallel = true, schedule.mc = 36}
// AVX2: } {schedule.kc = 32}
// AVX2: } {parallel = true, {{.*}}schedule.nc = 48}

// KNOBS: } {parallel = true, schedule.mr = 4}
// KNOBS: } {parallel = true, schedule.mc = 32}
// KNOBS: } {schedule.kc = 8}
// KNOBS-NOT: knobs
// BADKNOB: error: {{.*}}schedule.mr must be a positive integer

// PAR-LABEL: func.func @matmul(
// PAR: loop.for %j_nc = %c0 to %c48 step %c64 {
// PAR: loop.for %k_kc = %c0 to %c32 step %c32 {
// PAR: cpu.parallel %i_mc = %c0 to %c64 step %c35 {
// PAR: } {schedule.mc = 35}
// PAR-NEXT: } {schedule.kc = 32}
// PAR-LABEL: func.func @wide(
// PAR: cpu.parallel %j_nc = %c0 to %c128 step %c64 {
// PAR: %b_packed = memref.alloc() {alignment = 64 : i64} : memref<2x32x32xf32>
// PAR: loop.for %k_kc = %c0 to %c32 step %c32 {
// PAR: loop.for %i_mc = %c0 to %c32 step %c35 {
// PAR: } {schedule.nc = 64}

// SMALL-NOT: schedule.
// SMALL-NOT: packed
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 16777216>} {
  func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x48xf32>, %out: memref<64x48xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c48 = arith.constant 48 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    loop.for %i = %c0 to %c64 step %c1 {
      loop.for %j0 = %c0 to %c48 step %c1 {
        memref.store %zero, %out[%i, %j0] : memref<64x48xf32>
      } {parallel = true}
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
    } {parallel = true, test.knobs = 0}
    func.return
  }
  func.func @wide(%a: memref<32x32xf32>, %b: memref<32x128xf32>, %out: memref<32x128xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    loop.for %i = %c0 to %c32 step %c1 {
      loop.for %j = %c0 to %c128 step %c1 {
        loop.for %k = %c0 to %c32 step %c1 {
          %x = memref.load %a[%i, %k] : memref<32x32xf32>
          %y = memref.load %b[%k, %j] : memref<32x128xf32>
          %acc = memref.load %out[%i, %j] : memref<32x128xf32>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %m : f32
          memref.store %s, %out[%i, %j] : memref<32x128xf32>
        }
      } {parallel = true}
    } {parallel = true}
    func.return
  }
}
