"""Translation validation, one pass at a time: does a pass keep what the module computes?

:class:`PassValidator` runs every public function of a module on seeded random inputs
(``strati-run --random-inputs``'s: standard normal floats, integers in [0, 10), fair
booleans) with the interpreter of the level the module is at -- the tensor interpreter
(:mod:`strati.runtime.interpreter`) at the graph and tensor levels, the loop interpreter
(:mod:`strati.runtime.loop_interpreter`) at the loop and hw levels -- and, after each
pass, runs them again on the same inputs and compares.  The first pass that changes a
result is a :class:`StratiError` that names the pass and an op:

* at the graph and tensor levels, the first op whose result changed although its
  operands did not (a pass that edited an op in place), else the first op the pass
  created on the way to a changed result that has no twin (an op it replaced, at the
  same location, computing the same value before the pass);
* at the loop and hw levels (buffers written in place), the last top-level op of the
  function that writes the output that changed.

Checking stops, with a warning, after the first pass whose output the interpreters cannot
run (the CPU target's vector ops, say).

``strati-opt --verify-each-numerics`` and ``strati.compile(..., check_passes=True)`` use
it.  The interpreters are slow (the loop one runs element by element in Python): it is a
debugging aid for small shapes, as the interpreters are.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp, TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from strati.dense import to_dtype
from strati.diagnostics import StratiError
from strati.functions import output_count

UNINTERPRETABLE = "no 'reference'"
"""What both interpreters say of an op they cannot run (a target's vector ops, say): checking stops
there, with a warning, since nothing below can be compared."""

RTOL, ATOL = 1e-4, 1e-5
"""As ``strati-run --check``: sums in another order, fast-math reassociation."""


def random_inputs(fn: func.FuncOp, seed: int) -> list[np.ndarray]:
    """The function's inputs (not its output buffers) drawn from ``seed``, the same at every level."""
    types = list(fn.function_type.inputs.data)
    types = types[: len(types) - output_count(fn)]
    rng = np.random.default_rng(seed)
    values = []
    for i, t in enumerate(types):
        if not isinstance(t, (TensorType, MemRefType)) or DYNAMIC_INDEX in t.get_shape():
            raise StratiError(f"cannot check numerics: argument {i} of @{fn.sym_name.data} has type {t} "
                              "(static tensors or buffers only)", fn)
        shape, dtype = tuple(t.get_shape()), to_dtype(t.get_element_type())
        if dtype == np.bool_:
            values.append(rng.integers(0, 2, shape).astype(np.bool_))
        elif dtype.kind in "iu":
            values.append(rng.integers(0, 10, shape).astype(dtype))
        else:
            values.append(rng.standard_normal(shape).astype(dtype))
    return values


def differs(got: np.ndarray, want: np.ndarray, rtol: float = RTOL, atol: float = ATOL) -> str | None:
    """How ``got`` differs from ``want`` beyond tolerance (exact for integers and booleans), or None."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"{got.dtype}{list(got.shape)} instead of {want.dtype}{list(want.shape)}"
    if want.dtype.kind != "f":
        bad = got != want
        return f"{int(bad.sum())} of {want.size} elements differ" if bad.any() else None
    g, w = got.astype(np.float64), want.astype(np.float64)
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(g - w))
        bad = ~same & ~(diff <= atol + rtol * np.abs(w))
    if not bad.any():
        return None
    worst = np.where(np.isnan(diff), np.inf, diff).max()
    return f"max abs error {worst:.3g} at {int(bad.sum())} of {want.size} elements"


def public_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.body.block.ops if isinstance(op, func.FuncOp) and op.body.blocks
            and (op.sym_visibility is None or op.sym_visibility.data == "public")]


class Run:
    """One function's results on the inputs, and (at the value levels) every value it computed."""

    def __init__(self, outputs: list[np.ndarray], env: dict[SSAValue, np.ndarray] | None):
        self.outputs = outputs
        self.env = env


def run(module: ModuleOp, fn: func.FuncOp, inputs: list[np.ndarray]) -> Run:
    """The function on ``inputs`` with the interpreter of the module's level."""
    from strati.compiler import module_level

    with np.errstate(all="ignore"):
        if module_level(module) in ("graph", "tensor"):
            from strati.runtime.interpreter import Interpreter, bind_inputs

            interpreter = Interpreter(module)
            block = fn.body.blocks[0]
            env: dict[SSAValue, np.ndarray] = dict(zip(block.args, bind_inputs(fn, inputs)))
            for op in block.ops:
                if isinstance(op, func.ReturnOp):
                    return Run([env[v] for v in op.arguments], env)
                values = [env[v] for v in op.operands]
                if isinstance(op, func.CallOp):
                    from strati.functions import find_function

                    callee = find_function(module, op.callee.root_reference.data)
                    results = interpreter.call(callee, values)
                else:
                    results = interpreter.run_op(op, values, env)
                env.update(zip(op.results, results))
            raise StratiError(f"function @{fn.sym_name.data} has no func.return", fn)
        from strati.runtime.loop_interpreter import run_loop_function

        return Run(run_loop_function(module, inputs, fn.sym_name.data), None)


class PassValidator:
    """Runs a module's public functions before the first pass and after each one, and compares."""

    def __init__(self, module: ModuleOp, seed: int = 0, rtol: float = RTOL, atol: float = ATOL):
        if not isinstance(seed, int) or seed < 0:
            raise StratiError(f"the numerics seed must be a non-negative integer, got {seed}")
        self.seed, self.rtol, self.atol = seed, rtol, atol
        self.stopped: str | None = None
        self.inputs: dict[str, list[np.ndarray]] = {}
        self.runs: dict[str, Run] = {}
        functions = public_functions(module)
        if not functions:
            raise StratiError("cannot check numerics: the module has no public function with a body")
        for fn in functions:
            name = fn.sym_name.data
            self.inputs[name] = random_inputs(fn, seed)
            try:
                self.runs[name] = run(module, fn, self.inputs[name])
            except StratiError as err:
                raise StratiError(f"cannot check numerics: @{name} does not run: {err.message}", err.op or fn) from None

    def check(self, pass_name: str, module: ModuleOp) -> None:
        """Compare the module, after ``pass_name``, with what it computed before; keep the new results."""
        if self.stopped is not None:
            return
        functions = {fn.sym_name.data: fn for fn in public_functions(module)}
        new_runs: dict[str, Run] = {}
        for name, before in self.runs.items():
            fn = functions.get(name)
            if fn is None:
                raise StratiError(f"after pass '{pass_name}', the module has no public function @{name}")
            try:
                after = run(module, fn, self.inputs[name])
            except StratiError as err:
                if UNINTERPRETABLE in err.message:  # ops below what the interpreters run: checks end here
                    self.stopped = f"numerics are not checked after pass '{pass_name}': {err.message}"
                    warnings.warn(self.stopped, stacklevel=2)
                    return
                raise StratiError(f"after pass '{pass_name}', @{name} no longer runs: {err.message}", err.op or fn) from None
            except Exception as err:  # noqa: BLE001 - IR the interpreter chokes on came from the pass
                raise StratiError(f"after pass '{pass_name}', @{name} no longer runs: {type(err).__name__}: {err}", fn) from None
            if len(after.outputs) != len(before.outputs):
                raise StratiError(f"pass '{pass_name}' changed the number of results of @{name} "
                                  f"from {len(before.outputs)} to {len(after.outputs)}", fn)
            changed = [(i, how) for i, (a, b) in enumerate(zip(after.outputs, before.outputs))
                       if (how := differs(a, b, self.rtol, self.atol)) is not None]
            if changed:
                i, how = changed[0]
                op = self.culprit(fn, before, after, [i for i, _ in changed])
                raise StratiError(f"has a different result after pass '{pass_name}' (@{name} output {i}: {how}; "
                                  f"seeded random inputs, seed {self.seed})", op)
            new_runs[name] = after
        self.runs = new_runs

    # -- which op ------------------------------------------------------------------------------

    def culprit(self, fn: func.FuncOp, before: Run, after: Run, outputs: list[int]) -> Operation:
        block = fn.body.blocks[0]
        ret = block.last_op
        if before.env is None or after.env is None or not isinstance(ret, func.ReturnOp):
            return self.last_writer(fn, outputs)
        same = lambda v: v in before.env and differs(after.env[v], before.env[v], self.rtol, self.atol) is None  # noqa: E731
        for op in block.ops:  # an op edited in place: new results from the same operands
            if op.results and all(r in before.env for r in op.results) and all(
                isinstance(o, BlockArgument) or same(o) for o in op.operands
            ) and not all(same(r) for r in op.results):
                return op
        # Else an op the pass made, on the way to a changed output, that no twin vouches for.
        twins = {}
        for value, _ in before.env.items():
            if isinstance(value, OpResult):
                twins.setdefault((str(value.op.location), value.index, str(value.type)), value)
        suspects, seen, stack = set(), set(), [ret.arguments[i] for i in outputs]
        while stack:
            value = stack.pop()
            if value in seen or not isinstance(value, OpResult) or same(value):
                continue
            seen.add(value)
            if value not in before.env:
                suspects.add(value.op)
            stack.extend(value.op.operands)
        for op in block.ops:
            if op in suspects:
                vouched = all(
                    (twin := twins.get((str(op.location), r.index, str(r.type)))) is not None
                    and differs(after.env[r], before.env[twin], self.rtol, self.atol) is None
                    for r in op.results
                )
                if not vouched:
                    return op
        return ret.arguments[outputs[0]].owner if isinstance(ret.arguments[outputs[0]], OpResult) else fn

    @staticmethod
    def last_writer(fn: func.FuncOp, outputs: Iterable[int]) -> Operation:
        """The last top-level op of a loop-level function that touches one of the changed output buffers."""
        block = fn.body.blocks[0]
        n_in = len(block.args) - output_count(fn)
        buffers = {block.args[n_in + i] for i in outputs if n_in + i < len(block.args)}
        for op in reversed(list(block.ops)):
            if any(o in buffers for nested in op.walk() for o in nested.operands):
                if not isinstance(op, func.ReturnOp):
                    return op
        return fn


def validate_passes(module: ModuleOp, passes: Iterable, seed: int = 0) -> None:
    """Apply ``passes`` (instances or names) to ``module`` in place, checking the numerics after each."""
    from strati.compiler import run_pass

    validator = PassValidator(module, seed)
    for p in passes:
        run_pass(module, p)
        validator.check(p if isinstance(p, str) else p.name, module)


__all__ = ["PassValidator", "differs", "random_inputs", "validate_passes"]
