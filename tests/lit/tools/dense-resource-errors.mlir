// A bad resource is one line at the place in the file that is wrong, exit status 1.
// RUN: not strati-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not strati-opt --split-input-file < %s 2>&1 | filecheck %s --check-prefix=STDIN

// CHECK: dense-resource-errors.mlir:[[# @LINE + 5]]:59: error: resource 'w': 'Z' is not a hex digit
func.func @bad_hex() -> tensor<2xf32> {
  %w = graph.constant dense_resource<w> : tensor<2xf32>
  func.return %w : tensor<2xf32>
}
{-# dialect_resources: { builtin: { w: "0x040000000000803FZ0000040" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 2]]:23: error: dense_resource<w> has no blob: the file has no {-# dialect_resources #-} section
func.func @missing_blob() -> tensor<2xf32> {
  %w = graph.constant dense_resource<w> : tensor<2xf32>
  func.return %w : tensor<2xf32>
}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 2]]:23: error: unknown resource 'w' (the file's resources section has: v)
func.func @unknown_name() -> tensor<2xf32> {
  %w = graph.constant dense_resource<w> : tensor<2xf32>
  func.return %w : tensor<2xf32>
}
{-# dialect_resources: { builtin: { v: "0x040000000000803F00000040" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 2]]:23: error: resource 'w' holds 12 bytes, its type tensor<4xf32> needs 16
func.func @wrong_size() -> tensor<4xf32> {
  %w = graph.constant dense_resource<w> : tensor<4xf32>
  func.return %w : tensor<4xf32>
}
{-# dialect_resources: { builtin: { w: "0x040000000000803F0000004000004040" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 5]]:41: error: resource 'w': an odd number of hex digits
func.func @odd_digits() -> tensor<2xf32> {
  %w = graph.constant dense_resource<w> : tensor<2xf32>
  func.return %w : tensor<2xf32>
}
{-# dialect_resources: { builtin: { w: "0x040000000000803F0000004" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 5]]:41: error: resource 'w': a blob is "0x", 8 hex digits of alignment, then the bytes in hex
func.func @no_alignment() -> tensor<1xi8> {
  %w = graph.constant dense_resource<w> : tensor<1xi8>
  func.return %w : tensor<1xi8>
}
{-# dialect_resources: { builtin: { w: "0x07" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 5]]:41: error: resource 'w': alignment 3 (its first 4 bytes) is not a power of 2
func.func @bad_alignment() -> tensor<1xi8> {
  %w = graph.constant dense_resource<w> : tensor<1xi8>
  func.return %w : tensor<1xi8>
}
{-# dialect_resources: { builtin: { w: "0x0300000007" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 5]]:26: error: unknown resource dialect 'graph' (strati reads builtin blobs)
func.func @other_dialect() -> tensor<1xi8> {
  %w = graph.constant dense_resource<w> : tensor<1xi8>
  func.return %w : tensor<1xi8>
}
{-# dialect_resources: { graph: { w: "0x0100000007" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 5]]:5: error: unknown key 'other_resources' in the file's resources section (strati reads dialect_resources and external_resources)
func.func @other_key() -> tensor<1xi8> {
  %w = graph.constant dense_resource<w> : tensor<1xi8>
  func.return %w : tensor<1xi8>
}
{-# other_resources: { builtin: { w: "0x0100000007" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 5]]:40: error: unterminated string for resource 'w'
func.func @unterminated() -> tensor<1xi8> {
  %w = graph.constant dense_resource<w> : tensor<1xi8>
  func.return %w : tensor<1xi8>
}
{-# dialect_resources: { builtin: { w: "0x0100000007 } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 6]]:37: error: resource 'w' is defined twice
func.func @twice() -> tensor<1xi8> {
  %w = graph.constant dense_resource<w> : tensor<1xi8>
  func.return %w : tensor<1xi8>
}
{-# dialect_resources: { builtin: { w: "0x0100000007",
                                    w: "0x0100000007" } } #-}

// -----

// CHECK: dense-resource-errors.mlir:[[# @LINE + 6]]:52: error: weights file: cannot read 'w.bin': No such file or directory
// STDIN: <stdin>:[[# @LINE + 5]]:52: error: weights file 'w.bin': external weights are read only for a module read from a file
func.func @external() -> tensor<1xi8> {
  %w = graph.constant dense_resource<w> : tensor<1xi8>
  func.return %w : tensor<1xi8>
}
{-# external_resources: { strati_weights: { file: "w.bin", w: "offset=0,size=1" } } #-}
