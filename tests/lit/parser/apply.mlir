// Rules from a file, applied by --rules and by the pass apply-rules.
// RUN: strati-opt %s --rules %S/Inputs/algebra.rules | filecheck %s
// RUN: strati-opt %s -p 'apply-rules{file="%S/Inputs/algebra.rules"}' | filecheck %s
// RUN: strati-opt %s --rules %S/Inputs/algebra.rules --verify-each | filecheck %s
// A rule set that never converges stops with the rules named.
// RUN: not strati-opt %s -p 'apply-rules{file="%S/Inputs/swap.rules" max_iterations=4}' 2>&1 | filecheck %s --check-prefix=LOOP
// LOOP: apply.mlir: error: the rewrites did not converge after 4 iterations; still applying: 'swap'
// The same rules loaded as canonicalize patterns: strati's canonicalize is bounded too.
// RUN: not strati-opt %s --load-plugin %S/Inputs/swap.rules -p 'canonicalize{max_iterations=3}' 2>&1 | filecheck %s --check-prefix=CANON
// CANON: apply.mlir: error: the rewrites did not converge after 3 iterations; still applying: 'swap'
// A rule that would change a type is stopped where it applies.
// RUN: not strati-opt %s --rules %S/Inputs/forget-type.rules 2>&1 | filecheck %s --check-prefix=TYPE
// TYPE: apply.mlir:[[# @LINE + 35]]:3: error: 'graph.cast' op rule 'cast_away' ({{.*}}forget-type.rules:1) would replace a value of type tensor<2xi32> by one of type tensor<2xf32>
// An error in the rules file is reported at its place, also through the pass.
// RUN: not strati-opt %s -p 'apply-rules{file="%S/Inputs/bad.rules"}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not strati-opt %s --rules %S/Inputs/bad.rules 2>&1 | filecheck %s --check-prefix=BAD
// BAD: {{^}}{{.*}}bad.rules:1:25: error: unknown op 'graph.nope'
// RUN: not strati-opt %s --rules %S/Inputs/missing.rules 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: strati-opt: error: cannot read '{{.*}}missing.rules': no such file

// CHECK-LABEL: func.func @values(
// CHECK-NEXT: func.return %x, %x, %x
func.func @values(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = graph.neg %x : tensor<4xf32>
  %b = graph.neg %a : tensor<4xf32>
  %c = graph.maximum %b, %b : tensor<4xf32>
  %d = graph.neg %c : tensor<4xf32>
  %e = graph.neg %d : tensor<4xf32>
  func.return %b, %c, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @built(
// CHECK-NEXT: [[R:%.*]] = graph.relu %x : tensor<2x3xf32>
// CHECK-NEXT: [[S:%.*]] = graph.relu %x : tensor<2x3xf32>
// CHECK-NEXT: [[G:%.*]] = graph.gelu %x : tensor<2x3xf32>
// CHECK-NEXT: func.return [[R]], [[S]], [[G]]
func.func @built(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = graph.relu %x : tensor<2x3xf32>
  %b = graph.relu %a : tensor<2x3xf32>
  %t = graph.transpose %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = graph.relu %t : tensor<3x2xf32>
  %u = graph.transpose %r : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %g = graph.gelu %x : tensor<2x3xf32>
  func.return %b, %u, %g : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @cast(%x: tensor<2xf32>, %y: tensor<2xf32>) -> (tensor<2xi32>, tensor<2xf32>) {
  %c = graph.cast %x : (tensor<2xf32>) -> tensor<2xi32>
  %s = graph.add %x, %y : tensor<2xf32>
  func.return %c, %s : tensor<2xi32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @arith(
// CHECK-NEXT: func.return %s
func.func @arith(%s: f32) -> f32 {
  %a = arith.negf %s : f32
  %b = arith.negf %a : f32
  func.return %b : f32
}
