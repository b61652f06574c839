// A bad flag is one line naming it, as any other bad input (not argparse's usage and status 2;
// tests/unit/test_tool_flags.py checks the status is 1).
// RUN: not strati-opt %s --bogus 2>&1 | filecheck %s --check-prefix=OPT
// OPT: strati-opt: error: unrecognized arguments: --bogus (see strati-opt --help)
// OPT-NOT: usage
// RUN: not strati-opt %s -O 7 2>&1 | filecheck %s --check-prefix=LEVEL
// LEVEL: strati-opt: error: argument -O: invalid choice: {{'?}}7{{'?}} (choose from {{.*}}) (see strati-opt --help)
// LEVEL-NOT: usage
// RUN: not strati-run %s --random-inputs -1 2>&1 | filecheck %s --check-prefix=RUNTOOL
// RUNTOOL: strati-run: error: argument --random-inputs: --random-inputs takes an integer >= 0, got '-1' (see strati-run --help)
// RUNTOOL-NOT: usage
// RUN: not strati-translate %s 2>&1 | filecheck %s --check-prefix=TRANSLATE
// TRANSLATE: strati-translate: error: the following arguments are required: --to (see strati-translate --help)
// TRANSLATE-NOT: usage
// RUN: not strati-import 2>&1 | filecheck %s --check-prefix=IMPORT
// IMPORT: strati-import: error: the following arguments are required: {{.*}} (see strati-import --help)
// IMPORT-NOT: usage
// RUN: not strati-reduce %s 2>&1 | filecheck %s --check-prefix=REDUCE
// REDUCE: strati-reduce: error: the following arguments are required: --test (see strati-reduce --help)
// REDUCE-NOT: usage
// RUN: strati-opt --help | filecheck %s --check-prefix=HELP
// HELP: usage: strati-opt

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
