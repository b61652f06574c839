// Every verifier rule of graph.fused and graph.yield has a case here.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @bad_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'speedy' is not a fusion kind (elemwise, broadcast, injective, reduce, out_elemwise_fusable, opaque)}}
  %y = graph.fused "k" speedy (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    graph.yield %a : tensor<4xf32>
  }
  func.return %y : tensor<4xf32>
}

// -----

func.func @bad_kind_generic(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.fused' op pattern 'speedy' is not a fusion kind}}
  %y = "graph.fused"(%x) <{name = "k", pattern = "speedy"}> ({
  ^bb0(%a: tensor<4xf32>):
    graph.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// -----

func.func @yield_types(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.fused' op graph.yield yields (tensor<1xf32>) for results (tensor<4xf32>)}}
  %y = graph.fused "k" elemwise (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %r = graph.reduce_sum %a : (tensor<4xf32>) -> tensor<1xf32>
    graph.yield %r : tensor<1xf32>
  }
  func.return %y : tensor<4xf32>
}

// -----

// The body reads only its arguments: a group's inputs are its operands.
func.func @captures(%x: tensor<4xf32>, %z: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.fused' op Operation using value defined out of its IsolatedFromAbove parent}}
  %y = graph.fused "k" elemwise (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %r = graph.add %a, %z : tensor<4xf32>
    graph.yield %r : tensor<4xf32>
  }
  func.return %y : tensor<4xf32>
}

// -----

func.func @no_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.fused' op the body must end with graph.yield}}
  %y = graph.fused "k" elemwise (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %r = graph.relu %a : tensor<4xf32>
  }
  func.return %y : tensor<4xf32>
}

// -----

func.func @empty_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.fused' op the kernel name must not be empty}}
  %y = graph.fused "" elemwise (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    graph.yield %a : tensor<4xf32>
  }
  func.return %y : tensor<4xf32>
}

// -----

func.func @arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{graph.fused binds 1 inputs but has 2 input types}}
  %y = graph.fused "k" elemwise (%a = %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    graph.yield %a : tensor<4xf32>
  }
  func.return %y : tensor<4xf32>
}

// -----

func.func @argument_types(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.fused' op the body's arguments (tensor<2x2xf32>) must have the operands' types (tensor<4xf32>)}}
  %y = "graph.fused"(%x) <{name = "k", pattern = "elemwise"}> ({
  ^bb0(%a: tensor<2x2xf32>):
    graph.yield %a : tensor<2x2xf32>
  }) : (tensor<4xf32>) -> tensor<2x2xf32>
  func.return %x : tensor<4xf32>
}

// -----

func.func @yield_outside(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.yield' must be the last operation in its parent block}}
  graph.yield %x : tensor<4xf32>
  func.return %x : tensor<4xf32>
}

// -----

func.func @yield_arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.fused "k" elemwise (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    // expected-error@+1 {{graph.yield has 1 operands but 2 types}}
    graph.yield %a : tensor<4xf32>, tensor<4xf32>
  }
  func.return %y : tensor<4xf32>
}

// -----

func.func @yield_parent(%x: tensor<4xf32>) {
  // expected-error@+1 {{'graph.yield' op expects its parent to be a graph.fused}}
  graph.yield %x : tensor<4xf32>
}
