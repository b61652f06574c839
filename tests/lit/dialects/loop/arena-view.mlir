// loop.arena_view: a typed buffer at a byte offset of an i8 arena.  It prints and
// reads back (custom and generic forms); the verifier keeps the view's bytes in the
// arena and its elements naturally aligned.
// RUN: strati-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: strati-opt %s --split-input-file --verify-diagnostics | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file --verify-diagnostics --print-op-generic | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file --verify-diagnostics --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @views(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK-NEXT: %v = loop.arena_view %arena[0] : memref<256xi8> to memref<4x8xf32>
// CHECK-NEXT: %w = loop.arena_view %arena[128] : memref<256xi8> to memref<16xf64>
// CHECK-NEXT: %b = loop.arena_view %arena[255] {note = "last byte"} : memref<256xi8> to memref<1xi1>
// CHECK-NEXT: %s = loop.arena_view %arena[8] : memref<256xi8> to memref<f32>
// CHECK-NEXT: %e = loop.arena_view %arena[256] : memref<256xi8> to memref<0xf32>
// CHECK-NEXT: %r = loop.view %v : memref<4x8xf32> to memref<32xf32>
// CHECK-NEXT: {{%.*}} = memref.load %r[%i] : memref<32xf32>
// GENERIC: "loop.arena_view"(%arena) <{offset = 128 : i64}> : (memref<256xi8>) -> memref<16xf64>
func.func @views(%i: index) {
  %arena = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
  %v = loop.arena_view %arena[0] : memref<256xi8> to memref<4x8xf32>
  %w = loop.arena_view %arena[128] : memref<256xi8> to memref<16xf64>
  %b = loop.arena_view %arena[255] {note = "last byte"} : memref<256xi8> to memref<1xi1>
  %s = loop.arena_view %arena[8] : memref<256xi8> to memref<f32>
  %e = loop.arena_view %arena[256] : memref<256xi8> to memref<0xf32>
  %r = loop.view %v : memref<4x8xf32> to memref<32xf32>
  %x = memref.load %r[%i] : memref<32xf32>
  memref.dealloc %arena : memref<256xi8>
  func.return
}

// -----

func.func @past_the_end(%a: memref<64xi8>) {
  // expected-error@+1 {{the view's bytes 60 to 76 are not within the arena's 64}}
  %v = loop.arena_view %a[60] : memref<64xi8> to memref<4xf32>
  func.return
}

// -----

func.func @misaligned(%a: memref<64xi8>) {
  // expected-error@+1 {{offset 2 is not a multiple of 4, the size of f32}}
  %v = loop.arena_view %a[2] : memref<64xi8> to memref<4xf32>
  func.return
}

// -----

func.func @negative(%a: memref<64xi8>) {
  // expected-error@+1 {{offset -8 is negative}}
  %v = loop.arena_view %a[-8] : memref<64xi8> to memref<2xf32>
  func.return
}

// -----

func.func @arena_of_floats(%a: memref<16xf32>) {
  // expected-error@+1 {{the arena must be a static 1-D memref of i8, not memref<16xf32>}}
  %v = loop.arena_view %a[0] : memref<16xf32> to memref<4xf32>
  func.return
}

// -----

func.func @arena_2d(%a: memref<8x8xi8>) {
  // expected-error@+1 {{the arena must be a static 1-D memref of i8, not memref<8x8xi8>}}
  %v = loop.arena_view %a[0] : memref<8x8xi8> to memref<4xf32>
  func.return
}

// -----

func.func @arena_dynamic(%a: memref<?xi8>) {
  // expected-error@+1 {{the arena must be a static 1-D memref of i8, not memref<?xi8>}}
  %v = loop.arena_view %a[0] : memref<?xi8> to memref<4xf32>
  func.return
}

// -----

func.func @dynamic_view(%a: memref<64xi8>) {
  // expected-error@+1 {{the view must be a static row-major memref of i1, i8-i64, index, f16, bf16, f32 or f64, not memref<?xf32>}}
  %v = loop.arena_view %a[0] : memref<64xi8> to memref<?xf32>
  func.return
}

// -----

func.func @strided_view(%a: memref<64xi8>) {
  // expected-error@+1 {{the view must be a static row-major memref}}
  %v = loop.arena_view %a[0] : memref<64xi8> to memref<2x2xf32, strided<[1, 2]>>
  func.return
}

// -----

func.func @odd_element(%a: memref<64xi8>) {
  // expected-error@+1 {{the view must be a static row-major memref}}
  %v = loop.arena_view %a[0] : memref<64xi8> to memref<2xi7>
  func.return
}

// -----

func.func @no_offset(%a: memref<64xi8>) {
  // expected-error@+1 {{Expected integer literal}}
  %v = loop.arena_view %a[%a] : memref<64xi8> to memref<2xf32>
  func.return
}

// -----

func.func @generic_without_offset(%a: memref<64xi8>) {
  // expected-error@+1 {{offset}}
  %v = "loop.arena_view"(%a) : (memref<64xi8>) -> memref<2xf32>
  func.return
}
