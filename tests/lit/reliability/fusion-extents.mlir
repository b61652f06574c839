// Fusion keeps a producer whose result alone gives the extent of a consumer's loop (a
// reduction over a broadcast, a gather or an edge pad): at -O2/-O3 these failed with "no
// operand gives the extent of loop d0"; now every level agrees with the interpreter.
// RUN: strati-opt %S/Inputs/fusion-extents.mlir -O2 --emit=tensor | filecheck %s
// CHECK-LABEL: func.func @broadcast_sum
// CHECK: tensor.generic
// CHECK: tensor.generic
// RUN: strati-run %S/Inputs/fusion-extents.mlir --entry broadcast_sum --random-inputs 0 -O2 --check | filecheck %s --check-prefix=OK
// RUN: strati-run %S/Inputs/fusion-extents.mlir --entry broadcast_sum --random-inputs 0 -O3 --check | filecheck %s --check-prefix=OK
// RUN: strati-run %S/Inputs/fusion-extents.mlir --entry gather_sum --random-inputs 0 -O2 --check | filecheck %s --check-prefix=OK
// RUN: strati-run %S/Inputs/fusion-extents.mlir --entry gather_sum --random-inputs 0 -O3 --check | filecheck %s --check-prefix=OK
// RUN: strati-run %S/Inputs/fusion-extents.mlir --entry edge_pad_sum --random-inputs 0 -O2 --check | filecheck %s --check-prefix=OK
// RUN: strati-run %S/Inputs/fusion-extents.mlir --entry edge_pad_sum --random-inputs 0 -O3 --check | filecheck %s --check-prefix=OK
// OK: check output0: {{.*}}: ok
