"""strati-translate: a module out of MLIR, into LLVM IR or a Graphviz picture.

    strati-translate FILE --to llvm-ir [--opt]     LLVM IR (as generated; --opt: after O3 for this CPU)
    strati-translate FILE --to dot [--entry F]     a Graphviz digraph: ops and the SSA uses between them

``--to llvm-ir`` translates loop- and hw-level input as it is; graph- and
tensor-level input is first lowered with the standard pipeline, as
``strati.compile`` does.  Bad input (malformed IR, an op
the code generator does not know, an unreadable file) is one diagnostic line
``file:line:col: error: ...`` on stderr and exit status 1; nothing is written.
"""

from __future__ import annotations

import argparse

from strati.diagnostics import DiagnosticError, StratiError, op_diagnostic
from strati.source import load_module
from strati import limits, progress
from strati.tools.argparser import ToolArgumentParser
from strati.tools.common import ToolError, load_plugin, read_text, run_tool, write_text

TOOL = "strati-translate"


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ToolArgumentParser(prog=TOOL, description="Translate an .mlir module to LLVM IR or Graphviz dot.")
    ap.add_argument("input_file", nargs="?", default="-", help="input .mlir file ('-' or absent: stdin)")
    ap.add_argument("--to", required=True, choices=["llvm-ir", "dot"], help="what to produce")
    ap.add_argument("--opt", action="store_true", help="llvm-ir: optimise (O3 for the host CPU, as the JIT does)")
    ap.add_argument("--entry", help="dot: only this function")
    ap.add_argument("-o", "--output", default="-", help="output file (written only on success)")
    ap.add_argument("--load-plugin", action="append", default=[], metavar="FILE.py|MODULE",
                    help="import a plug-in that registers dialects, op attributes or passes")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress line on a terminal during a long compile")
    limits.add_arguments(ap)
    return ap


def translate(args: argparse.Namespace, filename: str) -> str:
    module = load_module(read_text(args.input_file), filename)
    if args.to == "dot":
        from strati.codegen.dot import module_to_dot

        return module_to_dot(module, args.entry)
    from strati.compiler import LEVELS, lower_to, module_level

    if module_level(module) in ("graph", "tensor"):  # buffer-level input is translated as it is
        lower_to(module, LEVELS[-1])
    if args.opt:
        from strati.runtime.jit import optimized_llvm_ir

        return optimized_llvm_ir(module)
    from strati.codegen.llvm import module_to_llvm_ir

    return module_to_llvm_ir(module)


def run(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    limits.apply_arguments(args)
    if args.quiet:
        progress.silence()
    for plugin in args.load_plugin:
        load_plugin(plugin)
    filename = "<stdin>" if args.input_file == "-" else args.input_file
    try:
        text = translate(args, filename)
    except StratiError as err:
        if err.op is None:
            raise ToolError(err.message) from None
        raise DiagnosticError(op_diagnostic(err.message, err.op, filename)) from None
    write_text(args.output, text)
    return 0


def main(argv: list[str] | None = None) -> None:
    run_tool(TOOL, run, argv)


__all__ = ["main", "run"]


if __name__ == "__main__":
    main()
