// Every elementwise op and graph.constant prints in the graph syntax and round-trips, custom and generic.
// The single type is the short form when every operand and the result have that type; otherwise the
// functional type is printed. Properties holding their default value are not printed; the others are.
// Constants print decimally only when that reads back bit-exact, as a hex string otherwise.
// The functions named @bug_* at the end are regression tests of defects found here; they
// must keep passing.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @unary_float(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>, [[H:%.*]]: tensor<5xf16>, [[D:%.*]]: tensor<?x4xf64>, [[S:%.*]]: tensor<f32>)
func.func @unary_float(%x: tensor<2x3xf32>, %h: tensor<5xf16>, %d: tensor<?x4xf64>, %s: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: [[EXP:%.*]] = graph.exp [[X]] : tensor<2x3xf32>
  %exp = graph.exp %x : tensor<2x3xf32>
  // The functional form with one type everywhere prints as the short form.
  // CHECK-NEXT: [[LOG:%.*]] = graph.log [[EXP]] : tensor<2x3xf32>
  %log = graph.log %exp : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: [[SQRT:%.*]] = graph.sqrt [[H]] : tensor<5xf16>
  %sqrt = graph.sqrt %h : tensor<5xf16>
  // CHECK-NEXT: [[RSQRT:%.*]] = graph.rsqrt [[D]] : tensor<?x4xf64>
  %rsqrt = graph.rsqrt %d : tensor<?x4xf64>
  // CHECK-NEXT: [[TANH:%.*]] = graph.tanh [[S]] : tensor<f32>
  %tanh = graph.tanh %s : tensor<f32>
  // CHECK-NEXT: [[SIG:%.*]] = graph.sigmoid [[X]] : tensor<2x3xf32>
  %sig = graph.sigmoid %x : tensor<2x3xf32>
  // CHECK-NEXT: [[ERF:%.*]] = graph.erf [[D]] : tensor<?x4xf64>
  %erf = graph.erf %d : tensor<?x4xf64>
  // A dynamic dimension on either side is compatible with a static one: both forms are kept as written.
  // CHECK-NEXT: [[DYN:%.*]] = graph.exp [[X]] : (tensor<2x3xf32>) -> tensor<?x3xf32>
  %dyn = graph.exp %x : (tensor<2x3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT: [[STAT:%.*]] = graph.tanh [[D]] : (tensor<?x4xf64>) -> tensor<7x4xf64>
  %stat = graph.tanh %d : (tensor<?x4xf64>) -> tensor<7x4xf64>
  // CHECK-NEXT: func.return [[LOG]] : tensor<2x3xf32>
  func.return %log : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @unary_any(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>, [[I:%.*]]: tensor<4xi32>, [[U:%.*]]: tensor<4xui8>, [[D:%.*]]: tensor<?x?xi64>)
func.func @unary_any(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %u: tensor<4xui8>, %d: tensor<?x?xi64>) -> tensor<4xi32> {
  // CHECK-NEXT: [[NEG:%.*]] = graph.neg [[I]] : tensor<4xi32>
  %neg = graph.neg %i : tensor<4xi32>
  // CHECK-NEXT: [[NEGF:%.*]] = graph.neg [[X]] : tensor<2x3xf32>
  %negf = graph.neg %x : tensor<2x3xf32>
  // CHECK-NEXT: [[ABS:%.*]] = graph.abs [[NEG]] : tensor<4xi32>
  %abs = graph.abs %neg : tensor<4xi32>
  // CHECK-NEXT: [[ABSD:%.*]] = graph.abs [[D]] : tensor<?x?xi64>
  %absd = graph.abs %d : tensor<?x?xi64>
  // CHECK-NEXT: [[RELU:%.*]] = graph.relu [[X]] : tensor<2x3xf32>
  %relu = graph.relu %x : tensor<2x3xf32>
  // CHECK-NEXT: [[RELUI:%.*]] = graph.relu [[ABS]] : tensor<4xi32>
  %relui = graph.relu %abs : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK-NEXT: [[ID:%.*]] = graph.identity [[U]] : tensor<4xui8>
  %id = graph.identity %u : tensor<4xui8>
  // CHECK-NEXT: [[IDD:%.*]] = graph.identity [[D]] : (tensor<?x?xi64>) -> tensor<3x?xi64>
  %idd = graph.identity %d : (tensor<?x?xi64>) -> tensor<3x?xi64>
  // Discardable (dotted) attributes are kept, quoted keys included.
  // CHECK-NEXT: [[NOTE:%.*]] = graph.relu [[X]] {strati.note = "x", "strati.odd key" = 3} : tensor<2x3xf32>
  %note = graph.relu %x {"strati.note" = "x", "strati.odd key" = 3} : tensor<2x3xf32>
  // CHECK-NEXT: func.return [[RELUI]] : tensor<4xi32>
  func.return %relui : tensor<4xi32>
}

// CHECK-LABEL: func.func @unary_properties(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>, [[I:%.*]]: tensor<4xi32>, [[D:%.*]]: tensor<?x4xf32>)
func.func @unary_properties(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %d: tensor<?x4xf32>) -> tensor<2x3xf32> {
  // leaky_relu: alpha defaults to 0.01.
  // CHECK-NEXT: [[L0:%.*]] = graph.leaky_relu [[X]] : tensor<2x3xf32>
  %l0 = graph.leaky_relu %x {alpha = 0.01} : tensor<2x3xf32>
  // CHECK-NEXT: [[L1:%.*]] = graph.leaky_relu [[X]] : tensor<2x3xf32>
  %l1 = graph.leaky_relu %x : tensor<2x3xf32>
  // An integer literal is accepted for a float property and prints as a float.
  // CHECK-NEXT: [[L2:%.*]] = graph.leaky_relu [[X]] {alpha = 1.0} : tensor<2x3xf32>
  %l2 = graph.leaky_relu %x {alpha = 1} : tensor<2x3xf32>
  // CHECK-NEXT: [[L3:%.*]] = graph.leaky_relu [[D]] {alpha = -0.125} : tensor<?x4xf32>
  %l3 = graph.leaky_relu %d {alpha = -0.125} : tensor<?x4xf32>
  // Float properties keep every bit of the double.
  // CHECK-NEXT: [[L4:%.*]] = graph.leaky_relu [[X]] {alpha = 0.123456789} : tensor<2x3xf32>
  %l4 = graph.leaky_relu %x {alpha = 0.123456789} : tensor<2x3xf32>
  // CHECK-NEXT: [[L5:%.*]] = graph.leaky_relu [[X]] {alpha = 1.0e-10} : tensor<2x3xf32>
  %l5 = graph.leaky_relu %x {alpha = 1.0e-10} : tensor<2x3xf32>
  // Properties print first (in declaration order), then discardable attributes.
  // CHECK-NEXT: [[L6:%.*]] = graph.leaky_relu [[X]] {alpha = 0.2, strati.note = "x"} : tensor<2x3xf32>
  %l6 = graph.leaky_relu %x {strati.note = "x", alpha = 0.2} : tensor<2x3xf32>
  // A default property next to an attribute: only the attribute is printed.
  // CHECK-NEXT: [[L7:%.*]] = graph.leaky_relu [[X]] {strati.note = "y"} : tensor<2x3xf32>
  %l7 = graph.leaky_relu %x {alpha = 0.01, strati.note = "y"} : tensor<2x3xf32>
  // gelu: approximate defaults to "none".
  // CHECK-NEXT: [[G0:%.*]] = graph.gelu [[X]] : tensor<2x3xf32>
  %g0 = graph.gelu %x {approximate = "none"} : tensor<2x3xf32>
  // CHECK-NEXT: [[G1:%.*]] = graph.gelu [[X]] {approximate = "tanh"} : tensor<2x3xf32>
  %g1 = graph.gelu %x {approximate = "tanh"} : tensor<2x3xf32>
  // CHECK-NEXT: [[G2:%.*]] = graph.gelu [[D]] : tensor<?x4xf32>
  %g2 = graph.gelu %d : tensor<?x4xf32>
  // clip: absent bounds do not limit; min and max print in declaration order.
  // CHECK-NEXT: [[C0:%.*]] = graph.clip [[X]] {min = 0.0, max = 6.0} : tensor<2x3xf32>
  %c0 = graph.clip %x {max = 6, min = 0} : tensor<2x3xf32>
  // CHECK-NEXT: [[C1:%.*]] = graph.clip [[X]] {min = -1.5} : tensor<2x3xf32>
  %c1 = graph.clip %x {min = -1.5} : tensor<2x3xf32>
  // CHECK-NEXT: [[C2:%.*]] = graph.clip [[X]] {max = 0.1} : tensor<2x3xf32>
  %c2 = graph.clip %x {max = 0.1} : tensor<2x3xf32>
  // CHECK-NEXT: [[C3:%.*]] = graph.clip [[X]] : tensor<2x3xf32>
  %c3 = graph.clip %x : tensor<2x3xf32>
  // CHECK-NEXT: [[C4:%.*]] = graph.clip [[I]] {min = 0.0, max = 10.0} : tensor<4xi32>
  %c4 = graph.clip %i {min = 0, max = 10} : tensor<4xi32>
  // CHECK-NEXT: [[C5:%.*]] = graph.clip [[X]] {min = 2.5, max = 2.5} : tensor<2x3xf32>
  %c5 = graph.clip %x {min = 2.5, max = 2.5} : tensor<2x3xf32>
  // A float of another width stays typed.
  // CHECK-NEXT: [[C6:%.*]] = graph.clip [[X]] {min = 1.000000e+00 : f32} : tensor<2x3xf32>
  %c6 = graph.clip %x {min = 1.0 : f32} : tensor<2x3xf32>
  // dropout: ratio defaults to 0.5.
  // CHECK-NEXT: [[D0:%.*]] = graph.dropout [[X]] : tensor<2x3xf32>
  %d0 = graph.dropout %x {ratio = 0.5} : tensor<2x3xf32>
  // CHECK-NEXT: [[D1:%.*]] = graph.dropout [[X]] {ratio = 0.25} : tensor<2x3xf32>
  %d1 = graph.dropout %x {ratio = 0.25} : tensor<2x3xf32>
  // CHECK-NEXT: [[D2:%.*]] = graph.dropout [[I]] {ratio = 0.0} : tensor<4xi32>
  %d2 = graph.dropout %i {ratio = 0} : tensor<4xi32>
  // CHECK-NEXT: func.return [[C0]] : tensor<2x3xf32>
  func.return %c0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @cast(
// CHECK-SAME: [[X:%.*]]: tensor<2x3xf32>, [[I:%.*]]: tensor<?x3xi32>, [[B:%.*]]: tensor<4xi1>)
func.func @cast(%x: tensor<2x3xf32>, %i: tensor<?x3xi32>, %b: tensor<4xi1>) -> tensor<2x3xi32> {
  // CHECK-NEXT: [[CI:%.*]] = graph.cast [[X]] : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %ci = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK-NEXT: [[CH:%.*]] = graph.cast [[X]] : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %ch = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xf16>
  // CHECK-NEXT: [[CB:%.*]] = graph.cast [[X]] : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %cb = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: [[CF:%.*]] = graph.cast [[I]] : (tensor<?x3xi32>) -> tensor<?x3xf64>
  %cf = graph.cast %i : (tensor<?x3xi32>) -> tensor<?x3xf64>
  // CHECK-NEXT: [[CU:%.*]] = graph.cast [[B]] : (tensor<4xi1>) -> tensor<4xui8>
  %cu = graph.cast %b : (tensor<4xi1>) -> tensor<4xui8>
  // A cast to the same type is the short form.
  // CHECK-NEXT: [[CS:%.*]] = graph.cast [[X]] : tensor<2x3xf32>
  %cs = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: func.return [[CI]] : tensor<2x3xi32>
  func.return %ci : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @binary(
// CHECK-SAME: [[A:%.*]]: tensor<4x3xf32>, [[B:%.*]]: tensor<3xf32>, [[C:%.*]]: tensor<4x1xf32>, [[S:%.*]]: tensor<f32>, [[I:%.*]]: tensor<2x3xi32>, [[J:%.*]]: tensor<3xi32>, [[D:%.*]]: tensor<?x3xf32>)
func.func @binary(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %c: tensor<4x1xf32>, %s: tensor<f32>, %i: tensor<2x3xi32>, %j: tensor<3xi32>, %d: tensor<?x3xf32>) -> tensor<4x3xf32> {
  // CHECK-NEXT: [[ADD:%.*]] = graph.add [[A]], [[A]] : tensor<4x3xf32>
  %add = graph.add %a, %a : tensor<4x3xf32>
  // CHECK-NEXT: [[ADD2:%.*]] = graph.add [[A]], [[ADD]] : tensor<4x3xf32>
  %add2 = graph.add %a, %add : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: [[ADDB:%.*]] = graph.add [[A]], [[B]] : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %addb = graph.add %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // Both operands broadcast.
  // CHECK-NEXT: [[SUB:%.*]] = graph.sub [[C]], [[B]] : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %sub = graph.sub %c, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // A 0-d operand broadcasts to anything.
  // CHECK-NEXT: [[MUL:%.*]] = graph.mul [[S]], [[A]] : (tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %mul = graph.mul %s, %a : (tensor<f32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: [[MUL0:%.*]] = graph.mul [[S]], [[S]] : tensor<f32>
  %mul0 = graph.mul %s, %s : tensor<f32>
  // CHECK-NEXT: [[DIV:%.*]] = graph.div [[I]], [[J]] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %div = graph.div %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK-NEXT: [[POW:%.*]] = graph.pow [[A]], [[B]] : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %pow = graph.pow %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // pow alone may take an exponent of another element type; the result has the base's.
  // CHECK-NEXT: [[POWI:%.*]] = graph.pow [[A]], [[J]] : (tensor<4x3xf32>, tensor<3xi32>) -> tensor<4x3xf32>
  %powi = graph.pow %a, %j : (tensor<4x3xf32>, tensor<3xi32>) -> tensor<4x3xf32>
  // A dynamic dimension broadcast against a static one: the static size, or the declared ?.
  // CHECK-NEXT: [[MAX:%.*]] = graph.maximum [[D]], [[C]] : (tensor<?x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  %max = graph.maximum %d, %c : (tensor<?x3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: [[MAXD:%.*]] = graph.maximum [[D]], [[C]] : (tensor<?x3xf32>, tensor<4x1xf32>) -> tensor<?x3xf32>
  %maxd = graph.maximum %d, %c : (tensor<?x3xf32>, tensor<4x1xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT: [[MIN:%.*]] = graph.minimum [[D]], [[B]] : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %min = graph.minimum %d, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT: [[MINI:%.*]] = graph.minimum [[I]], [[I]] : tensor<2x3xi32>
  %mini = graph.minimum %i, %i : tensor<2x3xi32>
  // CHECK-NEXT: [[NOTE:%.*]] = graph.add [[A]], [[B]] {strati.note = "x"} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %note = graph.add %a, %b {strati.note = "x"} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: func.return [[SUB]] : tensor<4x3xf32>
  func.return %sub : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @compare(
// CHECK-SAME: [[A:%.*]]: tensor<4x3xf32>, [[B:%.*]]: tensor<3xf32>, [[I:%.*]]: tensor<4xi32>, [[P:%.*]]: tensor<4xi1>, [[D:%.*]]: tensor<?x3xf32>)
func.func @compare(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>, %d: tensor<?x3xf32>) -> tensor<4x3xi1> {
  // CHECK-NEXT: [[EQ:%.*]] = graph.equal [[A]], [[B]] : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  %eq = graph.equal %a, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK-NEXT: [[LT:%.*]] = graph.less [[I]], [[I]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %lt = graph.less %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // CHECK-NEXT: [[GT:%.*]] = graph.greater [[D]], [[B]] : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xi1>
  %gt = graph.greater %d, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xi1>
  // Comparing i1 tensors gives the short form.
  // CHECK-NEXT: [[EQP:%.*]] = graph.equal [[P]], [[P]] : tensor<4xi1>
  %eqp = graph.equal %p, %p : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // CHECK-NEXT: func.return [[EQ]] : tensor<4x3xi1>
  func.return %eq : tensor<4x3xi1>
}

// CHECK-LABEL: func.func @where(
// CHECK-SAME: [[C:%.*]]: tensor<4x1xi1>, [[X:%.*]]: tensor<3xf32>, [[Y:%.*]]: tensor<f32>, [[P:%.*]]: tensor<4xi1>, [[I:%.*]]: tensor<?x4xi64>)
func.func @where(%c: tensor<4x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>, %p: tensor<4xi1>, %i: tensor<?x4xi64>) -> tensor<4x3xf32> {
  // All three operands broadcast.
  // CHECK-NEXT: [[W:%.*]] = graph.where [[C]], [[X]], [[Y]] : (tensor<4x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %w = graph.where %c, %x, %y : (tensor<4x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<4x3xf32>
  // CHECK-NEXT: [[WP:%.*]] = graph.where [[P]], [[P]], [[P]] : tensor<4xi1>
  %wp = graph.where %p, %p, %p : tensor<4xi1>
  // CHECK-NEXT: [[WI:%.*]] = graph.where [[P]], [[I]], [[I]] : (tensor<4xi1>, tensor<?x4xi64>, tensor<?x4xi64>) -> tensor<?x4xi64>
  %wi = graph.where %p, %i, %i : (tensor<4xi1>, tensor<?x4xi64>, tensor<?x4xi64>) -> tensor<?x4xi64>
  // CHECK-NEXT: func.return [[W]] : tensor<4x3xf32>
  func.return %w : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @constants(
func.func @constants() -> tensor<4xf32> {
  // Floats that read back exactly print decimally.
  // CHECK-NEXT: [[F:%.*]] = graph.constant dense<[1.000000e+00, -2.500000e+00, 1.000000e-01, 3.000000e+10]> : tensor<4xf32>
  %f = graph.constant dense<[1.0, -2.5, 0.1, 3.0e10]> : tensor<4xf32>
  // CHECK-NEXT: [[F2:%.*]] = graph.constant dense<{{\[}}[1.500000e+00, 2.500000e+00], [3.500000e+00, -4.500000e+00]]> : tensor<2x2xf64>
  %f2 = graph.constant dense<[[1.5, 2.5], [3.5, -4.5]]> : tensor<2x2xf64>
  // CHECK-NEXT: [[H:%.*]] = graph.constant dense<[9.997559e-02, 6.550400e+04]> : tensor<2xf16>
  %h = graph.constant dense<[0.1, 65504.0]> : tensor<2xf16>
  // Integers.
  // CHECK-NEXT: [[I:%.*]] = graph.constant dense<[1, -2, 3, 2147483647]> : tensor<4xi32>
  %i = graph.constant dense<[1, -2, 3, 2147483647]> : tensor<4xi32>
  // CHECK-NEXT: [[L:%.*]] = graph.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %l = graph.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  // CHECK-NEXT: [[U:%.*]] = graph.constant dense<{{\[}}[0, 255]]> : tensor<1x2xui8>
  %u = graph.constant dense<[[0, 255]]> : tensor<1x2xui8>
  // Booleans.
  // CHECK-NEXT: [[B:%.*]] = graph.constant dense<[true, false, true]> : tensor<3xi1>
  %b = graph.constant dense<[true, false, true]> : tensor<3xi1>
  // Splats, given as one value or as equal values.
  // CHECK-NEXT: [[SF:%.*]] = graph.constant dense<1.500000e+00> : tensor<2x3xf32>
  %sf = graph.constant dense<1.5> : tensor<2x3xf32>
  // CHECK-NEXT: [[SE:%.*]] = graph.constant dense<2.000000e+00> : tensor<2xf32>
  %se = graph.constant dense<[2.0, 2.0]> : tensor<2xf32>
  // CHECK-NEXT: [[SI:%.*]] = graph.constant dense<7> : tensor<3x2xi8>
  %si = graph.constant dense<7> : tensor<3x2xi8>
  // CHECK-NEXT: [[SB:%.*]] = graph.constant dense<false> : tensor<4xi1>
  %sb = graph.constant dense<false> : tensor<4xi1>
  // 0-d tensors.
  // CHECK-NEXT: [[ZF:%.*]] = graph.constant dense<2.000000e+00> : tensor<f32>
  %zf = graph.constant dense<2.0> : tensor<f32>
  // CHECK-NEXT: [[ZI:%.*]] = graph.constant dense<-3> : tensor<i64>
  %zi = graph.constant dense<-3> : tensor<i64>
  // CHECK-NEXT: [[ZB:%.*]] = graph.constant dense<true> : tensor<i1>
  %zb = graph.constant dense<true> : tensor<i1>
  // An empty tensor.
  // CHECK-NEXT: [[E:%.*]] = graph.constant dense<> : tensor<0x3xf32>
  %e = graph.constant dense<> : tensor<0x3xf32>
  // More than 100 elements print as a hex string (little-endian bytes).
  // CHECK-NEXT: [[BIGF:%.*]] = graph.constant dense<"0x000000000000003F0000803F0000C03F0000004000002040000040400000604000008040000090400000A0400000B0400000C0400000D0400000E0400000F0400000004100000841000010410000184100002041000028410000304100003841000040410000484100005041000058410000604100006841000070410000784100008041000084410000884100008C4100009041000094410000984100009C410000A0410000A4410000A8410000AC410000B0410000B4410000B8410000BC410000C0410000C4410000C8410000CC410000D0410000D4410000D8410000DC410000E0410000E4410000E8410000EC410000F0410000F4410000F8410000FC41000000420000024200000442000006420000084200000A4200000C4200000E42000010420000124200001442000016420000184200001A4200001C4200001E42000020420000224200002442000026420000284200002A4200002C4200002E42000030420000324200003442000036420000384200003A4200003C4200003E420000404200004242000044420000464200004842"> : tensor<101xf32>
  %bigf = graph.constant dense<[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5, 12.0, 12.5, 13.0, 13.5, 14.0, 14.5, 15.0, 15.5, 16.0, 16.5, 17.0, 17.5, 18.0, 18.5, 19.0, 19.5, 20.0, 20.5, 21.0, 21.5, 22.0, 22.5, 23.0, 23.5, 24.0, 24.5, 25.0, 25.5, 26.0, 26.5, 27.0, 27.5, 28.0, 28.5, 29.0, 29.5, 30.0, 30.5, 31.0, 31.5, 32.0, 32.5, 33.0, 33.5, 34.0, 34.5, 35.0, 35.5, 36.0, 36.5, 37.0, 37.5, 38.0, 38.5, 39.0, 39.5, 40.0, 40.5, 41.0, 41.5, 42.0, 42.5, 43.0, 43.5, 44.0, 44.5, 45.0, 45.5, 46.0, 46.5, 47.0, 47.5, 48.0, 48.5, 49.0, 49.5, 50.0]> : tensor<101xf32>
  // CHECK-NEXT: [[BIGI:%.*]] = graph.constant dense<"0xCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEFF0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132"> : tensor<101xi8>
  %bigi = graph.constant dense<[-50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50]> : tensor<101xi8>
  // Values that 7 significant digits do not give back exactly print as hex and read back bit-exact:
  // 0.333333343 = 0x3EAAAAAB, 1.00000012 = 0x3F800001, 3.14159274 = 0x40490FDB, 0.1 = 0x3DCCCCCD.
  // CHECK-NEXT: [[X:%.*]] = graph.constant dense<"0xABAAAA3E0100803FDB0F4940CDCCCC3D"> : tensor<4xf32>
  %x = graph.constant dense<[0.333333343, 1.00000012, 3.14159274, 0.1]> : tensor<4xf32>
  // CHECK-NEXT: [[XD:%.*]] = graph.constant dense<"0x5F633937DD9ABF3F9A9999999999B93F"> : tensor<2xf64>
  %xd = graph.constant dense<[0.123456789, 0.1]> : tensor<2xf64>
  // CHECK-NEXT: [[XZ:%.*]] = graph.constant dense<"0xABAAAA3E"> : tensor<f32>
  %xz = graph.constant dense<0.333333343> : tensor<f32>
  // A splat prints one element (MLIR's hex splat form), however large its type.
  // CHECK-NEXT: [[XS:%.*]] = graph.constant dense<"0xABAAAA3E"> : tensor<3xf32>
  %xs = graph.constant dense<0.333333343> : tensor<3xf32>
  // Hex input that reads back exactly in decimal prints decimally; one hex element is a splat.
  // CHECK-NEXT: [[HD:%.*]] = graph.constant dense<[1.000000e+00, -1.500000e+00]> : tensor<2xf32>
  %hd = graph.constant dense<"0x0000803F0000C0BF"> : tensor<2xf32>
  // CHECK-NEXT: [[HS:%.*]] = graph.constant dense<1.000000e-01> : tensor<2x2xf32>
  %hs = graph.constant dense<"0xCDCCCC3D"> : tensor<2x2xf32>
  // CHECK-NEXT: func.return [[F]] : tensor<4xf32>
  func.return %f : tensor<4xf32>
}

// Regression: a graph.constant with a discardable attribute printed its value twice.
// CHECK-LABEL: func.func @bug_constant_attribute(
func.func @bug_constant_attribute() -> tensor<2xf32> {
  // CHECK-NEXT: [[C:%.*]] = graph.constant {strati.note = "x"} dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c = graph.constant {strati.note = "x"} dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK-NEXT: func.return [[C]] : tensor<2xf32>
  func.return %c : tensor<2xf32>
}

// Regression: values that need 7 digits (1234567.0) changed on the round trip through xDSL's
// 6-digit printer; they print exactly now.
// CHECK-LABEL: func.func @bug_constant_seven_digits(
func.func @bug_constant_seven_digits() -> tensor<2xf32> {
  // CHECK-NEXT: [[C:%.*]] = graph.constant dense<{{(\[1.234567e\+06, 1.000000e\+00\])|("0x38B496490000803F")}}> : tensor<2xf32>
  %c = graph.constant dense<[1234567.0, 1.0]> : tensor<2xf32>
  // CHECK-NEXT: [[D:%.*]] = graph.constant dense<{{(\[1.234567e\+06, 1.000000e\+00\])|("0x0000000087D63241000000000000F03F")}}> : tensor<2xf64>
  %d = graph.constant dense<[1234567.0, 1.0]> : tensor<2xf64>
  // CHECK-NEXT: func.return [[C]] : tensor<2xf32>
  func.return %c : tensor<2xf32>
}

// Regression: in the generic form, xDSL printed 16777216.0, NaN and -inf as bit patterns that
// read back as integers; strati's printer writes such constants as hex bytes.
// CHECK-LABEL: func.func @bug_constant_generic_hex(
func.func @bug_constant_generic_hex() -> tensor<3xf32> {
  // CHECK-NEXT: [[C:%.*]] = graph.constant dense<"0x0000804B0000C07F000080FF"> : tensor<3xf32>
  %c = graph.constant dense<"0x0000804B0000C07F000080FF"> : tensor<3xf32>
  // CHECK-NEXT: func.return [[C]] : tensor<3xf32>
  func.return %c : tensor<3xf32>
}

// Regression: a non-finite float property printed a traceback; it prints as a hex float.
// CHECK-LABEL: func.func @bug_float_property_inf(
func.func @bug_float_property_inf(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: [[C:%.*]] = graph.clip {{%.*}} {min = 0.0, max = {{0x7[fF][fF]0000000000000}} : f64} : tensor<4xf32>
  %c = graph.clip %x {min = 0, max = 0x7FF0000000000000 : f64} : tensor<4xf32>
  // CHECK-NEXT: func.return [[C]] : tensor<4xf32>
  func.return %c : tensor<4xf32>
}

// Regression: a bf16 constant (numpy has no bf16) printed a traceback; xDSL prints it.
// bf16 1.0 = 0x3F80, 0.1 = 0x3DCD.
// CHECK-LABEL: func.func @bug_constant_bf16(
func.func @bug_constant_bf16() -> tensor<2xbf16> {
  // CHECK-NEXT: [[C:%.*]] = graph.constant dense<{{(\[1.000000e\+00, 1.000980e-01\])|("0x803FCD3D")}}> : tensor<2xbf16>
  %c = graph.constant dense<[1.0, 0.1]> : tensor<2xbf16>
  // CHECK-NEXT: func.return [[C]] : tensor<2xbf16>
  func.return %c : tensor<2xbf16>
}
