// graph.if and graph.loop print in their custom syntax and round-trip, custom and generic;
// their regions read values defined above them.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @choose(
// CHECK-SAME: [[C:%.*]]: tensor<i1>, [[X:%.*]]: tensor<4xf32>, [[Y:%.*]]: tensor<4xf32>)
func.func @choose(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: [[R:%.*]], [[S:%.*]] = graph.if [[C]] : (tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.add [[X]], [[Y]] : tensor<4xf32>
  // CHECK-NEXT: graph.yield [[A]], [[X]] : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: [[B:%.*]] = graph.mul [[X]], [[Y]] : tensor<4xf32>
  // CHECK-NEXT: graph.yield [[B]], [[Y]] : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: }
  %r, %s = graph.if %c : (tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
    %a = graph.add %x, %y : tensor<4xf32>
    graph.yield %a, %x : tensor<4xf32>, tensor<4xf32>
  } else {
    %b = graph.mul %x, %y : tensor<4xf32>
    graph.yield %b, %y : tensor<4xf32>, tensor<4xf32>
  }
  func.return %r, %s : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @no_results(
// CHECK: graph.if {{%.*}} : (tensor<1xi1>) -> () {
// CHECK-NEXT: graph.yield
// CHECK-NEXT: } else {
func.func @no_results(%c: tensor<1xi1>) {
  graph.if %c : (tensor<1xi1>) -> () {
    graph.yield
  } else {
    graph.yield
  }
  func.return
}

// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME: [[H0:%.*]]: tensor<4xf32>, [[W:%.*]]: tensor<4xf32>)
func.func @accumulate(%h0: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  // CHECK: [[H:%.*]], [[S:%.*]] = graph.loop [[N:%.*]] ([[I:%.*]], [[C:%.*]] = [[T:%.*]], [[X:%.*]] = [[H0]]) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) attributes {strati.note = "kept"} {
  // CHECK-NEXT: [[F:%.*]] = graph.cast [[I]] : (tensor<i64>) -> tensor<f32>
  // CHECK-NEXT: [[M:%.*]] = graph.mul [[X]], [[W]] : tensor<4xf32>
  // CHECK-NEXT: [[Y:%.*]] = graph.add [[M]], [[F]] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: graph.yield [[C]], [[Y]], [[M]] : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: }
  %n = graph.constant dense<3> : tensor<i64>
  %t = graph.constant dense<true> : tensor<i1>
  %h, %s = graph.loop %n (%i, %c = %t, %x = %h0) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) attributes {strati.note = "kept"} {
    %f = graph.cast %i : (tensor<i64>) -> tensor<f32>
    %m = graph.mul %x, %w : tensor<4xf32>
    %y = graph.add %m, %f : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    graph.yield %c, %y, %m : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %h, %s : tensor<4xf32>, tensor<3x4xf32>
}

// A run-time trip count and condition: the scan output's length is not known (`?`).
// CHECK-LABEL: func.func @until(
// CHECK: graph.loop {{%.*}} ({{%.*}}, {{%.*}} = {{%.*}}) : (tensor<i64>, tensor<i1>) -> tensor<?xi64> {
func.func @until(%n: tensor<i64>, %go: tensor<i1>) -> tensor<?xi64> {
  %s = graph.loop %n (%i, %c = %go) : (tensor<i64>, tensor<i1>) -> tensor<?xi64> {
    graph.yield %c, %i : tensor<i1>, tensor<i64>
  }
  func.return %s : tensor<?xi64>
}
