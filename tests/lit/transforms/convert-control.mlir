// graph.if and graph.loop at each level: their bodies become tensor IR in place; bufferized,
// each region is a private function in destination-passing style, called from loop.if or
// loop.while; the code is a conditional branch and a loop of basic blocks.
// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s --check-prefix=TENSOR
// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor,convert-tensor-to-loop | filecheck %s --check-prefix=LOOP
// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor,convert-tensor-to-loop | strati-opt --split-input-file | filecheck %s --check-prefix=LOOP
// RUN: strati-opt %s --split-input-file --emit=llvm | filecheck %s --check-prefix=LLVM

// TENSOR-LABEL: func.func @choose(
// TENSOR: [[R:%.*]] = graph.if %c : (tensor<i1>) -> tensor<4xf32> {
// TENSOR-NEXT: tensor.empty
// TENSOR-NEXT: [[A:%.*]] = tensor.generic
// TENSOR: arith.addf
// TENSOR: graph.yield [[A]] : tensor<4xf32>
// TENSOR-NEXT: } else {
// TENSOR: arith.mulf
// TENSOR: func.return [[R]]

// LOOP: func.func private @choose_then(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
// LOOP: arith.addf
// LOOP: func.func private @choose_else(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
// LOOP: arith.mulf
// LOOP-LABEL: func.func @choose(
// LOOP-SAME: %c: memref<i1>, %x: memref<4xf32>, %y: memref<4xf32>, %out: memref<4xf32>)
// LOOP-NEXT: [[C:%.*]] = memref.load %c[] : memref<i1>
// LOOP-NEXT: loop.if [[C]] {
// LOOP-NEXT: func.call @choose_then(%x, %y, %out)
// LOOP-NEXT: } else {
// LOOP-NEXT: func.call @choose_else(%x, %y, %out)
// LOOP-NEXT: }
// LOOP-NEXT: func.return

// LLVM-LABEL: define void @"choose"(
// LLVM: br i1 {{.*}}, label %"if.then", label %"if.else"
// LLVM: call void @"choose_then"(
// LLVM: call void @"choose_else"(
func.func @choose(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.if %c : (tensor<i1>) -> (tensor<4xf32>) {
    %a = graph.add %x, %y : tensor<4xf32>
    graph.yield %a : tensor<4xf32>
  } else {
    %b = graph.mul %x, %y : tensor<4xf32>
    graph.yield %b : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

// TENSOR-LABEL: func.func @accumulate(
// TENSOR: graph.loop %n (%i, %c = %t, %x = %h0) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
// TENSOR: tensor.generic
// TENSOR: graph.yield %c, {{%.*}}, {{%.*}} : tensor<i1>, tensor<4xf32>, tensor<4xf32>

// The body reads the iteration number, the condition, the carried value and %w (from above),
// and writes the next condition, carried value and scan element.
// LOOP: func.func private @accumulate_body(%i: memref<i64>, %c: memref<i1>, %x: memref<4xf32>, %w: memref<4xf32>, %out0: memref<i1>, %out1: memref<4xf32>, %out2: memref<4xf32>) attributes {strati.outputs = 3 : i64} {
// LOOP-LABEL: func.func @accumulate(
// LOOP-SAME: %h0: memref<4xf32>, %w: memref<4xf32>, %out0: memref<4xf32>, %out1: memref<3x4xf32>)
// LOOP: [[I:%.*]] = memref.alloc() : memref<i64>
// LOOP: [[C:%.*]] = memref.alloc() : memref<i1>
// LOOP: [[NC:%.*]] = memref.alloc() : memref<i1>
// LOOP: [[NX:%.*]] = memref.alloc() : memref<4xf32>
// LOOP: [[E:%.*]] = memref.alloc() : memref<4xf32>
// LOOP: [[N:%.*]] = memref.load %n[] : memref<i64>
// The scan output has 3 rows: the loop stops there at the latest.
// LOOP: [[LIMIT:%.*]] = arith.minsi [[N]], {{%.*}} : i64
// LOOP: loop.while {
// LOOP-NEXT: [[IV:%.*]] = memref.load [[I]][] : memref<i64>
// LOOP-NEXT: [[GO:%.*]] = memref.load [[C]][] : memref<i1>
// LOOP-NEXT: [[LT:%.*]] = arith.cmpi slt, [[IV]], [[LIMIT]] : i64
// LOOP-NEXT: [[AND:%.*]] = arith.andi [[LT]], [[GO]] : i1
// LOOP-NEXT: loop.condition [[AND]]
// LOOP-NEXT: } do {
// LOOP-NEXT: func.call @accumulate_body([[I]], [[C]], %out0, %w, [[NC]], [[NX]], [[E]])
// LOOP: arith.index_cast
// LOOP: memref.store {{%.*}}, %out1[{{%.*}}, {{%.*}}] : memref<3x4xf32>
// LOOP: arith.addi
// LOOP: memref.dealloc

// LLVM-LABEL: define void @"accumulate"(
// LLVM: while.cond:
// LLVM: br i1 {{.*}}, label %"while.body", label %"while.end"
// LLVM: while.body:
// LLVM: call void @"accumulate_body"(
// LLVM: br label %"while.cond"
func.func @accumulate(%h0: tensor<4xf32>, %w: tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
  %n = graph.constant dense<3> : tensor<i64>
  %t = graph.constant dense<true> : tensor<i1>
  %h, %s = graph.loop %n (%i, %c = %t, %x = %h0) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
    %f = graph.cast %i : (tensor<i64>) -> tensor<f32>
    %m = graph.mul %x, %w : tensor<4xf32>
    %y = graph.add %m, %f : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    graph.yield %c, %y, %m : tensor<i1>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %h, %s : tensor<4xf32>, tensor<3x4xf32>
}
