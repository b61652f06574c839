// strati-translate --to llvm-ir: buffers are noalias pointers, elements are reached by
// getelementptr inbounds on row-major linear indices, loops are phi loops, floats carry
// reassoc/contract/afn (never nnan/ninf), maximumf keeps NaN, and @f gets an entry wrapper.
// RUN: strati-translate %s --to llvm-ir | filecheck %s
// CHECK-LABEL: define void @"f"(ptr noalias %"a", ptr noalias %"b", ptr noalias %"out")
// CHECK: alloca [4096 x i8], align 64
// CHECK: [[I:%"i"]] = phi  i64 [0, {{.*}}], [%"i.next", {{.*}}]
// CHECK: icmp slt i64 [[I]], 4
// CHECK: [[J:%"j"]] = phi  i64
// CHECK: [[ROW:%.*]] = mul nuw nsw i64 [[I]], 256
// CHECK-NEXT: [[LIN:%.*]] = add nuw nsw i64 [[ROW]], [[J]]
// CHECK-NEXT: [[PA:%.*]] = getelementptr inbounds float, ptr %"a", i64 [[LIN]]
// CHECK-NEXT: %"x" = load float, ptr [[PA]], align 4
// CHECK: getelementptr inbounds float, ptr %"b", i64 [[J]]
// CHECK: %"s" = fadd reassoc contract afn float %"x", %"y"
// CHECK-NOT: nnan
// CHECK: %"m" = call float @"llvm.maximum.f32"(float %"s", float
// CHECK: %"e" = call afn contract float @"llvm.exp.f32"(float %"m")
// CHECK: %"t" = call float @"tanhf"(float %"e")
// CHECK: %"j.next" = add nsw i64 [[J]], 1
// CHECK-NEXT: br label %"j.header", !llvm.loop [[LOOP:![0-9]+]]
// CHECK: ret void
// CHECK: declare float @"tanhf"(float {{.*}}) memory(none) nounwind
// CHECK-LABEL: define void @"f_entry"(ptr %"args")
// CHECK-NEXT: {
// CHECK-NEXT: entry:
// CHECK-NEXT: [[S0:%.*]] = getelementptr inbounds ptr, ptr %"args", i64 0
// CHECK-NEXT: %"a" = load ptr, ptr [[S0]], align 8
// CHECK: [[S2:%.*]] = getelementptr inbounds ptr, ptr %"args", i64 2
// CHECK-NEXT: %"out" = load ptr, ptr [[S2]], align 8
// CHECK-NEXT: call void @"f"(ptr %"a", ptr %"b", ptr %"out")
// CHECK-NEXT: ret void
// CHECK: [[WIDTH:![0-9]+]] = !{ !"llvm.loop.vectorize.width", i32 8 }
// CHECK: [[LOOP]] = !{ [[LOOP]], [[WIDTH]], {{.*}} }

// --opt: after O3 for this CPU the inner loop is vectorized (the width depends on the CPU).
// RUN: strati-translate %s --to llvm-ir --opt | filecheck %s --check-prefix=OPT
// OPT: define void @f(ptr noalias
// OPT: fadd reassoc contract afn <{{[0-9]+}} x float>
// OPT: @llvm.maximum.v{{[0-9]+}}f32
// OPT: define void @f_entry(ptr

// Graph-level input goes down the standard pipeline first.
// RUN: strati-translate %examples/mlp.mlir --to llvm-ir | filecheck %s --check-prefix=GRAPH
// GRAPH: define void @"mlp"(ptr noalias %"x", {{.*}}ptr noalias %"out")
// GRAPH: define void @"mlp_entry"(ptr %"args")

// --to dot: ops are nodes labelled with their name and result type, SSA uses are edges.
// RUN: strati-translate %examples/mlp.mlir --to dot | filecheck %s --check-prefix=DOT
// DOT: digraph strati {
// DOT: subgraph cluster_f0 {
// DOT-NEXT: label="@mlp";
// DOT-NEXT: [[X:f0_arg0]] [shape=ellipse, label="%x: tensor<4x64xf32>"];
// DOT: [[GEMM:f0_op[0-9]+]] [shape=box, label="graph.gemm\ntensor<4x32xf32>"];
// DOT-NEXT: [[X]] -> [[GEMM]] [label="0"];
// DOT: [[RELU:f0_op[0-9]+]] [shape=box, label="graph.relu\ntensor<4x32xf32>"];
// DOT-NEXT: [[GEMM]] -> [[RELU]];
// DOT: label="func.return"];

// Bad input: one diagnostic line (file:line:col for the op), exit status 1, no traceback.
// RUN: sed 's/memref<256xf32>/memref<?xf32>/' %s | not strati-translate --to llvm-ir 2>&1 | filecheck %s --check-prefix=DYN
// DYN-NOT: Traceback
// DYN: <stdin>:[[# @LINE + 17]]:1: error: 'func.func' op memref<?xf32> has a dynamic shape; the LLVM code generator needs static shapes
// RUN: sed 's|^//@bad ||' %s | not strati-translate --to llvm-ir 2>&1 | filecheck %s --check-prefix=NOGEN
// NOGEN-NOT: Traceback
// NOGEN: <stdin>:[[# @LINE + 39]]:3: error: 'math.ipowi' op cannot be translated to LLVM IR (the code generator supports func, arith, math, memref, loop and vector ops, and ops that register an 'emit')
// RUN: sed 's/func.return$/func.return %%nothing/' %s | not strati-translate --to llvm-ir 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX-NOT: Traceback
// SYNTAX: <stdin>:[[# @LINE + 39]]:1: error: Expected ':'
// RUN: not strati-translate %s.missing --to llvm-ir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING-NOT: Traceback
// MISSING: strati-translate: error: cannot read '{{.*}}translate.mlir.missing': no such file
// RUN: not strati-translate %s --to dot --entry nope 2>&1 | filecheck %s --check-prefix=ENTRY
// ENTRY: strati-translate: error: no function named @nope
// RUN: not strati-translate %s --to llvm-ir --opt -o %t.ll --load-plugin %s.nope.py 2>&1 | filecheck %s --check-prefix=PLUGIN
// PLUGIN: strati-translate: error: cannot load plug-in '{{.*}}.nope.py': no such file
// A failed translation writes nothing.
// RUN: rm -f %t.ll && sed 's|^//@bad ||' %s | not strati-translate --to llvm-ir -o %t.ll && not test -e %t.ll

func.func @f(%a: memref<4x256xf32>, %b: memref<256xf32>, %out: memref<4x256xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<4x256xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c256 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x256xf32>
      %y = memref.load %b[%j] : memref<256xf32>
      %s = arith.addf %x, %y : f32
      %m = arith.maximumf %s, %zero : f32
      %e = math.exp %m : f32
      %t = math.tanh %e : f32
      memref.store %t, %tmp[%i, %j] : memref<4x256xf32>
    } {vector_width = 8}
  } {parallel = true}
  %flat = loop.view %tmp : memref<4x256xf32> to memref<1024xf32>
  %oflat = loop.view %out : memref<4x256xf32> to memref<1024xf32>
  %c1024 = arith.constant 1024 : index
  loop.for %k = %c0 to %c1024 step %c1 {
    %v = memref.load %flat[%k] : memref<1024xf32>
    memref.store %v, %oflat[%k] : memref<1024xf32>
  }
//@bad   %p = math.ipowi %c4, %c4 : index
  memref.dealloc %tmp : memref<4x256xf32>
  func.return
}
