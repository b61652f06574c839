// interchange and vectorize are loop-level passes of their own, which any target's pipeline
// may use; they read the module's description (vector_width, fma) and nothing else.
// RUN: strati-opt %s --split-input-file -p interchange | filecheck %s --check-prefix=INTER
// RUN: strati-opt %s --split-input-file -p interchange,vectorize | filecheck %s --check-prefix=AVX512
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt --split-input-file -p interchange,vectorize | filecheck %s --check-prefix=AVX2
// RUN: sed -e 's/fma = true/fma = false/' %s | strati-opt --split-input-file -p interchange,vectorize | filecheck %s --check-prefix=NOFMA
// A target without vectors (the toy plug-in declares no vector_width): vectorize leaves the loops alone.
// RUN: sed -e 's/#hw.target<"cpu",.*>}/#hw.target<"toy">}/' %s | strati-opt --load-plugin %S/../../unit/plugins/toy_target.py --split-input-file -p interchange,vectorize | filecheck %s --check-prefix=SCALAR

// interchange alone: k moves out, j in; nothing is vectorised yet.
// INTER-LABEL: func.func @matmul(
// INTER: loop.for [[I:%[a-z0-9_]+]] = %c0 to %c64 step %c1 {
// INTER-NEXT: loop.for [[K:%[a-z0-9_]+]] = %c0 to %c32 step %c1 {
// INTER-NEXT: loop.for [[J:%[a-z0-9_]+]] = %c0 to %c48 step %c1 {
// INTER-NEXT: memref.load %a[[[I]], [[K]]]
// INTER-NOT: vector.
// AVX512-LABEL: func.func @matmul(
// AVX512: vector.load %b[{{.*}}] : memref<32x48xf32>, vector<16xf32>
// AVX512: vector.fma {{.*}} : vector<16xf32>
// AVX2-LABEL: func.func @matmul(
// AVX2: vector.load %b[{{.*}}] : memref<32x48xf32>, vector<8xf32>
// AVX2: vector.fma {{.*}} : vector<8xf32>
// NOFMA-LABEL: func.func @matmul(
// NOFMA-NOT: vector.fma
// NOFMA: arith.mulf {{.*}} : vector<16xf32>
// NOFMA: arith.addf {{.*}} : vector<16xf32>
// SCALAR: hw.target = #hw.target<"toy", sram_bytes = 65536>
// SCALAR-NOT: vector.
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 16777216>} {
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
}
