// Every npu verifier, and the description's checks, as one-line errors.
// RUN: strati-opt --load-plugin %examples/npu %s --split-input-file --verify-diagnostics
// RUN: not strati-opt --load-plugin %examples/npu %s --split-input-file 2>&1 | filecheck %s
// CHECK: invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}the tile cannot fit the scratchpads

// expected-error@+1 {{a 16x16 int8 tile needs 256 bytes, more than inp_bytes 64: the tile cannot fit the scratchpads}}
builtin.module attributes {hw.target = #hw.target<"npu", inp_bytes = 64>} {
}

// -----
// expected-error@+1 {{#hw.target dtype must be "int8" or "f32", got fp16}}
builtin.module attributes {hw.target = #hw.target<"npu", dtype = "fp16">} {
}

// -----
builtin.module attributes {hw.target = #hw.target<"npu", tile = [8, 16, 16]>} {
  func.func @f(%i: memref<1x16x16xi8, #hw.space<"inp">>, %w: memref<1x16x16xi8, #hw.space<"wgt">>, %a: memref<1x16x16xi32, #hw.space<"acc">>) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{the tile is 16x16x16, the GEMM core's is 8x16x16}}
    npu.gemm %i[%c0], %w[%c0] into %a[%c0] : memref<1x16x16xi8, #hw.space<"inp">>, memref<1x16x16xi8, #hw.space<"wgt">> into memref<1x16x16xi32, #hw.space<"acc">>
    func.return
  }
}

// -----
func.func @f(%i: memref<1x16x8xi8, #hw.space<"inp">>, %w: memref<1x16x16xi8, #hw.space<"wgt">>, %a: memref<1x16x16xi32, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{tiles 16x8 x 16x16 -> 16x16 do not match}}
  npu.gemm %i[%c0], %w[%c0] into %a[%c0] : memref<1x16x8xi8, #hw.space<"inp">>, memref<1x16x16xi8, #hw.space<"wgt">> into memref<1x16x16xi32, #hw.space<"acc">>
  func.return
}

// -----
func.func @f(%i: memref<1x16x16xi8, #hw.space<"inp">>, %w: memref<1x16x16xi8, #hw.space<"wgt">>, %a: memref<1x16x16xi8, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{multiplies i8 x i8 into i32 or f32 x f32 into f32, not i8 x i8 x i8}}
  npu.gemm %i[%c0], %w[%c0] into %a[%c0] : memref<1x16x16xi8, #hw.space<"inp">>, memref<1x16x16xi8, #hw.space<"wgt">> into memref<1x16x16xi8, #hw.space<"acc">>
  func.return
}

// -----
func.func @f(%i: memref<1x16x16xi8, #hw.space<"wgt">>, %w: memref<1x16x16xi8, #hw.space<"wgt">>, %a: memref<1x16x16xi32, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{expects a slots x rows x cols buffer in #hw.space<"inp">, got memref<1x16x16xi8, #hw.space<"wgt">>}}
  npu.gemm %i[%c0], %w[%c0] into %a[%c0] : memref<1x16x16xi8, #hw.space<"wgt">>, memref<1x16x16xi8, #hw.space<"wgt">> into memref<1x16x16xi32, #hw.space<"acc">>
  func.return
}

// -----
builtin.module attributes {hw.target = #hw.target<"npu", acc_bytes = 1024>} {
  func.func @f(%x: memref<16x16xi32>, %a: memref<2x16x16xi32, #hw.space<"acc">>) {
    %c0 = arith.constant 0 : index
    // expected-error@+1 {{a memref<2x16x16xi32, #hw.space<"acc">> buffer needs 2048 bytes, more than acc_bytes 1024}}
    npu.dma_load %x[%c0, %c0] to %a[%c0] : memref<16x16xi32> to memref<2x16x16xi32, #hw.space<"acc">>
    func.return
  }
}

// -----
func.func @f(%x: memref<16x16xf32>, %a: memref<1x16x16xi32, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{loads without conversion: the element types must be equal}}
  npu.dma_load %x[%c0, %c0] to %a[%c0] : memref<16x16xf32> to memref<1x16x16xi32, #hw.space<"acc">>
  func.return
}

// -----
func.func @f(%x: memref<16x16xi32>, %a: memref<1x16x16xi32>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{loads into a scratchpad (inp, wgt or acc), got memref<1x16x16xi32>}}
  npu.dma_load %x[%c0, %c0] to %a[%c0] : memref<16x16xi32> to memref<1x16x16xi32>
  func.return
}

// -----
func.func @f(%x: memref<16x16xf32>, %a: memref<1x16x16xi32, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{stores i32 as i32 or i32 as i8, not as f32}}
  npu.dma_store %a[%c0] to %x[%c0, %c0] : memref<1x16x16xi32, #hw.space<"acc">> to memref<16x16xf32>
  func.return
}

// -----
func.func @f(%a: memref<1x16x16xf32, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{unknown ALU op 'mul' (ops: set, add, max, shift, clip)}}
  npu.alu "mul" %a[%c0] imm [2] : memref<1x16x16xf32, #hw.space<"acc">>
  func.return
}

// -----
func.func @f(%a: memref<1x16x16xi32, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'clip' takes 2 immediates}}
  npu.alu "clip" %a[%c0] imm [0] : memref<1x16x16xi32, #hw.space<"acc">>
  func.return
}

// -----
func.func @f(%a: memref<1x16x16xf32, #hw.space<"acc">>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{shifts only i32 accumulators}}
  npu.alu "shift" %a[%c0] imm [2] : memref<1x16x16xf32, #hw.space<"acc">>
  func.return
}

// -----
func.func @f() {
  // expected-error@+1 {{unknown queue 'dma' (queues: load, compute, store)}}
  npu.sync "push" "dma" to "load"
  func.return
}

// -----
func.func @f() {
  // expected-error@+1 {{a sync joins two different queues}}
  npu.sync "pop" "load" to "load"
  func.return
}
