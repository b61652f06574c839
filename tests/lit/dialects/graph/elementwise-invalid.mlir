// Every verifier and parse rule of the elementwise ops and graph.constant has a case here;
// the messages name what is wrong.  The last case is a regression test.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

// add: shapes that do not broadcast
func.func @case0(%a0: tensor<4x3xf32>, %a1: tensor<4xf32>) {
  // expected-error@+1 {{'graph.add' op shapes [4x3] and [4] do not broadcast (dimension 1: [3, 4])}}
  %r = graph.add %a0, %a1 : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  func.return
}

// -----

// sub: a dynamic dimension does not hide a clash elsewhere
func.func @case1(%a0: tensor<?x3xf32>, %a1: tensor<2x4xf32>) {
  // expected-error@+1 {{'graph.sub' op shapes [?x3] and [2x4] do not broadcast (dimension 1: [3, 4])}}
  %r = graph.sub %a0, %a1 : (tensor<?x3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

// pow: shapes that do not broadcast
func.func @case2(%a0: tensor<2x3xf32>, %a1: tensor<3x3xi32>) {
  // expected-error@+1 {{'graph.pow' op shapes [2x3] and [3x3] do not broadcast (dimension 0: [2, 3])}}
  %r = graph.pow %a0, %a1 : (tensor<2x3xf32>, tensor<3x3xi32>) -> tensor<2x3xf32>
  func.return
}

// -----

// less: shapes that do not broadcast
func.func @case3(%a0: tensor<5xf32>, %a1: tensor<4xf32>) {
  // expected-error@+1 {{'graph.less' op shapes [5] and [4] do not broadcast (dimension 0: [4, 5])}}
  %r = graph.less %a0, %a1 : (tensor<5xf32>, tensor<4xf32>) -> tensor<5xi1>
  func.return
}

// -----

// where: shapes that do not broadcast
func.func @case4(%a0: tensor<3xi1>, %a1: tensor<4xf32>, %a2: tensor<f32>) {
  // expected-error@+1 {{'graph.where' op shapes [3] and [4] and [scalar] do not broadcast (dimension 0: [3, 4])}}
  %r = graph.where %a0, %a1, %a2 : (tensor<3xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

// add: element types differ
func.func @case5(%a0: tensor<4xf32>, %a1: tensor<4xf64>) {
  // expected-error@+1 {{'graph.add' op operands must have the same element type, got tensor<4xf32>, tensor<4xf64>}}
  %r = graph.add %a0, %a1 : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  func.return
}

// -----

// maximum: float and integer
func.func @case6(%a0: tensor<4xf32>, %a1: tensor<4xi32>) {
  // expected-error@+1 {{'graph.maximum' op operands must have the same element type, got tensor<4xf32>, tensor<4xi32>}}
  %r = graph.maximum %a0, %a1 : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  func.return
}

// -----

// div: integer widths differ
func.func @case7(%a0: tensor<4xi32>, %a1: tensor<4xi64>) {
  // expected-error@+1 {{'graph.div' op operands must have the same element type, got tensor<4xi32>, tensor<4xi64>}}
  %r = graph.div %a0, %a1 : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi32>
  func.return
}

// -----

// equal: element types differ
func.func @case8(%a0: tensor<4xf16>, %a1: tensor<4xf32>) {
  // expected-error@+1 {{'graph.equal' op operands must have the same element type, got tensor<4xf16>, tensor<4xf32>}}
  %r = graph.equal %a0, %a1 : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}

// -----

// where: the two values differ in element type
func.func @case9(%a0: tensor<4xi1>, %a1: tensor<4xf32>, %a2: tensor<4xf64>) {
  // expected-error@+1 {{'graph.where' op operands must have the same element type, got tensor<4xf32>, tensor<4xf64>}}
  %r = graph.where %a0, %a1, %a2 : (tensor<4xi1>, tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  func.return
}

// -----

// exp: integers
func.func @case10(%a0: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.exp' op expects a floating-point tensor, got tensor<2x3xi32>}}
  %r = graph.exp %a0 : tensor<2x3xi32>
  func.return
}

// -----

// log: integers
func.func @case11(%a0: tensor<2x3xi64>) {
  // expected-error@+1 {{'graph.log' op expects a floating-point tensor, got tensor<2x3xi64>}}
  %r = graph.log %a0 : tensor<2x3xi64>
  func.return
}

// -----

// sqrt: integers
func.func @case12(%a0: tensor<2x3xi8>) {
  // expected-error@+1 {{'graph.sqrt' op expects a floating-point tensor, got tensor<2x3xi8>}}
  %r = graph.sqrt %a0 : tensor<2x3xi8>
  func.return
}

// -----

// rsqrt: integers
func.func @case13(%a0: tensor<2x3xi16>) {
  // expected-error@+1 {{'graph.rsqrt' op expects a floating-point tensor, got tensor<2x3xi16>}}
  %r = graph.rsqrt %a0 : tensor<2x3xi16>
  func.return
}

// -----

// tanh: integers
func.func @case14(%a0: tensor<2x3xui8>) {
  // expected-error@+1 {{'graph.tanh' op expects a floating-point tensor, got tensor<2x3xui8>}}
  %r = graph.tanh %a0 : tensor<2x3xui8>
  func.return
}

// -----

// sigmoid: integers
func.func @case15(%a0: tensor<2x3xi1>) {
  // expected-error@+1 {{'graph.sigmoid' op expects a floating-point tensor, got tensor<2x3xi1>}}
  %r = graph.sigmoid %a0 : tensor<2x3xi1>
  func.return
}

// -----

// erf: integers
func.func @case16(%a0: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.erf' op expects a floating-point tensor, got tensor<2x3xi32>}}
  %r = graph.erf %a0 : tensor<2x3xi32>
  func.return
}

// -----

// gelu: integers
func.func @case17(%a0: tensor<2x3xi32>) {
  // expected-error@+1 {{'graph.gelu' op expects a floating-point tensor, got tensor<2x3xi32>}}
  %r = graph.gelu %a0 : tensor<2x3xi32>
  func.return
}

// -----

// leaky_relu: integers
func.func @case18(%a0: tensor<2x3xi64>) {
  // expected-error@+1 {{'graph.leaky_relu' op expects a floating-point tensor, got tensor<2x3xi64>}}
  %r = graph.leaky_relu %a0 : tensor<2x3xi64>
  func.return
}

// -----

// gelu: integers, with a property
func.func @case19(%a0: tensor<4xi32>) {
  // expected-error@+1 {{'graph.gelu' op expects a floating-point tensor, got tensor<4xi32>}}
  %r = graph.gelu %a0 {approximate = "tanh"} : tensor<4xi32>
  func.return
}

// -----

// where: an integer condition
func.func @case20(%a0: tensor<4xi8>, %a1: tensor<4xf32>) {
  // expected-error@+1 {{'graph.where' op condition must be an i1 tensor, got tensor<4xi8>}}
  %r = graph.where %a0, %a1, %a1 : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// where: a float condition
func.func @case21(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.where' op condition must be an i1 tensor, got tensor<4xf32>}}
  %r = graph.where %a0, %a0, %a0 : tensor<4xf32>
  func.return
}

// -----

// equal: the result is i1, not the operand type (short form)
func.func @case22(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.equal' op result type tensor<4xf32> does not match the inferred type tensor<4xi1>}}
  %r = graph.equal %a0, %a0 : tensor<4xf32>
  func.return
}

// -----

// less: the result is i1
func.func @case23(%a0: tensor<4xi32>) {
  // expected-error@+1 {{'graph.less' op result type tensor<4xi8> does not match the inferred type tensor<4xi1>}}
  %r = graph.less %a0, %a0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi8>
  func.return
}

// -----

// greater: the result is i1
func.func @case24(%a0: tensor<2x3xf32>, %a1: tensor<3xf32>) {
  // expected-error@+1 {{'graph.greater' op result type tensor<2x3xf32> does not match the inferred type tensor<2x3xi1>}}
  %r = graph.greater %a0, %a1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

// gelu: approximate is "none" or "tanh"
func.func @case25(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.gelu' op approximate must be "none" or "tanh", got "exact"}}
  %r = graph.gelu %a0 {approximate = "exact"} : tensor<4xf32>
  func.return
}

// -----

// gelu: approximate is case-sensitive
func.func @case26(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.gelu' op approximate must be "none" or "tanh", got "Tanh"}}
  %r = graph.gelu %a0 {approximate = "Tanh"} : tensor<4xf32>
  func.return
}

// -----

// clip: min greater than max
func.func @case27(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.clip' op min 6.0 is greater than max 0.0}}
  %r = graph.clip %a0 {min = 6.0, max = 0.0} : tensor<4xf32>
  func.return
}

// -----

// clip: min greater than max, as integer literals on an integer tensor
func.func @case28(%a0: tensor<4xi32>) {
  // expected-error@+1 {{'graph.clip' op min 1.0 is greater than max -1.0}}
  %r = graph.clip %a0 {min = 1, max = -1} : tensor<4xi32>
  func.return
}

// -----

// relu: result shape
func.func @case29(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.relu' op result type tensor<5xf32> does not match the inferred type tensor<4xf32>}}
  %r = graph.relu %a0 : (tensor<4xf32>) -> tensor<5xf32>
  func.return
}

// -----

// neg: result element type
func.func @case30(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.neg' op result type tensor<4xf64> does not match the inferred type tensor<4xf32>}}
  %r = graph.neg %a0 : (tensor<4xf32>) -> tensor<4xf64>
  func.return
}

// -----

// exp: result rank, even with a dynamic dimension
func.func @case31(%a0: tensor<?x4xf32>) {
  // expected-error@+1 {{'graph.exp' op result type tensor<4xf32> does not match the inferred type tensor<?x4xf32>}}
  %r = graph.exp %a0 : (tensor<?x4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// leaky_relu: result shape
func.func @case32(%a0: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.leaky_relu' op result type tensor<3x2xf32> does not match the inferred type tensor<2x3xf32>}}
  %r = graph.leaky_relu %a0 {alpha = 0.2} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

// clip: result shape
func.func @case33(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.clip' op result type tensor<1xf32> does not match the inferred type tensor<4xf32>}}
  %r = graph.clip %a0 {min = 0.0} : (tensor<4xf32>) -> tensor<1xf32>
  func.return
}

// -----

// dropout: result element type
func.func @case34(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.dropout' op result type tensor<4xf16> does not match the inferred type tensor<4xf32>}}
  %r = graph.dropout %a0 : (tensor<4xf32>) -> tensor<4xf16>
  func.return
}

// -----

// identity: result shape
func.func @case35(%a0: tensor<4xi32>) {
  // expected-error@+1 {{'graph.identity' op result type tensor<2x2xi32> does not match the inferred type tensor<4xi32>}}
  %r = graph.identity %a0 : (tensor<4xi32>) -> tensor<2x2xi32>
  func.return
}

// -----

// abs: result shape
func.func @case36(%a0: tensor<4xi32>) {
  // expected-error@+1 {{'graph.abs' op result type tensor<i32> does not match the inferred type tensor<4xi32>}}
  %r = graph.abs %a0 : (tensor<4xi32>) -> tensor<i32>
  func.return
}

// -----

// cast: keeps the shape
func.func @case37(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'graph.cast' op result type tensor<5xi32> does not match the inferred type tensor<4xi32>}}
  %r = graph.cast %a0 : (tensor<4xf32>) -> tensor<5xi32>
  func.return
}

// -----

// add: the broadcast shape
func.func @case38(%a0: tensor<4x1xf32>, %a1: tensor<3xf32>) {
  // expected-error@+1 {{'graph.add' op result type tensor<4x1xf32> does not match the inferred type tensor<4x3xf32>}}
  %r = graph.add %a0, %a1 : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x1xf32>
  func.return
}

// -----

// mul: the operands' element type
func.func @case39(%a0: tensor<4xi32>) {
  // expected-error@+1 {{'graph.mul' op result type tensor<4xi64> does not match the inferred type tensor<4xi32>}}
  %r = graph.mul %a0, %a0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi64>
  func.return
}

// -----

// pow: the base's element type
func.func @case40(%a0: tensor<4xf32>, %a1: tensor<4xi32>) {
  // expected-error@+1 {{'graph.pow' op result type tensor<4xi32> does not match the inferred type tensor<4xf32>}}
  %r = graph.pow %a0, %a1 : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

// where: the values' element type
func.func @case41(%a0: tensor<4xi1>, %a1: tensor<4xf32>) {
  // expected-error@+1 {{'graph.where' op result type tensor<4xi1> does not match the inferred type tensor<4xf32>}}
  %r = graph.where %a0, %a1, %a1 : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}

// -----

// sub: a static result where the broadcast is static
func.func @case42(%a0: tensor<?x3xf32>, %a1: tensor<2x1xf32>) {
  // expected-error@+1 {{'graph.sub' op result type tensor<5x3xf32> does not match the inferred type tensor<2x3xf32>}}
  %r = graph.sub %a0, %a1 : (tensor<?x3xf32>, tensor<2x1xf32>) -> tensor<5x3xf32>
  func.return
}

// -----

// relu: an unknown property
func.func @case43(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.relu has no property 'x' (its properties: none)}}
  %r = graph.relu %a0 {x = 1} : tensor<4xf32>
  func.return
}

// -----

// leaky_relu: an unknown property lists the known ones
func.func @case44(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.leaky_relu has no property 'beta' (its properties: alpha)}}
  %r = graph.leaky_relu %a0 {beta = 1.0} : tensor<4xf32>
  func.return
}

// -----

// clip: an unknown property
func.func @case45(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.clip has no property 'lo' (its properties: min, max)}}
  %r = graph.clip %a0 {lo = 0.0} : tensor<4xf32>
  func.return
}

// -----

// add: an unknown property
func.func @case46(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.add has no property 'axis' (its properties: none)}}
  %r = graph.add %a0, %a0 {axis = 0} : tensor<4xf32>
  func.return
}

// -----

// leaky_relu: alpha is a float, not a string
func.func @case47(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.leaky_relu property 'alpha' expects a float, got "big"}}
  %r = graph.leaky_relu %a0 {alpha = "big"} : tensor<4xf32>
  func.return
}

// -----

// leaky_relu: alpha is a float, not a flag
func.func @case48(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.leaky_relu property 'alpha' expects a float, got true}}
  %r = graph.leaky_relu %a0 {alpha = true} : tensor<4xf32>
  func.return
}

// -----

// leaky_relu: only an untyped integer literal is taken as a float
func.func @case49(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.leaky_relu property 'alpha' expects a float, got 2 : i32}}
  %r = graph.leaky_relu %a0 {alpha = 2 : i32} : tensor<4xf32>
  func.return
}

// -----

// clip: max is a float
func.func @case50(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.clip property 'max' expects a float}}
  %r = graph.clip %a0 {max = array<f32: 6.0>} : tensor<4xf32>
  func.return
}

// -----

// dropout: ratio is a float
func.func @case51(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.dropout property 'ratio' expects a float}}
  %r = graph.dropout %a0 {ratio = "half"} : tensor<4xf32>
  func.return
}

// -----

// gelu: approximate is a string
func.func @case52(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.gelu property 'approximate' expects a string, got 1}}
  %r = graph.gelu %a0 {approximate = 1} : tensor<4xf32>
  func.return
}

// -----

// leaky_relu: a property given twice
func.func @case53(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'alpha' is given twice}}
  %r = graph.leaky_relu %a0 {alpha = 0.1, alpha = 0.2} : tensor<4xf32>
  func.return
}

// -----

// clip: a property given twice, with the same value
func.func @case54(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'min' is given twice}}
  %r = graph.clip %a0 {min = 0.0, max = 1.0, min = 0.0} : tensor<4xf32>
  func.return
}

// -----

// relu: a discardable attribute given twice
func.func @case55(%a0: tensor<4xf32>) {
  // expected-error@+1 {{'strati.note' is given twice}}
  %r = graph.relu %a0 {strati.note = "a", strati.note = "b"} : tensor<4xf32>
  func.return
}

// -----

// add: one operand, short form
func.func @case56(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.add: expected 2 operands, got 1}}
  %r = graph.add %a0 : tensor<4xf32>
  func.return
}

// -----

// add: one operand, two operand types
func.func @case57(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.add has 1 operands but 2 operand types}}
  %r = graph.add %a0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// sub: two operands, one operand type
func.func @case58(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.sub has 2 operands but 1 operand types}}
  %r = graph.sub %a0, %a0 : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// relu: two operands
func.func @case59(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.relu: expected 1 operands, got 2}}
  %r = graph.relu %a0, %a0 : tensor<4xf32>
  func.return
}

// -----

// exp: no operand
func.func @case60(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.exp: expected 1 operands, got 0}}
  %r = graph.exp : tensor<4xf32>
  func.return
}

// -----

// where: two operands
func.func @case61(%a0: tensor<4xi1>, %a1: tensor<4xf32>) {
  // expected-error@+1 {{graph.where: expected 3 operands, got 2}}
  %r = graph.where %a0, %a1 : (tensor<4xi1>, tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// equal: three operands
func.func @case62(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.equal: expected 2 operands, got 3}}
  %r = graph.equal %a0, %a0, %a0 : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return
}

// -----

// relu: two results
func.func @case63(%a0: tensor<4xf32>) {
  // expected-error@+1 {{graph.relu: expected 1 results, got 2}}
  %r = graph.relu %a0 : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return
}

// -----

// relu: generic form with an operand that is not a tensor
func.func @case64(%a0: f32) {
  // expected-error@+1 {{'graph.relu' op operand 'x' at position 0 does not verify}}
  %r = "graph.relu"(%a0) : (f32) -> f32
  func.return
}

// -----

// constant: a scalar, not a dense tensor
func.func @case65() {
  // expected-error@+1 {{graph.constant expects a dense<...> : tensor<...> value}}
  %r = graph.constant 1.0 : f32
  func.return
}

// -----

// constant: an array, not a dense tensor
func.func @case66() {
  // expected-error@+1 {{graph.constant expects a dense<...> : tensor<...> value}}
  %r = graph.constant array<i64: 1, 2>
  func.return
}

// -----

// constant: a string, not a dense tensor
func.func @case67() {
  // expected-error@+1 {{graph.constant expects a dense<...> : tensor<...> value}}
  %r = graph.constant "0x0000803F"
  func.return
}

// -----

// constant: a dense vector is not a tensor
func.func @case68() {
  // expected-error@+1 {{'graph.constant' op result 'result' at position 0 does not verify}}
  %r = graph.constant dense<[1.0, 2.0]> : vector<2xf32>
  func.return
}

// -----

// constant: generic form with a non-dense value
func.func @case69() {
  // expected-error@+1 {{'graph.constant' op 1.000000e+00 : f32 should be of base attribute dense}}
  %r = "graph.constant"() <{value = 1.0 : f32}> : () -> tensor<f32>
  func.return
}

// -----

// constant: generic form, the result type is the value's
func.func @case70() {
  // expected-error@+1 {{'graph.constant' op result type tensor<3xf32> does not match the inferred type tensor<2xf32>}}
  %r = "graph.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  func.return
}

// -----

// graph.constant rejects a `value = ...` entry in its braces (it used to drop it silently)
// (parse_properties takes `value` as a property, ConstantOp.parse keeps only the attributes),
// so this constant is 2.0 and the 1.0 vanishes without a word.  It should be rejected.
func.func @case71() {
  // expected-error@+1 {{graph.constant takes its value after the braces, not as 'value = ...'}}
  %r = graph.constant {value = dense<1.0> : tensor<f32>} dense<2.0> : tensor<f32>
  func.return
}

// -----

func.func @bool_arithmetic(%a: tensor<4xi1>) {
  // expected-error@+1 {{'graph.add' op expects a numeric tensor, got tensor<4xi1>}}
  %r = graph.add %a, %a : tensor<4xi1>
  func.return
}

// -----

func.func @bool_neg(%a: tensor<4xi1>) {
  // expected-error@+1 {{'graph.neg' op expects a numeric tensor, got tensor<4xi1>}}
  %r = graph.neg %a : tensor<4xi1>
  func.return
}

// -----

func.func @dropout_ratio(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.dropout' op ratio must be in [0, 1), got 1.5}}
  %r = graph.dropout %a {ratio = 1.5} : tensor<4xf32>
  func.return
}
