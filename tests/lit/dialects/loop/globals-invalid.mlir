// A memref.global's initial value must have its type's shape and element type, and a
// memref.get_global must name a global of its own result type (xDSL checks neither; a
// mismatch read the buffer with the wrong size). The last case is valid.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{initial value of type tensor<32x48xf32> does not match the global's type memref<1x48xf32>}}
"memref.global"() <{sym_name = "b", type = memref<1x48xf32>, initial_value = dense<0.5> : tensor<32x48xf32>, sym_visibility = "private", constant}> : () -> ()

// -----

// expected-error@+1 {{initial value of type tensor<4xi32> does not match the global's type memref<4xf32>}}
"memref.global"() <{sym_name = "c", type = memref<4xf32>, initial_value = dense<1> : tensor<4xi32>, sym_visibility = "private", constant}> : () -> ()

// -----

"memref.global"() <{sym_name = "d", type = memref<2x3xf32>, initial_value = dense<1.0> : tensor<2x3xf32>, sym_visibility = "private", constant}> : () -> ()
func.func @f() {
  // expected-error@+1 {{@d is a memref<2x3xf32>, not a memref<6xf32>}}
  %d = memref.get_global @d : memref<6xf32>
  func.return
}

// -----

"memref.global"() <{sym_name = "e", type = memref<2x3xf32>, initial_value = dense<1.0> : tensor<2x3xf32>, sym_visibility = "private", constant}> : () -> ()
func.func @g() -> memref<2x3xf32> {
  %e = memref.get_global @e : memref<2x3xf32>
  func.return %e : memref<2x3xf32>
}
