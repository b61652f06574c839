// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @map_count(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{expected 2 indexing maps (one per operand), got 1}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @map_rank(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{indexing map #0 (d0) -> (d0, d0) has 2 results for an operand of rank 1}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @iterator_kind(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{iterator type 'window' is neither 'parallel' nor 'reduction'}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["window"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @reduction_in_output(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{output map (d0) -> (d0) must be a projected permutation of parallel loops}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["reduction"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @extents(%a: tensor<4xf32>, %o: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{loop d0 has extent 4 and 5 in different operands}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<5xf32>) {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}

// -----

func.func @no_extent(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{no operand gives the extent of loop d1}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @body_types(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{body arguments (f64, f32) must be the operands' element types (f32, f32)}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f64, %y: f32):
    tensor.yield %y : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @yield_types(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{tensor.yield must yield f32}}
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %i = tensor.index 0 : index
    tensor.yield %i : index
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @index_range(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    // expected-error@+1 {{loop 1 does not exist: the generic has 1 loops}}
    %i = tensor.index 1 : index
    tensor.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @extract_rank(%a: tensor<4x4xf32>, %i: index) -> f32 {
  // expected-error@+1 {{1 indices for a tensor of rank 2}}
  %v = tensor.extract %a[%i] : tensor<4x4xf32>
  func.return %v : f32
}

// -----

func.func @reshape_count(%a: tensor<4x4xf32>) -> tensor<15xf32> {
  // expected-error@+1 {{cannot reshape tensor<4x4xf32> (16 elements) to tensor<15xf32> (15 elements)}}
  %r = tensor.reshape %a : (tensor<4x4xf32>) -> tensor<15xf32>
  func.return %r : tensor<15xf32>
}

// -----

func.func @slice_bounds(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{dimension 0: slice [2, 6] step 2 is outside 0..3}}
  %r = tensor.extract_slice %a {offsets = array<i64: 2>, sizes = array<i64: 3>, strides = array<i64: 2>} : (tensor<4xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @concat_mismatch(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) -> tensor<8x3xf32> {
  // expected-error@+1 {{operand #1 tensor<4x2xf32> does not match operand #0 tensor<4x3xf32> off dimension 0}}
  %r = tensor.concat %a, %b {dim = 0} : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<8x3xf32>
  func.return %r : tensor<8x3xf32>
}

// -----

func.func @pad_value(%a: tensor<4xf32>, %v: f64) -> tensor<6xf32> {
  // expected-error@+1 {{padding value of type f64 for a tensor of f32}}
  %r = tensor.pad %a, %v {low = array<i64: 1>, high = array<i64: 1>} : (tensor<4xf32>, f64) -> tensor<6xf32>
  func.return %r : tensor<6xf32>
}

// -----

func.func @fill_value(%e: tensor<4xf32>, %v: i32) -> tensor<4xf32> {
  // expected-error@+1 {{fill value of type i32 for a tensor of f32}}
  %r = tensor.fill %v, %e : (i32, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
