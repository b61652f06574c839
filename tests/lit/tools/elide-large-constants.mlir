// --elide-large-constants[=N] prints constants of more than N elements (16 by default) as
// dense_resource<__elided__>, as mlir-opt's --mlir-elide-elementsattrs-if-larger: for reading.
// RUN: strati-opt %s --elide-large-constants=3 | filecheck %s
// RUN: strati-opt %s --elide-large-constants | filecheck %s --check-prefix=DEFAULT
// The output parses, verifies and goes through passes that need no values.
// RUN: strati-opt %s --elide-large-constants=3 -o %t.mlir
// RUN: strati-opt %t.mlir -p infer-shapes,fold-constants,simplify-inference | filecheck %s
// RUN: strati-translate %t.mlir --to dot | filecheck %s --check-prefix=DOT
// It cannot run or compile: one line, exit status 1.
// RUN: not strati-run %t.mlir --random-inputs 0 2>&1 | filecheck %s --check-prefix=REFUSED
// RUN: not strati-run %t.mlir --random-inputs 0 --backend interp 2>&1 | filecheck %s --check-prefix=REFUSED
// RUN: not strati-opt %t.mlir --emit=loop 2>&1 | filecheck %s --check-prefix=REFUSED
// RUN: not strati-translate %t.mlir --to llvm-ir 2>&1 | filecheck %s --check-prefix=REFUSED
// RUN: not strati-opt %s --elide-large-constants=-1 2>&1 | filecheck %s --check-prefix=NEGATIVE

// CHECK:      %w = graph.constant dense_resource<__elided__> : tensor<2x2xf32>
// CHECK-NEXT: %b = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %s = graph.constant dense<5.000000e-01> : tensor<64xf32>
// CHECK-NOT:  {-#

// DEFAULT: %w = graph.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// DEFAULT: %big = graph.constant dense_resource<__elided__> : tensor<17xf32>

// DOT: digraph

// REFUSED: elide-large-constants.mlir.tmp.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'graph.constant' op has an elided value (dense_resource<__elided__>, printed with --elide-large-constants): the module can be inspected but not compiled or run
// REFUSED-NOT: Traceback

// NEGATIVE: strati-opt: error: --elide-large-constants must be at least 0, got -1

func.func @f(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<64xf32>, tensor<17xf32>) {
  %w = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = graph.constant dense<0.5> : tensor<64xf32>
  %big = graph.constant dense<"0x0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F00000040"> : tensor<17xf32>
  %y = graph.add %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %y, %b, %s, %big : tensor<2x2xf32>, tensor<2xf32>, tensor<64xf32>, tensor<17xf32>
}
