// loop.if and loop.while print and read back, custom and generic; the regions' loop.yield
// is implicit in the custom syntax.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @count(
// CHECK-SAME: %n: memref<i64>, %flag: memref<i1>, %out: memref<i64>)
func.func @count(%n: memref<i64>, %flag: memref<i1>, %out: memref<i64>) {
  // CHECK: loop.while {
  // CHECK-NEXT: [[I:%.*]] = memref.load %out[] : memref<i64>
  // CHECK-NEXT: [[N:%.*]] = memref.load %n[] : memref<i64>
  // CHECK-NEXT: [[GO:%.*]] = arith.cmpi slt, [[I]], [[N]] : i64
  // CHECK-NEXT: loop.condition [[GO]]
  // CHECK-NEXT: } do {
  // CHECK-NEXT: [[J:%.*]] = memref.load %out[] : memref<i64>
  // CHECK-NEXT: [[K:%.*]] = arith.addi [[J]], {{%.*}} : i64
  // CHECK-NEXT: memref.store [[K]], %out[] : memref<i64>
  // CHECK-NEXT: }
  // CHECK-NEXT: [[F:%.*]] = memref.load %flag[] : memref<i1>
  // CHECK-NEXT: loop.if [[F]] {
  // CHECK-NEXT: memref.store {{%.*}}, %out[] : memref<i64>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: memref.store {{%.*}}, %out[] : memref<i64>
  // CHECK-NEXT: }
  // CHECK-NEXT: loop.if [[F]] {
  // CHECK-NEXT: memref.store {{%.*}}, %out[] : memref<i64>
  // CHECK-NEXT: }
  // CHECK-NEXT: func.return
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  memref.store %zero, %out[] : memref<i64>
  loop.while {
    %i = memref.load %out[] : memref<i64>
    %m = memref.load %n[] : memref<i64>
    %go = arith.cmpi slt, %i, %m : i64
    loop.condition %go
  } do {
    %j = memref.load %out[] : memref<i64>
    %k = arith.addi %j, %one : i64
    memref.store %k, %out[] : memref<i64>
  }
  %f = memref.load %flag[] : memref<i1>
  loop.if %f {
    memref.store %one, %out[] : memref<i64>
  } else {
    memref.store %zero, %out[] : memref<i64>
  }
  loop.if %f {
    memref.store %one, %out[] : memref<i64>
  }
  func.return
}
