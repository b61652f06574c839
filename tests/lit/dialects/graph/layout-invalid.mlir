// Every verifier rule of the layout ops has a case here; the messages name what is wrong.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @case0(%x: tensor<1x13x4x5xf32>) -> tensor<1x2x4x5x8xf32> {
  // expected-error@+1 {{unknown layout 'NHWC8c' (layouts: NCHW, NCHW{c}c, OIHW, OHWI{c}o)}}
  %r = graph.layout_transform %x {src = "NCHW", dst = "NHWC8c"} : (tensor<1x13x4x5xf32>) -> tensor<1x2x4x5x8xf32>
  func.return %r : tensor<1x2x4x5x8xf32>
}

// -----

func.func @case1(%x: tensor<1x13x4x5xf32>) -> tensor<1x2x4x5x8xf32> {
  // expected-error@+1 {{cannot transform layout 'NCHW' to 'OHWI8o': one must be the blocked form of the other}}
  %r = graph.layout_transform %x {src = "NCHW", dst = "OHWI8o"} : (tensor<1x13x4x5xf32>) -> tensor<1x2x4x5x8xf32>
  func.return %r : tensor<1x2x4x5x8xf32>
}

// -----

func.func @case2(%x: tensor<1x2x4x5x8xf32>) -> tensor<1x17x4x5xf32> {
  // expected-error@+1 {{17 channels do not fill 2 blocks of 8}}
  %r = graph.layout_transform %x {src = "NCHW8c", dst = "NCHW"} : (tensor<1x2x4x5x8xf32>) -> tensor<1x17x4x5xf32>
  func.return %r : tensor<1x17x4x5xf32>
}

// -----

func.func @case3(%x: tensor<1x13x4x5xf32>) -> tensor<1x1x4x5x16xf32> {
  // expected-error@+1 {{result type tensor<1x1x4x5x16xf32> does not match the inferred type tensor<1x2x4x5x8xf32>}}
  %r = graph.layout_transform %x {src = "NCHW", dst = "NCHW8c"} : (tensor<1x13x4x5xf32>) -> tensor<1x1x4x5x16xf32>
  func.return %r : tensor<1x1x4x5x16xf32>
}

// -----

func.func @case4(%x: tensor<1x2x4x5x8xf32>, %w: tensor<2x3x3x7x8xf32>) -> tensor<1x2x2x3x8xf32> {
  // expected-error@+1 {{weight input channels 7 do not fill the input's 2 blocks of 8}}
  %r = graph.conv2d_blocked %x, %w : (tensor<1x2x4x5x8xf32>, tensor<2x3x3x7x8xf32>) -> tensor<1x2x2x3x8xf32>
  func.return %r : tensor<1x2x2x3x8xf32>
}

// -----

func.func @case5(%x: tensor<1x2x4x5x8xf32>, %w: tensor<2x3x3x13x16xf32>) -> tensor<1x2x2x3x8xf32> {
  // expected-error@+1 {{input blocks of 8 channels and weight blocks of 16 differ}}
  %r = graph.conv2d_blocked %x, %w : (tensor<1x2x4x5x8xf32>, tensor<2x3x3x13x16xf32>) -> tensor<1x2x2x3x8xf32>
  func.return %r : tensor<1x2x2x3x8xf32>
}

// -----

func.func @case6(%x: tensor<1x2x4x5x8xf32>, %w: tensor<2x3x3x13x8xf32>, %b: tensor<7xf32>) -> tensor<1x2x2x3x8xf32> {
  // expected-error@+1 {{bias must have the weight's 2 blocks of 8 channels, got tensor<7xf32>}}
  %r = graph.conv2d_blocked %x, %w, %b : (tensor<1x2x4x5x8xf32>, tensor<2x3x3x13x8xf32>, tensor<7xf32>) -> tensor<1x2x2x3x8xf32>
  func.return %r : tensor<1x2x2x3x8xf32>
}

// -----

func.func @case7(%x: tensor<1x2x4x5x8xf32>, %w: tensor<2x3x3x13x8xf32>) -> tensor<1x2x2x3x8xf32> {
  // expected-error@+1 {{graph.conv2d_blocked has one group, got groups = 2}}
  %r = graph.conv2d_blocked %x, %w {groups = 2 : i64} : (tensor<1x2x4x5x8xf32>, tensor<2x3x3x13x8xf32>) -> tensor<1x2x2x3x8xf32>
  func.return %r : tensor<1x2x2x3x8xf32>
}

// -----

func.func @case8(%x: tensor<1x13x4x5xf32>) -> tensor<1x13x2x2xf32> {
  // expected-error@+1 {{input must have rank 5 (NCHW{c}c), got tensor<1x13x4x5xf32>}}
  %r = graph.max_pool2d_blocked %x {kernel = array<i64: 2, 2>} : (tensor<1x13x4x5xf32>) -> tensor<1x13x2x2xf32>
  func.return %r : tensor<1x13x2x2xf32>
}

// -----

func.func @case9(%x: tensor<1x5x4x5xf32>, %w: tensor<2x3x3x7x8xf32>) -> tensor<1x2x2x3x8xf32> {
  // expected-error@+1 {{weight input channels 7 differ from the NCHW input's 5}}
  %r = graph.conv2d_blocked %x, %w : (tensor<1x5x4x5xf32>, tensor<2x3x3x7x8xf32>) -> tensor<1x2x2x3x8xf32>
  func.return %r : tensor<1x2x2x3x8xf32>
}

// -----

func.func @case10(%x: tensor<5x4x5xf32>, %w: tensor<2x3x3x5x8xf32>) -> tensor<1x2x2x3x8xf32> {
  // expected-error@+1 {{input (NCHW{c}c or NCHW) must have rank 5 or 4, and weight (OHWI{c}o) rank 5}}
  %r = graph.conv2d_blocked %x, %w : (tensor<5x4x5xf32>, tensor<2x3x3x5x8xf32>) -> tensor<1x2x2x3x8xf32>
  func.return %r : tensor<1x2x2x3x8xf32>
}
