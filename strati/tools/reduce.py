"""strati-reduce: shrink a .mlir file while a test command still succeeds on it (as mlir-reduce, creduce).

    strati-reduce crash.mlir --test "strati-opt {} -p fuse-ops 2>&1 | grep -q 'internal error'"

The test is a shell command; ``{}`` stands for the candidate file (appended when absent);
exit status 0 means the candidate is still interesting (the bug is there).  Candidates
are written to a temporary folder; the result goes to ``-o OUT`` (default
``FILE.reduced.mlir``), never over the input unless ``--in-place``.

Reductions, tried until none applies (the result is 1-minimal for them):

* cut ops: their results become new arguments of the function, first in halves, quarters,
  ... of the function's ops (ddmin), then one at a time; an unused op is just erased;
* replace a value by a constant (a zero splat, a scalar zero) or by an operand of its type;
* drop unused function arguments, function results, functions nobody calls;
* shrink shapes: every dimension of one size made 1, or halved, throughout the file.

A candidate must parse and verify when the input does (and may be anything when it does
not, when only whole lines are deleted).  A module with external weights (``docs/weights.md``)
reads them from beside the input; candidates and the result carry them in the text
(``dense_resource`` blobs), so each stands alone.  A file written by ``strati-opt --crash-reproducer``
feeds in directly: its first line (the pipeline that fails) is kept at the top.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp, TensorType, AnyFloat, FloatAttr, IntegerAttr
from xdsl.ir import Operation
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import ParseError

from strati.context import make_context
from strati.diagnostics import verify_module
from strati.functions import functions, output_count
from strati.source import module_text, parse_module
from strati.tools.argparser import ToolArgumentParser
from strati.tools.common import ToolError, load_plugin, read_text, run_tool, write_text

TOOL = "strati-reduce"
DIM = re.compile(r"(?<=[<x])(\d+)(?=x)")
Edit = Callable[[ModuleOp], bool]
"""A reduction applied to a freshly parsed module: True when it changed something."""


class Reducer:
    def __init__(self, text: str, test: str, timeout: float, allow_unregistered: bool, log: Callable[[str], None],
                 filename: str = "candidate.mlir"):
        # Parsed as the input file: an external weights file resolves beside the input, not the
        # candidate; candidates (and the result) are printed with the weights in the text.
        self.filename = filename
        first = text.splitlines(keepends=True)[:1]
        self.header = first[0] if first and first[0].startswith("// strati-opt ") else ""  # a crash reproducer's
        self.test, self.timeout, self.allow_unregistered, self.log = test, timeout, allow_unregistered, log
        self.tmp = tempfile.TemporaryDirectory(prefix="strati-reduce-")
        self.path = Path(self.tmp.name) / "candidate.mlir"
        self.tests = 0
        # strati's tools in the test command are those of this installation.
        self.env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
        self.valid = self.module(text) is not None
        self.text = self.normal(text) if self.valid else text

    # -- candidates ------------------------------------------------------------------------

    def module(self, text: str) -> ModuleOp | None:
        """The parsed, verified module, or None."""
        try:
            module = parse_module(make_context(self.allow_unregistered), text, self.filename)
        except ParseError:
            return None
        except Exception:  # noqa: BLE001 - a parser bug is a reason not to use this candidate
            return None
        try:
            return module if verify_module(module) is None else None
        except Exception:  # noqa: BLE001
            return None

    def normal(self, text: str) -> str:
        module = self.module(text)
        assert module is not None
        return self.header + module_text(module)

    def interesting(self, text: str) -> bool:
        self.path.write_text(text, encoding="utf-8")
        quoted = shlex.quote(str(self.path))
        command = self.test.replace("{}", quoted) if "{}" in self.test else f"{self.test} {quoted}"
        self.tests += 1
        try:
            done = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=self.timeout, env=self.env)
        except subprocess.TimeoutExpired:
            return False
        return done.returncode == 0

    def attempt(self, edit: Edit) -> bool:
        """Apply ``edit`` to the current module; keep the result if it is valid and still interesting."""
        module = self.module(self.text)
        if module is None:
            return False
        try:
            if not edit(module):
                return False
        except Exception:  # noqa: BLE001 - an edit that does not apply here
            return False
        if verify_module(module) is not None:
            return False
        candidate = self.header + module_text(module)
        if candidate == self.text or len(candidate) > len(self.text) + 64 or not self.interesting(candidate):
            return False
        self.text = candidate
        return True

    def attempt_text(self, candidate: str) -> bool:
        if candidate == self.text or (self.valid and self.module(candidate) is None) or not self.interesting(candidate):
            return False
        self.text = self.normal(candidate) if self.valid else candidate
        return True

    # -- the reductions ----------------------------------------------------------------------

    def reduce(self) -> str:
        if not self.interesting(self.text):
            raise ToolError("the test command does not succeed on the input: nothing to reduce "
                            "(it must exit 0 while the bug is present)")
        if not self.valid:
            self.log("the input does not parse and verify: deleting lines only")
            self.delete_lines()
            return self.text
        changed = True
        while changed:
            size = len(self.text)
            self.cut_chunks()
            for edits in (self.cuts, self.replacements, self.drops):
                self.each(edits)
            self.shrink_shapes()
            changed = len(self.text) < size
            self.log(f"{len(self.text)} characters after {self.tests} tests")
        return self.text

    def each(self, edits: Callable[[ModuleOp], Iterator[tuple[str, Edit]]]) -> None:
        """Try every edit of one kind once, in order, re-enumerating after each success."""
        done: set[str] = set()
        while True:
            module = self.module(self.text)
            pending = [(key, edit) for key, edit in edits(module) if key not in done] if module else []
            if not pending:
                return
            for key, edit in pending:
                done.add(key)
                if self.attempt(edit):
                    done.clear()  # indices moved: enumerate again (each success shrinks the file)
                    break
            else:
                return

    def cut_chunks(self) -> None:
        """ddmin over each function's ops: cut halves, then quarters, ... while that helps."""
        module = self.module(self.text)
        if module is None:
            return
        for f, fn in enumerate(functions(module)):
            n = 2
            while True:
                count = len(body_ops(functions(self.module(self.text))[f]))
                if count < 2 or n > count:
                    break
                size = -(-count // n)
                for start in range(0, count, size):
                    if self.attempt(lambda m, f=f, s=start, e=start + size: cut(functions(m)[f], range(s, e))):
                        n = max(n - 1, 2)
                        break
                else:
                    n *= 2

    def cuts(self, module: ModuleOp) -> Iterator[tuple[str, Edit]]:
        for f, fn in enumerate(functions(module)):
            for i, op in enumerate(body_ops(fn)):
                yield f"cut {f} {i}", lambda m, f=f, i=i: cut(functions(m)[f], [i])
        for i, op in enumerate(nested_ops(module)):
            if not any(r.uses for r in op.results):
                yield f"erase {i}", lambda m, i=i: erase(nested_ops(m)[i])

    def replacements(self, module: ModuleOp) -> Iterator[tuple[str, Edit]]:
        for i, op in enumerate(all_ops(module)):
            for k, result in enumerate(op.results):
                if not result.uses:
                    continue
                yield f"constant {i} {k}", lambda m, i=i, k=k: by_constant(all_ops(m)[i], k)
                for j, operand in enumerate(op.operands):
                    if operand.type == result.type:
                        yield f"operand {i} {k} {j}", lambda m, i=i, k=k, j=j: by_operand(all_ops(m)[i], k, j)

    def drops(self, module: ModuleOp) -> Iterator[tuple[str, Edit]]:
        fns = functions(module)
        for f, fn in enumerate(fns):
            if len(fns) > 1:
                yield f"function {f}", lambda m, f=f: drop_function(m, functions(m)[f])
            for a in range(len(fn.body.blocks[0].args)):
                yield f"argument {f} {a}", lambda m, f=f, a=a: drop_argument(functions(m)[f], a)
            for r in range(len(fn.function_type.outputs.data)):
                yield f"result {f} {r}", lambda m, f=f, r=r: drop_result(functions(m)[f], r)

    def shrink_shapes(self) -> None:
        for size in sorted({int(d) for d in DIM.findall(self.text) if int(d) > 1}, reverse=True):
            for smaller in (1, size // 2):
                pattern = re.compile(rf"(?<=[<x]){size}(?=x)")
                if smaller < size and self.attempt_text(pattern.sub(str(smaller), self.text)):
                    break

    def delete_lines(self) -> None:
        """ddmin over lines, for input that does not parse."""
        n = 2
        while True:
            lines = self.text.splitlines(keepends=True)
            if len(lines) < 2 or n > len(lines):
                break
            size = -(-len(lines) // n)
            for start in range(0, len(lines), size):
                if self.attempt_text("".join(lines[:start] + lines[start + size :])):
                    n = max(n - 1, 2)
                    break
            else:
                n *= 2


# --- edits on a module ------------------------------------------------------------------------


def body_ops(fn: func.FuncOp) -> list[Operation]:
    return [op for op in fn.body.blocks[0].ops if not op.has_trait(IsTerminator)]


def nested_ops(module: ModuleOp) -> list[Operation]:
    """Ops below a function's top level (in loop bodies, fused groups), terminators excepted."""
    return [op for op in all_ops(module) if not isinstance(op.parent_op(), func.FuncOp)]


def all_ops(module: ModuleOp) -> list[Operation]:
    return [op for fn in functions(module) for op in fn.walk()
            if op is not fn and not op.has_trait(IsTerminator) and not isinstance(op, func.FuncOp)]


def cut(fn: func.FuncOp, indices) -> bool:
    """The ops at ``indices`` of the function's body erased, their used results turned into new arguments."""
    ops = body_ops(fn)
    chosen = [ops[i] for i in indices if i < len(ops)]
    if not chosen:
        return False
    block = fn.body.blocks[0]
    at = len(block.args) - output_count(fn)  # new inputs go before a loop-level function's outputs
    for op in reversed(chosen):
        for result in op.results:
            if result.uses:
                arg = block.insert_arg(result.type, at)
                result.replace_all_uses_with(arg)
    for op in reversed(chosen):
        op.detach()
        op.erase()
    fn.update_function_type()
    return True


def erase(op: Operation) -> bool:
    if any(r.uses for r in op.results):
        return False
    op.detach()
    op.erase()
    return True


def constant_for(t) -> Operation | None:
    """A zero of type ``t``: a splat ``graph.constant`` for a static tensor, an ``arith.constant`` for a scalar."""
    if isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape()):
        from strati.dense import dense_from_numpy, to_dtype
        from strati.dialects.graph.ops import ConstantOp

        return ConstantOp(dense_from_numpy(np.zeros(tuple(t.get_shape()), to_dtype(t.get_element_type()))))
    if isinstance(t, IndexType) or isinstance(t, IntegerType):
        return arith.ConstantOp(IntegerAttr(0, t))
    if isinstance(t, AnyFloat):
        return arith.ConstantOp(FloatAttr(0.0, t))
    return None


def by_constant(op: Operation, k: int) -> bool:
    result = op.results[k]
    if result.owner.name in ("graph.constant", "arith.constant"):
        return False
    new = constant_for(result.type)
    if new is None:
        return False
    op.parent_block().insert_op_before(new, op)
    result.replace_all_uses_with(new.results[0])
    return erase(op) or True


def by_operand(op: Operation, k: int, j: int) -> bool:
    op.results[k].replace_all_uses_with(op.operands[j])
    return erase(op) or True


def drop_function(module: ModuleOp, fn: func.FuncOp) -> bool:
    name = fn.sym_name.data
    if any(isinstance(op, func.CallOp) and op.callee.root_reference.data == name for op in module.walk()):
        return False
    fn.detach()
    fn.erase()
    return True


def drop_argument(fn: func.FuncOp, a: int) -> bool:
    block = fn.body.blocks[0]
    n_in = len(block.args) - output_count(fn)
    arg = block.args[a]
    if arg.uses or a >= n_in or fn.sym_visibility is not None and fn.sym_visibility.data == "private":
        return False
    block.erase_arg(arg)
    fn.update_function_type()
    return True


def drop_result(fn: func.FuncOp, r: int) -> bool:
    ret = fn.body.blocks[0].last_op
    if not isinstance(ret, func.ReturnOp) or len(ret.arguments) < 2 or output_count(fn):
        return False
    operands = list(ret.arguments)
    del operands[r]
    new = func.ReturnOp(*operands)
    ret.parent_block().insert_op_before(new, ret)
    ret.detach()
    ret.erase()
    fn.update_function_type()
    return True


# --- the tool ---------------------------------------------------------------------------------


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ToolArgumentParser(prog=TOOL, description="Shrink a .mlir file while a test command still succeeds on it.")
    ap.add_argument("input_file", help="the .mlir file (a --crash-reproducer file feeds in as it is)")
    ap.add_argument("--test", required=True, metavar="CMD",
                    help="a shell command that exits 0 while the bug is present; {} is the candidate file (appended when absent)")
    ap.add_argument("-o", "--output", help="where the result goes (default: FILE.reduced.mlir; never the input)")
    ap.add_argument("--in-place", action="store_true", help="write the result over the input")
    ap.add_argument("--timeout", type=float, default=60.0, metavar="S", help="a test run longer than this is not interesting (default 60)")
    ap.add_argument("--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects")
    ap.add_argument("--load-plugin", action="append", default=[], metavar="FILE.py|MODULE")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    return ap


def output_path(args: argparse.Namespace) -> str:
    source = Path(args.input_file)
    if args.in_place:
        if args.output is not None:
            raise ToolError("give either -o or --in-place, not both")
        return args.input_file
    if args.output is None:
        out = source.with_name(source.stem + ".reduced.mlir")
        if out.exists():
            raise ToolError(f"'{out}' exists; give -o OUT to overwrite a file")
        return str(out)
    if args.output != "-" and Path(args.output).resolve() == source.resolve():
        raise ToolError(f"-o '{args.output}' is the input; give --in-place to overwrite it")
    return args.output


def run(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    if args.timeout <= 0:
        raise ToolError("--timeout must be positive")
    for plugin in args.load_plugin:
        load_plugin(plugin)
    if args.input_file == "-":
        raise ToolError("the input must be a file (the test command reads copies of it)")
    text = read_text(args.input_file)
    out = output_path(args)
    log = (lambda _: None) if args.quiet else (lambda line: print(f"{TOOL}: {line}", file=sys.stderr))
    start = time.monotonic()
    reducer = Reducer(text, args.test, args.timeout, args.allow_unregistered_dialect, log, args.input_file)
    with reducer.tmp:
        result = reducer.reduce()
    write_text(out, result)
    log(f"{len(text)} -> {len(result)} characters, {reducer.tests} tests, {time.monotonic() - start:.1f} s; wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> None:
    run_tool(TOOL, run, argv)


if __name__ == "__main__":
    main()
