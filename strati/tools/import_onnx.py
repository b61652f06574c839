"""strati-import: an ONNX model to the graph dialect.

    strati-import MODEL.onnx [-o OUT.mlir] [--report] [--print-debuginfo]
                  [--resource-threshold N] [--elide-large-constants[=N]] [--external-weights]

Prints (or writes atomically with ``-o``) the module: one ``func.func`` whose
arguments carry the ONNX input names, large weights as ``dense_resource`` blobs
(``docs/weights.md``; with ``--external-weights`` in ``OUT.weights.bin``) that
``strati-opt`` reads back.  ``--report`` prints, per op type of the model,
whether strati supports it.  An unsupported model is one line listing every
unsupported (op type, opset, attribute); a missing, malformed or truncated file
is one line too; exit status 1, no traceback.
"""

from __future__ import annotations

import argparse
import sys

from strati.frontends.onnx import import_model, support_report
from strati.source import module_text
from strati import limits, resources
from strati.tools.argparser import ToolArgumentParser
from strati.tools.common import ToolError, load_plugin, run_tool, write_text
from strati.diagnostics import StratiError

TOOL = "strati-import"


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ToolArgumentParser(prog=TOOL, description="Import an ONNX model into the graph dialect.")
    ap.add_argument("model", help="the .onnx model")
    ap.add_argument("-o", "--output", default="-", help="output file (written only on success; default stdout)")
    ap.add_argument("--report", action="store_true", help="print per op type whether it is supported, and exit")
    ap.add_argument("--print-debuginfo", action="store_true", help="print op locations (the ONNX node names)")
    ap.add_argument("--load-plugin", action="append", default=[], metavar="FILE.py|MODULE")
    resources.add_arguments(ap, external=True)
    limits.add_arguments(ap)
    return ap


def run(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    limits.apply_arguments(args)
    weights = None
    if args.external_weights:
        if args.output == "-":
            raise ToolError("--external-weights needs -o OUT.mlir (the weights go to OUT.weights.bin beside it)")
        weights = resources.weights_path(args.output)
    printing = resources.printing_from_arguments(args, weights.name if weights else None)
    for plugin in args.load_plugin:
        load_plugin(plugin)
    try:
        if args.report:
            sys.stdout.write(support_report(args.model))
            return 0
        module = import_model(args.model)
    except StratiError as err:
        raise ToolError(err.message) from None
    text = module_text(module, locations=args.print_debuginfo, resources=printing)
    if weights is not None and printing.places:
        write_text(str(weights), bytes(printing.external))
    write_text(args.output, text)
    return 0


def main(argv: list[str] | None = None) -> None:
    run_tool(TOOL, run, argv)


if __name__ == "__main__":
    main()
