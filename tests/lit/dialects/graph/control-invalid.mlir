// Every verifier rule of graph.if and graph.loop has a case here.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @cond_not_i1(%c: tensor<f32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the condition must be a one-element tensor of i1, not tensor<f32>}}
  %r = graph.if %c : (tensor<f32>) -> (tensor<4xf32>) {
    graph.yield %x : tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

func.func @cond_two_elements(%c: tensor<2xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the condition must be a one-element tensor of i1, not tensor<2xi1>}}
  %r = graph.if %c : (tensor<2xi1>) -> (tensor<4xf32>) {
    graph.yield %x : tensor<4xf32>
  } else {
    graph.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

func.func @branch_type(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the else region yields (tensor<3xf32>) for results (tensor<4xf32>)}}
  %r = graph.if %c : (tensor<i1>) -> (tensor<4xf32>) {
    graph.yield %x : tensor<4xf32>
  } else {
    graph.yield %y : tensor<3xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

func.func @if_no_yield(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the region must end with graph.yield}}
  %r = "graph.if"(%c) ({
    %a = graph.relu %x : tensor<4xf32>
  }, {
    graph.yield %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @trip_not_i64(%n: tensor<i32>, %c: tensor<i1>) {
  // expected-error@+1 {{the maximum trip count must be a tensor<i64>, not tensor<i32>}}
  graph.loop %n (%i, %k = %c) : (tensor<i32>, tensor<i1>) -> () {
    graph.yield %k : tensor<i1>
  }
  func.return
}

// -----

func.func @loop_cond_shape(%n: tensor<i64>, %c: tensor<1xi1>) {
  // expected-error@+1 {{the condition must be a tensor<i1>, not tensor<1xi1>}}
  graph.loop %n (%i, %k = %c) : (tensor<i64>, tensor<1xi1>) -> () {
    graph.yield %k : tensor<1xi1>
  }
  func.return
}

// -----

func.func @carried_type(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{it must yield the condition and the carried values (tensor<i1>, tensor<4xf32>) first}}
  %r = graph.loop %n (%i, %k = %c, %h = %x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
    graph.yield %k, %y : tensor<i1>, tensor<2xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

func.func @body_args(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the body's arguments (tensor<i64>, tensor<i1>) must be the iteration number, the condition and the carried values (tensor<i64>, tensor<i1>, tensor<4xf32>)}}
  %r = "graph.loop"(%n, %c, %x) ({
  ^bb0(%i: tensor<i64>, %k: tensor<i1>):
    graph.yield %k, %x : tensor<i1>, tensor<4xf32>
  }) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @result_count(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{2 results for 1 carried values and 0 scan outputs}}
  %r, %s = graph.loop %n (%i, %k = %c, %h = %x) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    graph.yield %k, %h : tensor<i1>, tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

func.func @scan_type(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<4xf32>) -> tensor<?x3xf32> {
  // expected-error@+1 {{scan output #0 has type tensor<?x3xf32>: its elements are tensor<4xf32>, stacked along axis 0}}
  %s = graph.loop %n (%i, %k = %c) : (tensor<i64>, tensor<i1>) -> tensor<?x3xf32> {
    graph.yield %k, %x : tensor<i1>, tensor<4xf32>
  }
  func.return %s : tensor<?x3xf32>
}

// -----

func.func @scan_length(%x: tensor<4xf32>) -> tensor<5x4xf32> {
  %n = graph.constant dense<3> : tensor<i64>
  %c = graph.constant dense<true> : tensor<i1>
  // expected-error@+1 {{result type tensor<5x4xf32> does not match the inferred type tensor<3x4xf32>}}
  %s = graph.loop %n (%i, %k = %c) : (tensor<i64>, tensor<i1>) -> tensor<5x4xf32> {
    graph.yield %k, %x : tensor<i1>, tensor<4xf32>
  }
  func.return %s : tensor<5x4xf32>
}

// -----

func.func @yield_parent(%x: tensor<4xf32>) {
  // expected-error@+1 {{'graph.yield' op expects its parent to be a graph.fused, graph.if or graph.loop}}
  graph.yield %x : tensor<4xf32>
}

// -----

func.func @loop_syntax(%n: tensor<i64>) {
  // expected-error@+1 {{graph.loop binds the condition after the iteration number}}
  graph.loop %n (%i) : (tensor<i64>) -> () {
    graph.yield
  }
  func.return
}
