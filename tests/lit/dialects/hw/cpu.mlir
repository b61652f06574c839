// The hw target description and the cpu dialect print and read back (custom and generic form).
// RUN: strati-opt %s --split-input-file | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file --print-op-generic | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK: builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
// CHECK-LABEL: func.func @tasks(
// CHECK: cpu.parallel [[I:%[a-z0-9_]+]] = %c0 to %c64 step %c8 {
// CHECK-NEXT: [[V:%[a-z0-9_]+]] = vector.load %a[[[I]]] : memref<64xf32>, vector<8xf32>
// CHECK-NEXT: [[E:%[a-z0-9_]+]] = math.exp [[V]] : vector<8xf32>
// CHECK-NEXT: [[F:%[a-z0-9_]+]] = vector.fma [[E]], [[V]], [[V]] : vector<8xf32>
// CHECK-NEXT: vector.store [[F]], %out[[[I]]] : memref<64xf32>, vector<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: cpu.parallel {{%[a-z0-9_]+}} = %c0 to %c64 step %c8 {
// CHECK-NEXT: } {strati.note = 1}
// CHECK-NEXT: func.return
// GENERIC: "cpu.parallel"(%c0, %c64, %c8) ({
// GENERIC: "cpu.yield"() : () -> ()
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @tasks(%a: memref<64xf32>, %out: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    cpu.parallel %i = %c0 to %c64 step %c8 {
      %v = vector.load %a[%i] : memref<64xf32>, vector<8xf32>
      %e = math.exp %v : vector<8xf32>
      %f = vector.fma %e, %v, %v : vector<8xf32>
      vector.store %f, %out[%i] : memref<64xf32>, vector<8xf32>
    }
    cpu.parallel %j = %c0 to %c64 step %c8 {
    } {strati.note = 1}
    func.return
  }
}

// -----

// The fields may come in any order; they print in the canonical one.
// CHECK: builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 4, fma = false, cores = 1, l1 = 0, l2 = 0, l3 = 0>} {
builtin.module attributes {hw.target = #hw.target<"cpu", cores = 1, l3 = 0, l2 = 0, l1 = 0, fma = false, vector_width = 4>} {
}
