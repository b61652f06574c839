// plan-memory makes one arena per memory space, within the capacity the target gives it.
// RUN: strati-opt --load-plugin %S/../../unit/plugins/toy_target.py %s --split-input-file --verify-diagnostics -p plan-memory | filecheck %s
// RUN: not strati-opt %s --split-input-file -p plan-memory 2>&1 | filecheck %s --check-prefix=NOPLUGIN
// RUN: not strati-opt --load-plugin %S/../../unit/plugins/toy_target.py %s --split-input-file -p 'plan-memory{target=cpu}' 2>&1 | filecheck %s --check-prefix=NOSPACE
// NOPLUGIN: error: unknown target 'toy' (targets: cpu)

// CHECK-LABEL: func.func @fits(
// CHECK-NEXT: %arena_sram = memref.alloc() {alignment = 64 : i64} : memref<128xi8, #hw.space<"sram">>
// CHECK-NEXT: %a = loop.arena_view %arena_sram[0] : memref<128xi8, #hw.space<"sram">> to memref<16xf32, #hw.space<"sram">>
// CHECK-NEXT: %b = loop.arena_view %arena_sram[64] : memref<128xi8, #hw.space<"sram">> to memref<16xf32, #hw.space<"sram">>
// CHECK: memref.dealloc %arena_sram
// NOSPACE: error: 'func.func' op plan-memory: target 'cpu' has no memory space 'sram' (its spaces: none)
builtin.module attributes {hw.target = #hw.target<"toy", sram_bytes = 128>} {
  func.func @fits(%x: memref<16xf32>, %out: memref<16xf32>) attributes {strati.outputs = 1 : i64} {
    %a = memref.alloc() : memref<16xf32, #hw.space<"sram">>
    %b = memref.alloc() : memref<16xf32, #hw.space<"sram">>
    "toy.copy"(%x, %a) : (memref<16xf32>, memref<16xf32, #hw.space<"sram">>) -> ()
    "toy.copy"(%a, %b) : (memref<16xf32, #hw.space<"sram">>, memref<16xf32, #hw.space<"sram">>) -> ()
    "toy.copy"(%b, %out) : (memref<16xf32, #hw.space<"sram">>, memref<16xf32>) -> ()
    memref.dealloc %a : memref<16xf32, #hw.space<"sram">>
    memref.dealloc %b : memref<16xf32, #hw.space<"sram">>
    func.return
  }
}

// -----

// A scratchpad too small for what must live in it at once: a clear error.
builtin.module attributes {hw.target = #hw.target<"toy", sram_bytes = 64>} {
  // expected-error@+1 {{plan-memory: the temporaries of @overflows in space 'sram' need 128 bytes, more than its 64 (sram_bytes of target 'toy'); tile the work so that it fits}}
  func.func @overflows(%x: memref<16xf32>, %out: memref<16xf32>) attributes {strati.outputs = 1 : i64} {
    %a = memref.alloc() : memref<16xf32, #hw.space<"sram">>
    %b = memref.alloc() : memref<16xf32, #hw.space<"sram">>
    "toy.copy"(%x, %a) : (memref<16xf32>, memref<16xf32, #hw.space<"sram">>) -> ()
    "toy.copy"(%a, %b) : (memref<16xf32, #hw.space<"sram">>, memref<16xf32, #hw.space<"sram">>) -> ()
    "toy.copy"(%b, %out) : (memref<16xf32, #hw.space<"sram">>, memref<16xf32>) -> ()
    memref.dealloc %a : memref<16xf32, #hw.space<"sram">>
    memref.dealloc %b : memref<16xf32, #hw.space<"sram">>
    func.return
  }
}
