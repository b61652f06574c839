// RUN: strati-opt %s --split-input-file -p plan-memory | filecheck %s
// RUN: strati-opt %s --split-input-file -p plan-memory | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p plan-memory,plan-memory | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'plan-memory{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: strati-opt %s --split-input-file -p 'plan-memory{in_place=false}' | filecheck %s --check-prefix=NOINPLACE
// RUN: strati-opt %examples/cnn.mlir -p 'convert-graph-to-tensor,convert-tensor-to-loop,plan-memory{report=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=CNN
// RUN: strati-opt %examples/cnn.mlir -p 'convert-graph-to-tensor,convert-tensor-to-loop,plan-memory{timeline="%t.svg"}' >/dev/null && filecheck %s --check-prefix=SVG < %t.svg
// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: plan-memory @cnn: {{[0-9]+}} buffers, {{[0-9]+}} in place, arena {{[0-9]+}} bytes
// SVG: <rect {{.*}}><title>{{.*}} memref&lt;{{.*}}&gt;: {{[0-9]+}} B at offset {{[0-9]+}}, ops {{[0-9]+}}..{{[0-9]+}}</title></rect>
// SVG: </svg>
// RUN: not strati-opt %examples/cnn.mlir -p 'convert-graph-to-tensor,convert-tensor-to-loop,plan-memory{timeline="%t.missing/x.svg"}' 2>&1 | filecheck %s --check-prefix=NOSVG
// NOSVG: error: plan-memory: cannot write the timeline {{.*}}missing/x.svg: No such file or directory
// CNN: plan-memory @cnn: {{[0-9]+}} buffers, {{[0-9]+}} in place, {{[0-9]+}} in parts of others ({{[0-9]+}} copies elided); one buffer per temporary: {{[0-9]+}} bytes live at peak, {{[0-9]+}} bytes in all; arena: {{[0-9]+}} bytes
//
// plan-memory: every temporary memref.alloc becomes a loop.arena_view of one i8
// arena per function (allocated 64-byte aligned first thing, freed before
// func.return, the temporaries' deallocs gone); offsets are multiples of 64, and
// buffers share bytes only when their lifetimes are disjoint or one is computed in
// place of the other.  The second RUN line reads the output back; the third shows
// that a planned function is left as it is; timeline= draws the plan as an SVG
// (its geometry is checked by tests/unit/test_plan_memory.py); the last one shows the report of the CNN
// example (its figures are asserted by tests/unit/test_plan_memory.py).  Numerics: tests/unit/test_plan_memory.py.

// Three temporaries with disjoint lifetimes (the third one through a loop.view):
// all three at offset 0 of a 64-byte arena.
// CHECK-LABEL: func.func @disjoint(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK-NOT: memref.alloc
// CHECK: %a = loop.arena_view %arena[0] : memref<64xi8> to memref<4xf32>
// CHECK-NOT: memref.dealloc {{.*}}f32>
// CHECK: %b = loop.arena_view %arena[0] : memref<64xi8> to memref<4xf32>
// CHECK-NOT: memref.dealloc {{.*}}f32>
// CHECK: %c = loop.arena_view %arena[0] : memref<64xi8> to memref<2x2xf32>
// CHECK-NEXT: %cv = loop.view %c : memref<2x2xf32> to memref<4xf32>
// CHECK-NOT: memref.dealloc {{.*}}f32>
// CHECK: memref.dealloc %arena : memref<64xi8>
// CHECK-NEXT: func.return
// REPORT: plan-memory @disjoint: 3 buffers, 0 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 16 bytes live at peak, 48 bytes in all; arena: 64 bytes
func.func @disjoint(%x: memref<4xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %a : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %b[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %b[%i] : memref<4xf32>
    %w = memref.load %out[%i] : memref<4xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %b : memref<4xf32>
  %c = memref.alloc() : memref<2x2xf32>
  %cv = loop.view %c : memref<2x2xf32> to memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %cv[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %cv[%i] : memref<4xf32>
    %w = memref.load %out[%i] : memref<4xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %c : memref<2x2xf32>
  func.return
}

// -----

// Two temporaries live at the same time (both read by the last nest): disjoint bytes.
// CHECK-LABEL: func.func @overlap(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK: %a = loop.arena_view %arena[0] : memref<128xi8> to memref<4xf32>
// CHECK: %b = loop.arena_view %arena[64] : memref<128xi8> to memref<4xf32>
// CHECK-NOT: memref.dealloc {{.*}}f32>
// CHECK: memref.dealloc %arena : memref<128xi8>
// CHECK-NEXT: func.return
// REPORT: plan-memory @overlap: 2 buffers, 0 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 32 bytes live at peak, 32 bytes in all; arena: 128 bytes
func.func @overlap(%x: memref<4xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  } {parallel = true}
  %b = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %b[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf32>
    %w = memref.load %b[%i] : memref<4xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  func.return
}

// -----

// A view keeps its buffer live: %a is read through %av by the last nest (two loops
// deep), after %b is dead, so %a and %b are live at the same time.
// CHECK-LABEL: func.func @nested_view_use(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK: %a = loop.arena_view %arena[0] : memref<128xi8> to memref<4xf32>
// CHECK: %av = loop.view %a : memref<4xf32> to memref<2x2xf32>
// CHECK-NEXT: %b = loop.arena_view %arena[64] : memref<128xi8> to memref<2x2xf32>
// CHECK-NOT: memref.dealloc {{.*}}f32>
// CHECK: memref.dealloc %arena : memref<128xi8>
// REPORT: plan-memory @nested_view_use: 2 buffers, 0 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 32 bytes live at peak, 32 bytes in all; arena: 128 bytes
func.func @nested_view_use(%x: memref<4xf32>, %out: memref<2x2xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  } {parallel = true}
  %av = loop.view %a : memref<4xf32> to memref<2x2xf32>
  %b = memref.alloc() : memref<2x2xf32>
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %av[%j, %i] : memref<2x2xf32>
      memref.store %v, %b[%i, %j] : memref<2x2xf32>
    }
  }
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %b[%i, %j] : memref<2x2xf32>
      memref.store %v, %out[%i, %j] : memref<2x2xf32>
    }
  }
  memref.dealloc %b : memref<2x2xf32>
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %av[%i, %j] : memref<2x2xf32>
      %w = memref.load %out[%i, %j] : memref<2x2xf32>
      %s = arith.addf %v, %w : f32
      memref.store %s, %out[%i, %j] : memref<2x2xf32>
    }
  }
  memref.dealloc %a : memref<4xf32>
  func.return
}

// -----

// In place: %b = exp(%a) and %c = %b + %x are elementwise nests whose input dies
// there, so both are computed into %a's bytes, through %a itself (the nest loads and
// stores one buffer at the same indices; the loops may come in any order).
// CHECK-LABEL: func.func @in_place(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK: %a = loop.arena_view %arena[0] : memref<64xi8> to memref<2x3xf32>
// CHECK-NOT: loop.arena_view
// CHECK: [[V:%.*]] = memref.load %a[[[I:%.*]], [[J:%.*]]] : memref<2x3xf32>
// CHECK-NEXT: [[W:%.*]] = math.exp [[V]] : f32
// CHECK-NEXT: memref.store [[W]], %a[[[I]], [[J]]] : memref<2x3xf32>
// CHECK: loop.for [[J2:%.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT: loop.for [[I2:%.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT: [[V2:%.*]] = memref.load %a[[[I2]], [[J2]]] : memref<2x3xf32>
// CHECK: memref.store {{%.*}}, %a[[[I2]], [[J2]]] : memref<2x3xf32>
// CHECK-NOT: loop.arena_view
// CHECK: memref.dealloc %arena : memref<64xi8>
// REPORT: plan-memory @in_place: 3 buffers, 2 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 48 bytes live at peak, 72 bytes in all; arena: 64 bytes
// NOINPLACE-LABEL: func.func @in_place(
// NOINPLACE: %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// NOINPLACE: %a = loop.arena_view %arena[0] : memref<128xi8> to memref<2x3xf32>
// NOINPLACE: %b = loop.arena_view %arena[64] : memref<128xi8> to memref<2x3xf32>
// NOINPLACE: %c = loop.arena_view %arena[0] : memref<128xi8> to memref<2x3xf32>
func.func @in_place(%x: memref<2x3xf32>, %out: memref<2x3xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<2x3xf32>
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %x[%i, %j] : memref<2x3xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %a[%i, %j] : memref<2x3xf32>
    } {parallel = true}
  } {parallel = true}
  %b = memref.alloc() : memref<2x3xf32>
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %a[%i, %j] : memref<2x3xf32>
      %w = math.exp %v : f32
      memref.store %w, %b[%i, %j] : memref<2x3xf32>
    } {parallel = true}
  } {parallel = true}
  memref.dealloc %a : memref<2x3xf32>
  %c = memref.alloc() : memref<2x3xf32>
  loop.for %j = %c0 to %c3 step %c1 {
    loop.for %i = %c0 to %c2 step %c1 {
      %v = memref.load %b[%i, %j] : memref<2x3xf32>
      %w = memref.load %x[%i, %j] : memref<2x3xf32>
      %s = arith.addf %v, %w : f32
      memref.store %s, %c[%i, %j] : memref<2x3xf32>
    }
  }
  memref.dealloc %b : memref<2x3xf32>
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %c[%i, %j] : memref<2x3xf32>
      memref.store %v, %out[%i, %j] : memref<2x3xf32>
    }
  }
  memref.dealloc %c : memref<2x3xf32>
  func.return
}

// -----

// Not in place: %b reads %a at another element than it writes (a reversal), and
// %c is written once per iteration of the inner loop %r, whose variable is not an
// index (a reduction-like nest).  %a's bytes go to %c, whose lifetime is disjoint.
// CHECK-LABEL: func.func @not_in_place(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK: %a = loop.arena_view %arena[0] : memref<128xi8> to memref<4xf32>
// CHECK: %b = loop.arena_view %arena[64] : memref<128xi8> to memref<4xf32>
// CHECK: %c = loop.arena_view %arena[0] : memref<128xi8> to memref<4xf32>
// REPORT: plan-memory @not_in_place: 3 buffers, 0 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 32 bytes live at peak, 48 bytes in all; arena: 128 bytes
func.func @not_in_place(%x: memref<4xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  } {parallel = true}
  %b = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %k = arith.subi %c3, %i : index
    %v = memref.load %a[%k] : memref<4xf32>
    memref.store %v, %b[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %a : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %r = %c0 to %c4 step %c1 {
      %v = memref.load %b[%i] : memref<4xf32>
      memref.store %v, %c[%i] : memref<4xf32>
    }
  }
  memref.dealloc %b : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %c[%i] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %c : memref<4xf32>
  func.return
}

// -----

// Largest first: %big (128 bytes) takes offset 0; once it is dead, %small and %tiny,
// live at the same time, fit in its bytes.
// CHECK-LABEL: func.func @best_fit(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK: %big = loop.arena_view %arena[0] : memref<128xi8> to memref<32xf32>
// CHECK: %small = loop.arena_view %arena[0] : memref<128xi8> to memref<4xf32>
// CHECK-NEXT: %tiny = loop.arena_view %arena[64] : memref<128xi8> to memref<2xf32>
// REPORT: plan-memory @best_fit: 3 buffers, 0 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 128 bytes live at peak, 152 bytes in all; arena: 128 bytes
func.func @best_fit(%x: memref<32xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %big = memref.alloc() : memref<32xf32>
  loop.for %i = %c0 to %c32 step %c1 {
    %v = memref.load %x[%i] : memref<32xf32>
    memref.store %v, %big[%i] : memref<32xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %big[%i] : memref<32xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %big : memref<32xf32>
  %small = memref.alloc() : memref<4xf32>
  %tiny = memref.alloc() : memref<2xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<32xf32>
    memref.store %v, %small[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %small[%i] : memref<4xf32>
    %w = memref.load %out[%i] : memref<4xf32>
    %y = arith.addf %v, %w : f32
    memref.store %y, %out[%i] : memref<4xf32>
    memref.store %y, %tiny[%c0] : memref<2xf32>
  } {parallel = true}
  memref.dealloc %small : memref<4xf32>
  memref.dealloc %tiny : memref<2xf32>
  func.return
}

// -----

// Left alone: an alloc nested in a loop, and a dynamically sized one; a function
// without temporaries gets no arena.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK: %t = loop.arena_view %arena[0] : memref<64xi8> to memref<1xf32>
// CHECK: %d = memref.alloc(%n) : memref<?xf32>
// CHECK: %inner = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.dealloc %inner : memref<4xf32>
// CHECK: memref.dealloc %d : memref<?xf32>
// CHECK-NEXT: memref.dealloc %arena : memref<64xi8>
// CHECK-NEXT: func.return
// CHECK-LABEL: func.func @nothing(
// CHECK-NOT: memref.alloc
// CHECK: func.return
// REPORT: plan-memory @left_alone: 1 buffers, 0 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 4 bytes live at peak, 4 bytes in all; arena: 64 bytes
// REPORT: plan-memory @nothing: 0 buffers, 0 in place, 0 in parts of others (0 copies elided); one buffer per temporary: 0 bytes live at peak, 0 bytes in all; arena: 0 bytes
func.func @left_alone(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<1xf32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %t[%c0] : memref<1xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  loop.for %i = %c0 to %n step %c1 {
    %inner = memref.alloc() : memref<4xf32>
    memref.dealloc %inner : memref<4xf32>
  }
  memref.dealloc %t : memref<1xf32>
  memref.dealloc %d : memref<?xf32>
  func.return
}
func.func @nothing() {
  func.return
}

// -----

// Parts of a concatenation (NCHW{16}c, along the channel blocks): %p's last use copies all of
// it, in order, into blocks 0-1 of %r, %q's into block 2 after a relu.  Each takes those bytes
// of %r from its start on (%r then lives from %p's start): %p's copy goes, %q's nest stays,
// now in place: it reads each element of %r where it writes it (not through %q, a second
// name of the same bytes).  %r's 192 bytes are the arena.
// CHECK-LABEL: func.func @concat(
// CHECK-NEXT: %arena = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK: %p = loop.arena_view %arena[0] : memref<192xi8> to memref<1x2x1x1x16xf32>
// CHECK: %q = loop.arena_view %arena[128] : memref<192xi8> to memref<1x1x1x1x16xf32>
// CHECK: %r = loop.arena_view %arena[0] : memref<192xi8> to memref<1x3x1x1x16xf32>
// CHECK-NOT: memref.load %p
// CHECK-NOT: memref.load %q
// CHECK: [[B:%.*]] = arith.addi {{.*}}, %c2 : index
// CHECK-NEXT: [[V:%.*]] = memref.load %r[{{%.*}}, [[B]], {{%.*}}, {{%.*}}, {{%.*}}]
// CHECK-NEXT: [[M:%.*]] = arith.maximumf [[V]]
// CHECK-NEXT: memref.store [[M]], %r[{{%.*}}, [[B]], {{%.*}}, {{%.*}}, {{%.*}}]
// CHECK: memref.load %r[
// CHECK: memref.dealloc %arena
// REPORT: plan-memory @concat: 3 buffers, 0 in place, 2 in parts of others (1 copies elided); one buffer per temporary: 384 bytes live at peak, 384 bytes in all; arena: 192 bytes
// NOINPLACE-LABEL: func.func @concat(
// NOINPLACE: memref.alloc() {alignment = 64 : i64} : memref<384xi8>
// NOINPLACE: memref.load %p[
func.func @concat(%x: memref<3x16xf32>, %out: memref<1x3x1x1x16xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x2x1x1x16xf32>
  loop.for %b = %c0 to %c2 step %c1 {
    loop.for %c = %c0 to %c16 step %c1 {
      %v = memref.load %x[%b, %c] : memref<3x16xf32>
      memref.store %v, %p[%c0, %b, %c0, %c0, %c] : memref<1x2x1x1x16xf32>
    }
  }
  %q = memref.alloc() : memref<1x1x1x1x16xf32>
  loop.for %c = %c0 to %c16 step %c1 {
    %v = memref.load %x[%c2, %c] : memref<3x16xf32>
    %w = math.exp %v : f32
    memref.store %w, %q[%c0, %c0, %c0, %c0, %c] : memref<1x1x1x1x16xf32>
  }
  %r = memref.alloc() : memref<1x3x1x1x16xf32>
  loop.for %n = %c0 to %c1 step %c1 {
    loop.for %b = %c0 to %c2 step %c1 {
      loop.for %h = %c0 to %c1 step %c1 {
        loop.for %w = %c0 to %c1 step %c1 {
          loop.for %c = %c0 to %c16 step %c1 {
            %v = memref.load %p[%n, %b, %h, %w, %c] : memref<1x2x1x1x16xf32>
            memref.store %v, %r[%n, %b, %h, %w, %c] : memref<1x3x1x1x16xf32>
          }
        }
      }
    }
  }
  memref.dealloc %p : memref<1x2x1x1x16xf32>
  loop.for %n = %c0 to %c1 step %c1 {
    loop.for %b = %c0 to %c1 step %c1 {
      loop.for %h = %c0 to %c1 step %c1 {
        loop.for %w = %c0 to %c1 step %c1 {
          loop.for %c = %c0 to %c16 step %c1 {
            %v = memref.load %q[%n, %b, %h, %w, %c] : memref<1x1x1x1x16xf32>
            %m = arith.maximumf %v, %zero : f32
            %b2 = arith.addi %b, %c2 : index
            memref.store %m, %r[%n, %b2, %h, %w, %c] : memref<1x3x1x1x16xf32>
          }
        }
      }
    }
  }
  memref.dealloc %q : memref<1x1x1x1x16xf32>
  loop.for %b = %c0 to %c3 step %c1 {
    loop.for %c = %c0 to %c16 step %c1 {
      %v = memref.load %r[%c0, %b, %c0, %c0, %c] : memref<1x3x1x1x16xf32>
      memref.store %v, %out[%c0, %b, %c0, %c0, %c] : memref<1x3x1x1x16xf32>
    }
  }
  memref.dealloc %r : memref<1x3x1x1x16xf32>
  func.return
}

// -----

// Parts left where they are: %r's block 2 is written (by a nest that is no part's copy) while
// %p lives, and %q's part starts 36 bytes into %r (3 x 3 pixels of NCHW), not on its 64-byte
// alignment: every buffer has bytes of its own and every copy stays.
// CHECK-LABEL: func.func @concat_kept(
// CHECK: %p = loop.arena_view %arena[{{[0-9]+}}] : memref<{{[0-9]+}}xi8> to memref<1x2x1x1x16xf32>
// CHECK: memref.load %p[
// CHECK: memref.load %q[
// REPORT: plan-memory @concat_kept: 4 buffers, 0 in place, 0 in parts of others (0 copies elided);
func.func @concat_kept(%x: memref<3x16xf32>, %y: memref<1x1x3x3xf32>, %out: memref<1x3x1x1x16xf32>, %out2: memref<1x2x3x3xf32>) attributes {strati.outputs = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %p = memref.alloc() : memref<1x2x1x1x16xf32>
  loop.for %b = %c0 to %c2 step %c1 {
    loop.for %c = %c0 to %c16 step %c1 {
      %v = memref.load %x[%b, %c] : memref<3x16xf32>
      memref.store %v, %p[%c0, %b, %c0, %c0, %c] : memref<1x2x1x1x16xf32>
    }
  }
  %r = memref.alloc() : memref<1x3x1x1x16xf32>
  loop.for %c = %c0 to %c16 step %c1 {
    %v = memref.load %x[%c2, %c] : memref<3x16xf32>
    memref.store %v, %r[%c0, %c2, %c0, %c0, %c] : memref<1x3x1x1x16xf32>
  }
  loop.for %n = %c0 to %c1 step %c1 {
    loop.for %b = %c0 to %c2 step %c1 {
      loop.for %h = %c0 to %c1 step %c1 {
        loop.for %w = %c0 to %c1 step %c1 {
          loop.for %c = %c0 to %c16 step %c1 {
            %v = memref.load %p[%n, %b, %h, %w, %c] : memref<1x2x1x1x16xf32>
            memref.store %v, %r[%n, %b, %h, %w, %c] : memref<1x3x1x1x16xf32>
          }
        }
      }
    }
  }
  memref.dealloc %p : memref<1x2x1x1x16xf32>
  loop.for %b = %c0 to %c3 step %c1 {
    loop.for %c = %c0 to %c16 step %c1 {
      %v = memref.load %r[%c0, %b, %c0, %c0, %c] : memref<1x3x1x1x16xf32>
      memref.store %v, %out[%c0, %b, %c0, %c0, %c] : memref<1x3x1x1x16xf32>
    }
  }
  memref.dealloc %r : memref<1x3x1x1x16xf32>
  %q = memref.alloc() : memref<1x1x3x3xf32>
  loop.for %h = %c0 to %c3 step %c1 {
    loop.for %w = %c0 to %c3 step %c1 {
      %v = memref.load %y[%c0, %c0, %h, %w] : memref<1x1x3x3xf32>
      memref.store %v, %q[%c0, %c0, %h, %w] : memref<1x1x3x3xf32>
    }
  }
  %s = memref.alloc() : memref<1x2x3x3xf32>
  loop.for %h = %c0 to %c3 step %c1 {
    loop.for %w = %c0 to %c3 step %c1 {
      %v = memref.load %y[%c0, %c0, %h, %w] : memref<1x1x3x3xf32>
      memref.store %v, %s[%c0, %c0, %h, %w] : memref<1x2x3x3xf32>
    }
  }
  loop.for %n = %c0 to %c1 step %c1 {
    loop.for %k = %c0 to %c1 step %c1 {
      loop.for %h = %c0 to %c3 step %c1 {
        loop.for %w = %c0 to %c3 step %c1 {
          %v = memref.load %q[%n, %k, %h, %w] : memref<1x1x3x3xf32>
          %k2 = arith.addi %k, %c1 : index
          memref.store %v, %s[%n, %k2, %h, %w] : memref<1x2x3x3xf32>
        }
      }
    }
  }
  memref.dealloc %q : memref<1x1x3x3xf32>
  loop.for %k = %c0 to %c2 step %c1 {
    loop.for %h = %c0 to %c3 step %c1 {
      loop.for %w = %c0 to %c3 step %c1 {
        %v = memref.load %s[%c0, %k, %h, %w] : memref<1x2x3x3xf32>
        memref.store %v, %out2[%c0, %k, %h, %w] : memref<1x2x3x3xf32>
      }
    }
  }
  memref.dealloc %s : memref<1x2x3x3xf32>
  func.return
}
