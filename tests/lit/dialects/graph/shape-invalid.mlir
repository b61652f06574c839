// Every verifier rule of the data-movement ops, one case each.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @reshape_count(%x: tensor<3x4xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 12 elements [3x4] into 10 [2x5]}}
  %r = graph.reshape %x : (tensor<3x4xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

func.func @reshape_two_dynamic(%x: tensor<3x4xf32>) -> tensor<?x?xf32> {
  // expected-error@+1 {{'graph.reshape' op result [?x?] has 2 dynamic dimensions; at most one can be inferred}}
  %r = graph.reshape %x : (tensor<3x4xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

func.func @reshape_not_multiple(%x: tensor<3x4xf32>) -> tensor<?x5xf32> {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 12 elements [3x4] into [?x5]: 12 is not a multiple of 5}}
  %r = graph.reshape %x : (tensor<3x4xf32>) -> tensor<?x5xf32>
  func.return %r : tensor<?x5xf32>
}

// -----

func.func @reshape_ambiguous(%x: tensor<0x4xf32>) -> tensor<?x0xf32> {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 0 elements [0x4] into [?x0]: the dynamic dimension is ambiguous}}
  %r = graph.reshape %x : (tensor<0x4xf32>) -> tensor<?x0xf32>
  func.return %r : tensor<?x0xf32>
}

// -----

func.func @reshape_dynamic_input(%x: tensor<?x4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.reshape' op cannot reshape [?x4] (a multiple of 4 elements) into 6 [2x3]}}
  %r = graph.reshape %x : (tensor<?x4xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

func.func @reshape_element(%x: tensor<3x4xf32>) -> tensor<12xi64> {
  // expected-error@+1 {{'graph.reshape' op result type tensor<12xi64> does not match the inferred type tensor<12xf32>}}
  %r = graph.reshape %x : (tensor<3x4xf32>) -> tensor<12xi64>
  func.return %r : tensor<12xi64>
}

// -----

func.func @broadcast_lower_rank(%x: tensor<2x3x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'graph.broadcast_to' op cannot broadcast [2x3x4] to [3x4] of lower rank}}
  %r = graph.broadcast_to %x : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @broadcast_clash(%x: tensor<3x4xf32>) -> tensor<2x3x5xf32> {
  // expected-error@+1 {{'graph.broadcast_to' op cannot broadcast [3x4] to [2x3x5]: input dimension 1 of size 4 is neither 1 nor 5}}
  %r = graph.broadcast_to %x : (tensor<3x4xf32>) -> tensor<2x3x5xf32>
  func.return %r : tensor<2x3x5xf32>
}

// -----

func.func @broadcast_undetermined(%x: tensor<3x1xf32>) -> tensor<3x?xf32> {
  // expected-error@+1 {{'graph.broadcast_to' op result dimension 1 of [3x?] is dynamic, but the input [3x1] does not determine it}}
  %r = graph.broadcast_to %x : (tensor<3x1xf32>) -> tensor<3x?xf32>
  func.return %r : tensor<3x?xf32>
}

// -----

func.func @flatten_axis(%x: tensor<2x3x4xf32>) -> tensor<24x1xf32> {
  // expected-error@+1 {{'graph.flatten' op axis 4 is out of range for flatten of rank 3 (expected -3..3)}}
  %r = graph.flatten %x {axis = 4} : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
  func.return %r : tensor<24x1xf32>
}

// -----

func.func @flatten_result(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // expected-error@+1 {{'graph.flatten' op result type tensor<6x4xf32> does not match the inferred type tensor<2x12xf32>}}
  %r = graph.flatten %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  func.return %r : tensor<6x4xf32>
}

// -----

func.func @transpose_length(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error@+1 {{'graph.transpose' op perm [1, 0] has 2 entries for rank 3}}
  %r = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  func.return %r : tensor<3x2x4xf32>
}

// -----

func.func @transpose_perm(%x: tensor<2x3x4xf32>) -> tensor<2x2x3xf32> {
  // expected-error@+1 {{'graph.transpose' op perm [0, 0, 1] is not a permutation of 0..2}}
  %r = graph.transpose %x {perm = array<i64: 0, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<2x2x3xf32>
  func.return %r : tensor<2x2x3xf32>
}

// -----

func.func @transpose_negative(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'graph.transpose' op perm [-1, 0] is not a permutation of 0..1}}
  %r = graph.transpose %x {perm = array<i64: -1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @squeeze_dynamic(%x: tensor<1x?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{'graph.squeeze' op squeeze without axes needs static dimensions, got [1x?]}}
  %r = graph.squeeze %x : (tensor<1x?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

func.func @squeeze_not_one(%x: tensor<1x3x1xf32>) -> tensor<1x1xf32> {
  // expected-error@+1 {{'graph.squeeze' op cannot squeeze dimension 1 of size 3 in [1x3x1]}}
  %r = graph.squeeze %x {axes = array<i64: 1>} : (tensor<1x3x1xf32>) -> tensor<1x1xf32>
  func.return %r : tensor<1x1xf32>
}

// -----

func.func @squeeze_range(%x: tensor<1x3x1xf32>) -> tensor<3x1xf32> {
  // expected-error@+1 {{'graph.squeeze' op axes [-4]: axis -4 is out of range for rank 3}}
  %r = graph.squeeze %x {axes = array<i64: -4>} : (tensor<1x3x1xf32>) -> tensor<3x1xf32>
  func.return %r : tensor<3x1xf32>
}

// -----

func.func @squeeze_repeat(%x: tensor<1x3x1xf32>) -> tensor<3x1xf32> {
  // expected-error@+1 {{'graph.squeeze' op axes [0, -3] repeat an axis}}
  %r = graph.squeeze %x {axes = array<i64: 0, -3>} : (tensor<1x3x1xf32>) -> tensor<3x1xf32>
  func.return %r : tensor<3x1xf32>
}

// -----

func.func @unsqueeze_no_axes(%x: tensor<3xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{'graph.unsqueeze' op needs the property 'axes'}}
  %r = graph.unsqueeze %x : (tensor<3xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// -----

func.func @unsqueeze_range(%x: tensor<3xf32>) -> tensor<3x1xf32> {
  // expected-error@+1 {{'graph.unsqueeze' op axes [2]: axis 2 is out of range for rank 2}}
  %r = graph.unsqueeze %x {axes = array<i64: 2>} : (tensor<3xf32>) -> tensor<3x1xf32>
  func.return %r : tensor<3x1xf32>
}

// -----

func.func @unsqueeze_repeat(%x: tensor<3xf32>) -> tensor<3x1x1xf32> {
  // expected-error@+1 {{'graph.unsqueeze' op axes [2, -1] repeat an axis}}
  %r = graph.unsqueeze %x {axes = array<i64: 2, -1>} : (tensor<3xf32>) -> tensor<3x1x1xf32>
  func.return %r : tensor<3x1x1xf32>
}

// -----

func.func @slice_no_ends(%x: tensor<5x7xf32>) -> tensor<4x7xf32> {
  // expected-error@+1 {{'graph.slice' op needs the property 'ends'}}
  %r = graph.slice %x {starts = array<i64: 1>} : (tensor<5x7xf32>) -> tensor<4x7xf32>
  func.return %r : tensor<4x7xf32>
}

// -----

func.func @slice_too_many(%x: tensor<5x7xf32>) -> tensor<1x1xf32> {
  // expected-error@+1 {{'graph.slice' op starts has 3 entries for rank 2}}
  %r = graph.slice %x {starts = array<i64: 0, 0, 0>, ends = array<i64: 1, 1, 1>} : (tensor<5x7xf32>) -> tensor<1x1xf32>
  func.return %r : tensor<1x1xf32>
}

// -----

func.func @slice_ends_length(%x: tensor<5x7xf32>) -> tensor<1x7xf32> {
  // expected-error@+1 {{'graph.slice' op starts has 2 entries but ends has 1}}
  %r = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 1>} : (tensor<5x7xf32>) -> tensor<1x7xf32>
  func.return %r : tensor<1x7xf32>
}

// -----

func.func @slice_axes_length(%x: tensor<5x7xf32>) -> tensor<1x7xf32> {
  // expected-error@+1 {{'graph.slice' op starts has 1 entries but axes has 2}}
  %r = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 1>, axes = array<i64: 0, 1>} : (tensor<5x7xf32>) -> tensor<1x7xf32>
  func.return %r : tensor<1x7xf32>
}

// -----

func.func @slice_steps_length(%x: tensor<5x7xf32>) -> tensor<1x7xf32> {
  // expected-error@+1 {{'graph.slice' op starts has 1 entries but steps has 0}}
  %r = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64>} : (tensor<5x7xf32>) -> tensor<1x7xf32>
  func.return %r : tensor<1x7xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<5x7xf32>) -> tensor<5x7xf32> {
  // expected-error@+1 {{'graph.slice' op steps [1, 0] contain a zero step}}
  %r = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 5, 7>, steps = array<i64: 1, 0>} : tensor<5x7xf32>
  func.return %r : tensor<5x7xf32>
}

// -----

func.func @slice_axis_range(%x: tensor<5x7xf32>) -> tensor<1x7xf32> {
  // expected-error@+1 {{'graph.slice' op axes [2]: axis 2 is out of range for rank 2}}
  %r = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 1>, axes = array<i64: 2>} : (tensor<5x7xf32>) -> tensor<1x7xf32>
  func.return %r : tensor<1x7xf32>
}

// -----

func.func @slice_axis_repeat(%x: tensor<5x7xf32>) -> tensor<5x1xf32> {
  // expected-error@+1 {{'graph.slice' op axes [1, -1] repeat an axis}}
  %r = graph.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 1, 1>, axes = array<i64: 1, -1>} : (tensor<5x7xf32>) -> tensor<5x1xf32>
  func.return %r : tensor<5x1xf32>
}

// -----

func.func @slice_result(%x: tensor<5x7xf32>) -> tensor<2x7xf32> {
  // expected-error@+1 {{'graph.slice' op result type tensor<2x7xf32> does not match the inferred type tensor<3x7xf32>}}
  %r = graph.slice %x {starts = array<i64: -1>, ends = array<i64: -100>, steps = array<i64: -2>} : (tensor<5x7xf32>) -> tensor<2x7xf32>
  func.return %r : tensor<2x7xf32>
}

// -----

func.func @pad_no_pads(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'graph.pad' op needs the property 'pads'}}
  %r = graph.pad %x : tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @pad_length(%x: tensor<3x4xf32>) -> tensor<5x4xf32> {
  // expected-error@+1 {{'graph.pad' op pads has 2 entries, expected 4 (begins then ends for rank 2)}}
  %r = graph.pad %x {pads = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<5x4xf32>
  func.return %r : tensor<5x4xf32>
}

// -----

func.func @pad_mode(%x: tensor<3x4xf32>) -> tensor<5x6xf32> {
  // expected-error@+1 {{'graph.pad' op mode must be "constant", "reflect" or "edge", got "wrap"}}
  %r = graph.pad %x {pads = array<i64: 1, 1, 1, 1>, mode = "wrap"} : (tensor<3x4xf32>) -> tensor<5x6xf32>
  func.return %r : tensor<5x6xf32>
}

// -----

func.func @pad_int_value(%x: tensor<3x4xi64>) -> tensor<5x6xi64> {
  // expected-error@+1 {{'graph.pad' op pad value 0.5 is not an integer, but the tensor is tensor<3x4xi64>}}
  %r = graph.pad %x {pads = array<i64: 1, 1, 1, 1>, value = 0.5} : (tensor<3x4xi64>) -> tensor<5x6xi64>
  func.return %r : tensor<5x6xi64>
}

// -----

func.func @pad_crop(%x: tensor<3x4xf32>) -> tensor<3x0xf32> {
  // expected-error@+1 {{'graph.pad' op pads [0, -3, 0, -2] crop dimension 1 of size 4 to -1 elements}}
  %r = graph.pad %x {pads = array<i64: 0, -3, 0, -2>} : (tensor<3x4xf32>) -> tensor<3x0xf32>
  func.return %r : tensor<3x0xf32>
}

// -----

func.func @pad_reflect(%x: tensor<3x4xf32>) -> tensor<3x9xf32> {
  // expected-error@+1 {{'graph.pad' op reflect pad 4 of dimension 1 must be smaller than its size 4 (after cropping)}}
  %r = graph.pad %x {pads = array<i64: 0, 1, 0, 4>, mode = "reflect"} : (tensor<3x4xf32>) -> tensor<3x9xf32>
  func.return %r : tensor<3x9xf32>
}

// -----

func.func @pad_reflect_cropped(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'graph.pad' op reflect pad 2 of dimension 1 must be smaller than its size 2 (after cropping)}}
  %r = graph.pad %x {pads = array<i64: 0, -2, 0, 2>, mode = "reflect"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

func.func @pad_edge_empty(%x: tensor<0x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'graph.pad' op edge pad of dimension 0 needs a nonempty dimension}}
  %r = graph.pad %x {pads = array<i64: 1, 0, 0, 0>, mode = "edge"} : (tensor<0x4xf32>) -> tensor<1x4xf32>
  func.return %r : tensor<1x4xf32>
}

// -----

func.func @concat_none() -> tensor<0xf32> {
  // expected-error@+1 {{'graph.concat' op needs at least one operand}}
  %r = graph.concat {axis = 0} : () -> tensor<0xf32>
  func.return %r : tensor<0xf32>
}

// -----

func.func @concat_no_axis(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  // expected-error@+1 {{'graph.concat' op needs the property 'axis'}}
  %r = graph.concat %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  func.return %r : tensor<6x3xf32>
}

// -----

func.func @concat_element(%a: tensor<2x3xf32>, %b: tensor<4x3xi64>) -> tensor<6x3xf32> {
  // expected-error@+1 {{'graph.concat' op operands must have the same element type, got tensor<2x3xf32>, tensor<4x3xi64>}}
  %r = graph.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<4x3xi64>) -> tensor<6x3xf32>
  func.return %r : tensor<6x3xf32>
}

// -----

func.func @concat_scalar(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.concat' op cannot concatenate rank-0 tensors}}
  %r = graph.concat %a, %b {axis = 0} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error@+1 {{'graph.concat' op operand #1 [3] has rank 1, but operand #0 [2x3] has 2}}
  %r = graph.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  func.return %r : tensor<3x3xf32>
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  // expected-error@+1 {{'graph.concat' op axis -3 is out of range for rank 2}}
  %r = graph.concat %a, %b {axis = -3} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  func.return %r : tensor<6x3xf32>
}

// -----

func.func @concat_off_axis(%a: tensor<2x3xf32>, %b: tensor<?x3xf32>, %c: tensor<4x5xf32>) -> tensor<?x3xf32> {
  // expected-error@+1 {{'graph.concat' op operand #2 [4x5] and operand #0 [2x3] differ in dimension 1, off the concatenation axis 0}}
  %r = graph.concat %a, %b, %c {axis = 0} : (tensor<2x3xf32>, tensor<?x3xf32>, tensor<4x5xf32>) -> tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}

// -----

func.func @split_no_results(%x: tensor<6xf32>) {
  // expected-error@+1 {{'graph.split' op needs at least one result}}
  graph.split %x : (tensor<6xf32>) -> ()
  func.return
}

// -----

func.func @split_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'graph.split' op cannot split a rank-0 tensor}}
  %r = graph.split %x : (tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

func.func @split_axis(%x: tensor<3x6xf32>) -> tensor<3x6xf32> {
  // expected-error@+1 {{'graph.split' op axis 2 is out of range for rank 2}}
  %r = graph.split %x {axis = 2} : (tensor<3x6xf32>) -> tensor<3x6xf32>
  func.return %r : tensor<3x6xf32>
}

// -----

func.func @split_sizes_count(%x: tensor<3x6xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  // expected-error@+1 {{'graph.split' op sizes [1, 2, 3] has 3 entries for 2 results}}
  %r:2 = graph.split %x {axis = 1, sizes = array<i64: 1, 2, 3>} : (tensor<3x6xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  func.return %r#0, %r#1 : tensor<3x3xf32>, tensor<3x3xf32>
}

// -----

func.func @split_negative(%x: tensor<3x6xf32>) -> (tensor<3x7xf32>, tensor<3x?xf32>) {
  // expected-error@+1 {{'graph.split' op sizes [7, -1] contain a negative size}}
  %r:2 = graph.split %x {axis = 1, sizes = array<i64: 7, -1>} : (tensor<3x6xf32>) -> (tensor<3x7xf32>, tensor<3x?xf32>)
  func.return %r#0, %r#1 : tensor<3x7xf32>, tensor<3x?xf32>
}

// -----

func.func @split_sum(%x: tensor<3x6xf32>) -> (tensor<3x2xf32>, tensor<3x3xf32>) {
  // expected-error@+1 {{'graph.split' op split sizes [2, 3] do not sum to dimension 1 of size 6}}
  %r:2 = graph.split %x {axis = 1, sizes = array<i64: 2, 3>} : (tensor<3x6xf32>) -> (tensor<3x2xf32>, tensor<3x3xf32>)
  func.return %r#0, %r#1 : tensor<3x2xf32>, tensor<3x3xf32>
}

// -----

func.func @split_equal(%x: tensor<7x2xf32>) -> (tensor<3x2xf32>, tensor<4x2xf32>) {
  // expected-error@+1 {{'graph.split' op dimension 0 of size 7 does not split into 2 equal parts}}
  %r:2 = graph.split %x : (tensor<7x2xf32>) -> (tensor<3x2xf32>, tensor<4x2xf32>)
  func.return %r#0, %r#1 : tensor<3x2xf32>, tensor<4x2xf32>
}

// -----

func.func @split_result(%x: tensor<3x6xf32>) -> (tensor<3x3xf32>, tensor<3x2xf32>) {
  // expected-error@+1 {{'graph.split' op result #1 type tensor<3x2xf32> does not match the inferred type tensor<3x3xf32>}}
  %r:2 = graph.split %x {axis = 1} : (tensor<3x6xf32>) -> (tensor<3x3xf32>, tensor<3x2xf32>)
  func.return %r#0, %r#1 : tensor<3x3xf32>, tensor<3x2xf32>
}

// -----

func.func @gather_float_indices(%d: tensor<5x4xf32>, %i: tensor<2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.gather' op indices must be an integer tensor, got tensor<2xf32>}}
  %r = graph.gather %d, %i : (tensor<5x4xf32>, tensor<2xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

func.func @gather_bool_indices(%d: tensor<5x4xf32>, %i: tensor<2xi1>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.gather' op indices must be an integer tensor, got tensor<2xi1>}}
  %r = graph.gather %d, %i : (tensor<5x4xf32>, tensor<2xi1>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

func.func @gather_scalar(%d: tensor<f32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.gather' op cannot gather from a rank-0 tensor}}
  %r = graph.gather %d, %i : (tensor<f32>, tensor<2xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @gather_axis(%d: tensor<5x4xf32>, %i: tensor<2xi64>) -> tensor<5x4x2xf32> {
  // expected-error@+1 {{'graph.gather' op axis 2 is out of range for rank 2}}
  %r = graph.gather %d, %i {axis = 2} : (tensor<5x4xf32>, tensor<2xi64>) -> tensor<5x4x2xf32>
  func.return %r : tensor<5x4x2xf32>
}

// -----

func.func @gather_result(%d: tensor<5x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  // expected-error@+1 {{'graph.gather' op result type tensor<2x3x4xf32> does not match the inferred type tensor<5x2x3xf32>}}
  %r = graph.gather %d, %i {axis = 1} : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}

// -----

func.func @resize_rank(%x: tensor<1x3x4xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'graph.resize' op result rank 2 differs from input rank 3}}
  %r = graph.resize %x : (tensor<1x3x4xf32>) -> tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}

// -----

func.func @resize_coordinate_mode(%x: tensor<3x4xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'graph.resize' op coordinate_transformation_mode must be one of half_pixel, asymmetric, align_corners, pytorch_half_pixel, tf_half_pixel_for_nn, got "tf_crop_and_resize"}}
  %r = graph.resize %x {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<3x4xf32>) -> tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}

// -----

func.func @resize_nearest_mode(%x: tensor<3x4xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'graph.resize' op nearest_mode must be one of round_prefer_floor, round_prefer_ceil, floor, ceil, got "round"}}
  %r = graph.resize %x {nearest_mode = "round"} : (tensor<3x4xf32>) -> tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}

// -----

func.func @resize_scales_length(%x: tensor<3x4xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'graph.resize' op scales has 1 entries for rank 2}}
  %r = graph.resize %x {scales = array<f32: 2.0>} : (tensor<3x4xf32>) -> tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}

// -----

func.func @resize_scale_positive(%x: tensor<3x4xf32>) -> tensor<6x0xf32> {
  // expected-error@+1 {{'graph.resize' op scale 0 of dimension 1 is not a positive number}}
  %r = graph.resize %x {scales = array<f32: 2.0, 0.0>} : (tensor<3x4xf32>) -> tensor<6x0xf32>
  func.return %r : tensor<6x0xf32>
}

// -----

func.func @resize_scale_mismatch(%x: tensor<3x5xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'graph.resize' op scale 1.5 of dimension 1 gives floor(5 x 1.5) = 7, but the result has 8}}
  %r = graph.resize %x {scales = array<f32: 2.0, 1.5>} : (tensor<3x5xf32>) -> tensor<6x8xf32>
  func.return %r : tensor<6x8xf32>
}

// -----

func.func @resize_dynamic(%x: tensor<3x4xf32>) -> tensor<6x?xf32> {
  // expected-error@+1 {{'graph.resize' op result dimension 1 of [6x?] is dynamic and no scales determine it}}
  %r = graph.resize %x : (tensor<3x4xf32>) -> tensor<6x?xf32>
  func.return %r : tensor<6x?xf32>
}

// -----

func.func @resize_empty(%x: tensor<3x0xf32>) -> tensor<6x2xf32> {
  // expected-error@+1 {{'graph.resize' op cannot resize the empty dimension 1 to 2}}
  %r = graph.resize %x : (tensor<3x0xf32>) -> tensor<6x2xf32>
  func.return %r : tensor<6x2xf32>
}
