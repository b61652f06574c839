"""strati-opt: parse IR, run a pass pipeline, print the result.

Every failure on the user's input (malformed IR, an unknown op, a verifier
failure, an unknown pass or option, an unreadable file) is one diagnostic on
stderr, ``file:line:col: error: ...`` where there is a location, and exit status 1;
no output file is written unless everything succeeded.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import DiagnosticException, ParseError

from strati import registry
from strati.compiler import LEVELS
from strati.context import make_context
from strati.diagnostics import (
    Diagnostic,
    DiagnosticError,
    StratiError,
    diagnostic_message,
    op_diagnostic,
    parse_diagnostic,
    verify_module,
)
from strati.source import module_text, parse_module
from strati import limits, progress, resources
from strati.tools.argparser import ToolArgumentParser
from strati.tools.common import Timing, ToolError, run_tool, load_plugin, read_text, write_text
from strati.transforms import available_passes, strati_passes

TOOL = "strati-opt"
SPLIT_MARKER = re.compile(r"^// -----[ \t]*$", re.MULTILINE)


# --- expected diagnostics (MLIR's -verify-diagnostics) -------------------------------

EXPECTATION = re.compile(r"expected-(error|warning|note|remark)(?:@([+-]\d+))?\s*\{\{(.*?)\}\}")


@dataclass
class Expectation:
    line: int
    message: str
    kind: str
    seen: bool = field(default=False)


def expectations(text: str) -> list[Expectation]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for m in EXPECTATION.finditer(line):
            found.append(Expectation(number + int(m.group(2) or 0), m.group(3), m.group(1)))
    return found


def check_expectations(text: str, diagnostics: list[Diagnostic], filename: str) -> list[str]:
    """Problems: diagnostics nobody expected, and expectations that no diagnostic met."""
    expected = expectations(text)
    problems = []
    for diag in diagnostics:
        match = next(
            (e for e in expected if not e.seen and e.kind == "error" and e.line == diag.line and e.message in diag.message),
            None,
        )
        if match is None:
            problems.append(f"{diag.file}:{diag.line}:{diag.col}: error: unexpected error: {diag.message}")
        else:
            match.seen = True
    for e in expected:
        if not e.seen:
            problems.append(f'{filename}:{e.line}: error: expected {e.kind} "{e.message}" was not produced')
    return problems


# --- the driver ----------------------------------------------------------------------


class Driver:
    def __init__(self, args: argparse.Namespace, passes: tuple[ModulePass, ...]):
        self.args = args
        self.passes = passes
        self.filename = "<stdin>" if args.input_file in (None, "-") else args.input_file
        self.timing = Timing()
        self.tree_files = 0
        self.weights: Path | None = None  # --external-weights: OUT.weights.bin
        self.printing: resources.ResourcePrinting | None = None  # the last chunk's, with its external bytes

    def process(self, text: str, chunk: int) -> tuple[list[Diagnostic], str | None]:
        """Parse, verify, run the passes and print one chunk of input."""
        ctx = make_context(allow_unregistered=self.args.allow_unregistered_dialect)
        start = time.perf_counter()
        try:
            module = parse_module(ctx, text, self.filename)
        except ParseError as err:
            return [parse_diagnostic(err)], None
        finally:
            self.timing.add("Parser", time.perf_counter() - start)
        if (diag := self.verify(module)) is not None:
            return [diag], None
        try:
            passes = [*self.passes, *self.emit_passes(module)]
            validator = self.validator(module)
        except StratiError as err:
            return [op_diagnostic(err.message, err.op, self.filename)], None
        with progress.compiling(len(passes)) as shown:
            return self.run_passes(ctx, module, passes, validator, chunk, shown)

    def run_passes(self, ctx: Context, module: ModuleOp, passes: list[ModulePass], validator, chunk: int,
                   shown: progress.Progress) -> tuple[list[Diagnostic], str | None]:
        """Run the passes on one parsed chunk, verify, and print it (or say what failed)."""
        for index, p in enumerate(passes):
            shown.step(p.name, module)
            before = module_text(module, generic=True) if self.args.crash_reproducer else None
            start = time.perf_counter()
            try:
                p.apply(ctx, module)
            except DiagnosticError as err:  # a rules file's error, at its own location
                return [err.diagnostic], None
            except StratiError as err:
                return [op_diagnostic(err.message, err.op, self.filename)], None
            except DiagnosticException as err:
                return [Diagnostic(f"pass '{p.name}' failed: {diagnostic_message(err)}", self.filename)], None
            except Exception as err:  # noqa: BLE001 - a bug in a pass: say which, keep a reproducer
                return [self.internal_error(p, err, before)], None
            finally:
                self.timing.add(p.name, time.perf_counter() - start)
            if (self.args.verify_passes or index == len(passes) - 1) and (diag := self.verify(module)) is not None:
                where = f"pass '{p.name}'" if self.args.verify_passes else \
                    "the last pass (rerun without --no-verify-passes to name the pass at fault)"
                diag.message = f"after {where}: {diag.message}"
                return [diag], None
            if validator is not None:
                try:
                    validator.check(p.name, module)
                except StratiError as err:
                    self.save_reproducer(p, before)
                    return [op_diagnostic(err.message, err.op, self.filename)], None
            self.after_pass(p, module, index, chunk)
        start = time.perf_counter()
        if self.args.emit == "llvm":
            from strati.codegen.llvm import module_to_llvm_ir

            try:
                out = module_to_llvm_ir(module)
            except StratiError as err:
                return [op_diagnostic(err.message, err.op, self.filename)], None
        else:
            self.printing = resources.printing_from_arguments(self.args, self.weights.name if self.weights else None)
            out = module_text(module, generic=self.args.print_op_generic, locations=self.args.print_debuginfo,
                              resources=self.printing)
        self.timing.add("Output", time.perf_counter() - start)
        return [], out

    def emit_passes(self, module: ModuleOp) -> list[ModulePass]:
        """``--emit=LEVEL``: the standard pipeline's passes from the module's level down to LEVEL."""
        if self.args.emit is None:
            return []
        from strati.compiler import LEVELS, make_passes, module_level, optimizations_for, passes_between

        stop = LEVELS[-1] if self.args.emit == "llvm" else self.args.emit
        level = module_level(module)
        if LEVELS.index(level) > LEVELS.index(stop):
            raise StratiError(f"the module is at the {level} level, below --emit={self.args.emit}")
        names = passes_between(level, stop, optimizations_for(self.args.opt_level))
        return make_passes(names, self.args.target, self.args.print_strategy)

    def validator(self, module: ModuleOp):
        """``--verify-each-numerics``: the module's results on seeded random inputs, to check each pass against."""
        if not self.args.verify_each_numerics:
            return None
        from strati.pass_validation import PassValidator

        import warnings

        warnings.simplefilter("ignore", RuntimeWarning)  # numpy on the random inputs' infinities
        warnings.showwarning = lambda message, *_: print(f"{TOOL}: warning: {message}", file=sys.stderr)
        return PassValidator(module, self.args.numerics_seed)

    def save_reproducer(self, p: ModulePass, before: str | None) -> bool:
        """``--crash-reproducer``: the IR the pass was given, headed by the pipeline that fails on it."""
        if not self.args.crash_reproducer or before is None:
            return False
        spec = str(p.pipeline_pass_spec())
        write_text(self.args.crash_reproducer, f"// strati-opt -p '{spec}'\n{before}")
        return True

    def verify(self, module: ModuleOp) -> Diagnostic | None:
        start = time.perf_counter()
        diag = verify_module(module, self.filename)
        self.timing.add("Verifier", time.perf_counter() - start)
        return diag

    def internal_error(self, p: ModulePass, err: Exception, before: str | None) -> Diagnostic:
        msg = f"internal error in pass '{p.name}': {type(err).__name__}: {err}"
        if self.save_reproducer(p, before):
            msg += f" (reproducer written to {self.args.crash_reproducer})"
        else:
            msg += " (rerun with --crash-reproducer=FILE to save the IR that makes it fail)"
        return Diagnostic(msg, self.filename)

    def after_pass(self, p: ModulePass, module: ModuleOp, index: int, chunk: int) -> None:
        spec = str(p.pipeline_pass_spec(include_default=True))
        if self.args.print_ir_after_all:
            sys.stderr.write(f"// -----// IR Dump After {spec} //----- //\n")
            sys.stderr.write(module_text(module))
        if self.args.print_ir_tree_dir:
            directory = Path(self.args.print_ir_tree_dir)
            if self.args.split_input_file:
                directory = directory / f"chunk{chunk}"
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / f"{index}_{p.name}.mlir"
            path.write_text(f"// IR after pass {index}: {spec}\n" + module_text(module), encoding="utf-8")


def split_chunks(text: str) -> list[str]:
    """Chunks separated by ``// -----``, each padded with blank lines to keep its line numbers."""
    chunks, offset = [], 0
    for part in SPLIT_MARKER.split(text):
        chunks.append("\n" * offset + part)
        offset += part.count("\n")
    return chunks


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ToolArgumentParser(prog=TOOL, description="Parse MLIR, run passes, print the result.")
    ap.add_argument("input_file", nargs="?", default="-", help="input .mlir file ('-' or absent: stdin)")
    ap.add_argument("-o", "--output", default="-", help="output file (written only on success)")
    ap.add_argument("-p", "--passes", default="", help="pass pipeline, e.g. 'infer-shapes,fold-constants{max-elements=64}'")
    ap.add_argument("--emit", choices=[*LEVELS, "llvm"],
                    help="run the standard pipeline down to this level (after -p); llvm prints LLVM IR")
    ap.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=0, metavar="{0,1,2,3}",
                    help="with --emit: the optimisation level (docs/optimization.md); default 0, lowering only")
    ap.add_argument("--split-input-file", action="store_true", help="process each '// -----' chunk on its own")
    ap.add_argument("--verify-diagnostics", action="store_true", help="check '// expected-error@+N {{...}}' annotations")
    ap.add_argument("--print-op-generic", action="store_true", help="print the generic op form")
    ap.add_argument("--print-debuginfo", action="store_true", help="print op locations")
    ap.add_argument("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    ap.add_argument("--print-ir-after-all", action="store_true", help="print the IR after every pass to stderr")
    ap.add_argument("--print-ir-tree-dir", metavar="DIR", help="write the IR after every pass to a numbered file in DIR")
    ap.add_argument("--time-passes", action="store_true", help="print a timing report to stderr")
    ap.add_argument("--no-verify-passes", dest="verify_passes", action="store_false",
                    help="verify the input and the final IR only, not the IR after every pass")
    ap.add_argument("--crash-reproducer", metavar="FILE",
                    help="when a pass crashes (or, with --verify-each-numerics, changes the results), save the IR it was given")
    ap.add_argument("--verify-each-numerics", action="store_true",
                    help="run the module on seeded random inputs before and after each pass; stop at the first that changes the results")
    ap.add_argument("--numerics-seed", type=int, default=0, metavar="SEED", help="the seed of --verify-each-numerics (default 0)")
    ap.add_argument("--load-plugin", action="append", default=[], metavar="FILE.py|MODULE",
                    help="import a plug-in that registers dialects, op attributes or passes")
    ap.add_argument("--target", metavar="NAME", help="the target --emit lowers for (default: the module's hw.target, else cpu)")
    ap.add_argument("--print-strategy", action="store_true",
                    help="with --emit: say which strategy each op gets on the target, and why (stderr)")
    ap.add_argument("--list-passes", action="store_true", help="list the passes and exit")
    ap.add_argument("--list-targets", action="store_true", help="list the registered targets and exit")
    ap.add_argument("--list-op-attrs", action="store_true", help="print the op x attribute table and exit")
    ap.add_argument("--rules", action="append", default=[], metavar="FILE.rules",
                    help="after -p, apply the file's rewrite rules with the canonicalize patterns (pass apply-rules)")
    ap.add_argument("--verify-each", action="store_true", help="re-verify the IR after every rule application")
    ap.add_argument("--list-rules", action="store_true", help="list the loaded rules and where each came from, and exit")
    ap.add_argument("--print-rules", metavar="FILE.rules", help="check a rules file, print it in canonical form, and exit")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress line on a terminal during a long compile")
    resources.add_arguments(ap, external=True)
    limits.add_arguments(ap)
    return ap


def list_passes() -> str:
    ours = strati_passes()
    lines = ["strati passes:"]
    for name, reg in ours.items():
        doc = (reg.value().__doc__ or "").strip().splitlines()
        origin = "" if reg.origin.startswith("strati.") else f"  [{reg.origin}]"
        lines.append(f"  {name:24} {doc[0] if doc else ''}{origin}")
    lines.append("xDSL passes:")
    lines += [f"  {name}" for name in sorted(set(available_passes()) - set(ours.names()))]
    return "\n".join(lines) + "\n"


def list_op_attrs() -> str:
    import strati.transforms.convert_tensor_to_loop  # noqa: F401  (the tensor ops' bufferize rules)

    ctx = make_context()
    names = set(registry.registered_ops())
    for dialect_name in ("graph",):
        names |= {op.name for op in ctx.get_dialect(dialect_name).operations}
    return registry.format_table(sorted(names)) + "\n"


def parse_pipeline(spec: str) -> tuple[ModulePass, ...]:
    if not spec:
        return ()
    try:
        return PassPipeline.parse_spec(available_passes(), spec).passes
    except BaseException as err:  # ArgSpecParseError is a BaseException
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise
        text = str(err).strip().splitlines()
        raise ToolError(f"invalid pass pipeline '{spec}': {text[-1].strip() if text else type(err).__name__}") from None


def run(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    limits.apply_arguments(args)
    if args.quiet:
        progress.silence()
    resources.printing_from_arguments(args)  # a bad value: one line before any work
    for plugin in args.load_plugin:
        load_plugin(plugin)
    if args.list_passes:
        sys.stdout.write(list_passes())
        return 0
    if args.list_op_attrs:
        sys.stdout.write(list_op_attrs())
        return 0
    if args.list_targets:
        from strati.dialects.hw.target import format_targets

        sys.stdout.write(format_targets())
        return 0
    if args.target is not None:
        from strati.dialects.hw.target import get_target

        get_target(args.target)  # an unknown name: one line listing the known ones
    if args.print_rules or args.list_rules or args.rules or args.verify_each:
        from strati.parser import format_listing, format_rules, load_rules, parse_rules
        from strati.parser.compile import VERIFY_EACH
        from strati.transforms.apply_rules import ApplyRulesPass

        import strati.dialects.graph  # noqa: F401  (its canonicalize rules)
        import strati.transforms.simplify_inference  # noqa: F401  (its rules)

        VERIFY_EACH.set(args.verify_each)
        if args.print_rules:
            load_rules(args.print_rules)
            sys.stdout.write(format_rules(parse_rules(read_text(args.print_rules), args.print_rules)))
            return 0
        rule_passes = tuple(ApplyRulesPass(file=f, verify_each=args.verify_each) for f in args.rules if load_rules(f))
        if args.list_rules:
            sys.stdout.write(format_listing())
            return 0
    passes = parse_pipeline(args.passes)
    if args.rules:
        passes = (*passes, *rule_passes)
    text = read_text(args.input_file)
    driver = Driver(args, passes)
    if args.external_weights:  # as strati-import's: the blobs go to OUT.weights.bin beside -o OUT
        if args.output == "-":
            raise ToolError("--external-weights needs -o OUT.mlir (the weights go to OUT.weights.bin beside it)")
        if args.split_input_file or args.emit == "llvm":
            raise ToolError(f"--external-weights writes one module's IR, not {'--split-input-file' if args.split_input_file else '--emit=llvm'}")
        driver.weights = resources.weights_path(args.output)
    chunks = split_chunks(text) if args.split_input_file else [text]
    outputs, ok = [], True
    for index, chunk in enumerate(chunks):
        diagnostics, out = driver.process(chunk, index)
        if args.verify_diagnostics:
            problems = check_expectations(chunk, diagnostics, driver.filename)
            for problem in problems:
                print(problem, file=sys.stderr)
            ok = ok and not problems
        else:
            for diag in diagnostics:
                print(diag, file=sys.stderr)
            ok = ok and not diagnostics
        if out is not None:
            outputs.append(out)
    if args.time_passes:
        sys.stderr.write(driver.timing.report())
    if not ok:
        return 1
    if driver.weights is not None and driver.printing is not None and driver.printing.places:
        write_text(str(driver.weights), bytes(driver.printing.external))
    write_text(args.output, "// -----\n".join(outputs))
    return 0


def main(argv: list[str] | None = None) -> None:
    run_tool(TOOL, run, argv)


__all__ = ["main", "run"]


if __name__ == "__main__":
    main()
