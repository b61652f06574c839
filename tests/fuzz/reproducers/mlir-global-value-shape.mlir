// M = 64, B (0x7FC00000x48) constant: the large-M schedule packs A at run time, B at compile time: one
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
// AVX2: } {parallel = true, {{.*}}schedule.mc = 36}
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 16777216>} {
  "memref.global"() <{sym_name = "b", type = memref<1x48xf32>, initial_value = dense<0.5> : tensor<32x48xf32>, sym_visibility = "private", constant}> : () -> ()
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
