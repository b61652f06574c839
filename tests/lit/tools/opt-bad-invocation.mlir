// Bad invocations: one line on stderr, exit status 1, no traceback, no output file.
// RUN: not strati-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// PASS-NOT: Traceback
// PASS: strati-opt: error: invalid pass pipeline 'no-such-pass': Unrecognized passes: ['no-such-pass']
// RUN: not strati-opt %s -p 'fold-constants{max-elements=many}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION-NOT: Traceback
// OPTION: strati-opt: error: invalid pass pipeline 'fold-constants{max-elements=many}': Incompatible types
// RUN: not strati-opt %s -p 'fold-constants{' 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX-NOT: Traceback
// SYNTAX: strati-opt: error: invalid pass pipeline 'fold-constants{': Expected argument name here
// RUN: not strati-opt %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING-NOT: Traceback
// MISSING: strati-opt: error: cannot read '{{.*}}opt-bad-invocation.mlir.missing': no such file
// RUN: not strati-opt %S 2>&1 | filecheck %s --check-prefix=DIR
// DIR-NOT: Traceback
// DIR: strati-opt: error: cannot read '{{.*}}': it is a directory
// RUN: not strati-opt %s --load-plugin %s.nope.py 2>&1 | filecheck %s --check-prefix=PLUGIN
// PLUGIN-NOT: Traceback
// PLUGIN: strati-opt: error: cannot load plug-in '{{.*}}.nope.py': no such file

// A failing run leaves an existing output file as it was.
// RUN: %python -c "open('%t.out', 'w').write('precious\n')"
// RUN: sed 's/tensor<4xf32> {$/tensor<5xf32> {/' %s | not strati-opt -o %t.out
// RUN: filecheck %s --check-prefix=KEPT < %t.out
// KEPT: precious
// A successful run replaces it whole.
// RUN: strati-opt %s -o %t.out && filecheck %s --check-prefix=NEW < %t.out
// NEW: func.func @f

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
