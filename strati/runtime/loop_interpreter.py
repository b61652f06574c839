"""A reference executor for loop-level (level 3) functions: loop nests over memref buffers.

It runs what ``convert-tensor-to-loop`` produces, element by element in Python, so
it is meant for small shapes (tests and debugging), as the oracle one level down.

* The function is in destination-passing style: ``strati.outputs = N`` says that
  its last N arguments are output buffers.  :func:`run_loop_function` takes the
  inputs (by position or by argument name), allocates the outputs as numpy arrays,
  runs the function and returns them.
* Buffers are numpy arrays.  Inputs are passed as read-only copies, so a function
  that writes an input fails; ``memref.alloc`` gives an array filled with a poison
  value (NaN for floats) so that reading what was never written shows; reading or
  freeing a deallocated buffer is an error, as are double frees and freeing a
  buffer that was not allocated.
* ``loop.for`` -- and any loop of a target built on ``IndexLoop``, e.g. a parallel
  one -- is a Python loop (its schedule is ignored, iterations run in order), ``loop.view`` a numpy
  reshape that shares memory, ``loop.arena_view`` the arena's bytes reinterpreted
  (a numpy view of the byte array, sharing memory), ``memref.get_global`` the global's initial value
  (read-only for a ``constant`` global), ``func.call`` a call, ``loop.if`` and ``loop.while``
  Python's ``if`` and ``while``.
* Scalar ops use the registry's ``reference`` when there is one (the ``arith`` and
  ``math`` references of :mod:`strati.dialects.upstream_attrs`), else a small local
  table.  Scalars are numpy scalars of the type's dtype; ``index`` is a Python int.
  The same ``reference`` runs a target's ops that write buffers instead of returning
  values (a DMA, a GEMM on a tile): it gets the buffers as numpy arrays and writes
  them, and returns nothing, one result or a tuple, so the loop interpreter stays
  the oracle for every target.
"""

from __future__ import annotations

import importlib
import math as pymath
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from strati import registry
from strati.dense import numpy_from_dense, to_dtype
from strati.diagnostics import StratiError
from strati.dialects.loop import control
from strati.dialects.loop.ops import ArenaViewOp, IndexLoop, ViewOp, buffer_bytes
from strati.dialects.tensor.scalar import check_operands
from strati.functions import argument_aliases, find_function, output_count
from strati.runtime.interpreter import order_inputs

try:  # the registry's references for arith/math, where that module is present
    importlib.import_module("strati.dialects.upstream_attrs")
except ImportError:  # pragma: no cover
    pass


Env = dict[SSAValue, Any]
Step = Callable[[Env], None]


def run_loop_function(
    module: ModuleOp,
    inputs: Sequence[np.ndarray] | Mapping[str, np.ndarray],
    entry: str | None = None,
    *,
    use_registry: bool = True,
) -> list[np.ndarray]:
    """Run a loop-level function on numpy inputs; returns its output buffers (or, for a
    function without ``strati.outputs``, the values it returns)."""
    fn = find_function(module, entry)
    n_out = output_count(fn)
    types = list(fn.function_type.inputs.data)
    aliases = argument_aliases(fn)
    n_in = len(types) - n_out
    in_aliases, in_types = aliases[:n_in], types[:n_in]
    inputs = order_inputs(in_aliases, inputs)
    args = [_bind(a[0], t, x) for a, t, x in zip(in_aliases, in_types, inputs)]
    outputs = [_poison(t) for t in types[n_in:]]
    interp = LoopInterpreter(module, use_registry=use_registry)
    with np.errstate(all="ignore"):
        returned = interp.call(fn, [*args, *outputs])
    return outputs if n_out else [np.asarray(v) for v in returned]


def _bind(name: str, t: Attribute, x: Any) -> Any:
    if isinstance(t, MemRefType):
        value = np.asarray(x)
        dtype = to_dtype(t.get_element_type())
        if value.dtype != dtype:
            raise StratiError(f"input '{name}' has dtype {value.dtype}, expected {dtype} ({t})")
        if tuple(value.shape) != tuple(t.get_shape()):
            raise StratiError(f"input '{name}' has shape {list(value.shape)}, expected {t}")
        value = np.array(value, copy=True, order="C")
        value.setflags(write=False)
        return value
    return scalar(t, x)


def _poison(t: Attribute) -> np.ndarray:
    if not isinstance(t, MemRefType):
        raise StratiError(f"an output of type {t}: outputs must be memrefs")
    if any(d < 0 for d in t.get_shape()):
        raise StratiError(f"an output of dynamic shape {t} cannot be allocated")
    dtype = to_dtype(t.get_element_type())
    shape = tuple(t.get_shape())
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype)
    if dtype == np.bool_:
        return np.ones(shape, dtype)
    return np.full(shape, np.iinfo(dtype).max // 3, dtype)


def scalar(t: Attribute, value: Any) -> Any:
    """A value as the interpreter holds a scalar of type ``t``: a numpy scalar, or an int for index."""
    if isinstance(t, IndexType):
        return int(value)
    dtype = to_dtype(t)
    arr = np.asarray(value)
    if arr.dtype != dtype:
        if dtype.kind in "iu" and arr.dtype.kind in "iub":
            arr = arr.astype(np.uint64 if arr.dtype.kind == "u" else np.int64).astype(dtype)  # wraps
        else:
            arr = arr.astype(dtype)
    return arr[()] if arr.ndim == 0 else arr.reshape(())[()]


class _Freed:
    """What a buffer becomes after ``memref.dealloc``."""

    def __init__(self, op: Operation):
        self.op = op

    def _fail(self, *_: Any) -> Any:
        raise StratiError("use of a deallocated buffer", self.op)

    __getitem__ = __setitem__ = reshape = _fail


class LoopInterpreter:
    """Runs the functions of one module; blocks are compiled once into lists of closures."""

    def __init__(self, module: ModuleOp, *, use_registry: bool = True):
        self.module = module
        self.use_registry = use_registry
        self.compiled: dict[Block, tuple[list[Step], Operation | None]] = {}
        self.globals: dict[str, np.ndarray] = {}
        self.allocated: set[int] = set()

    def call(self, fn: func.FuncOp, args: Sequence[Any]) -> list[Any]:
        block = fn.body.blocks[0]
        env: Env = dict(zip(block.args, args))
        steps, terminator = self.compile(block)
        for step in steps:
            step(env)
        if isinstance(terminator, func.ReturnOp):
            return [env[v] for v in terminator.arguments]
        raise StratiError(f"function @{fn.sym_name.data} does not end with func.return", fn)

    def compile(self, block: Block) -> tuple[list[Step], Operation | None]:
        if block not in self.compiled:
            ops = list(block.ops)
            terminator = ops[-1] if ops and ops[-1].has_trait(IsTerminator) else None
            body = ops[:-1] if terminator is not None else ops
            self.compiled[block] = ([self.step(op) for op in body], terminator)
        return self.compiled[block]

    # -- one op -----------------------------------------------------------------------

    def step(self, op: Operation) -> Step:
        if isinstance(op, IndexLoop):
            return self._for(op)
        if isinstance(op, memref.LoadOp):
            m, idx, r = op.memref, tuple(op.indices), op.res

            def load(env: Env) -> None:
                env[r] = env[m][tuple(env[i] for i in idx)]

            return load
        if isinstance(op, memref.StoreOp):
            v, m, idx = op.value, op.memref, tuple(op.indices)

            def store(env: Env) -> None:
                try:
                    env[m][tuple(env[i] for i in idx)] = env[v]
                except ValueError as err:  # numpy: "assignment destination is read-only"
                    raise StratiError(f"cannot write this buffer ({err}): inputs and constants are read only", op) from err

            return store
        if isinstance(op, arith.ConstantOp):
            value = self._constant(op)
            r = op.result
            return lambda env: env.__setitem__(r, value)
        if isinstance(op, memref.AllocOp):
            return self._alloc(op)
        if isinstance(op, memref.DeallocOp):
            return self._dealloc(op)
        if isinstance(op, memref.AllocaOp):  # a stack slot (scalar-replace's accumulators): never freed
            t, r = op.memref.type, op.memref
            return lambda env: env.__setitem__(r, _poison(t))
        if isinstance(op, memref.GetGlobalOp):
            array = self._global(op)
            r = op.memref
            return lambda env: env.__setitem__(r, array)
        if isinstance(op, ViewOp):
            return self._view(op)
        if isinstance(op, memref.CastOp):  # the same buffer, its shape known less (merge-kernels' flat buffers)
            src, r = op.source, op.dest
            return lambda env: env.__setitem__(r, env[src])
        if isinstance(op, ArenaViewOp):
            return self._arena_view(op)
        if isinstance(op, func.CallOp):
            return self._call(op)
        if isinstance(op, (control.IfOp, control.WhileOp)):
            return self._control(op)
        return self._scalar(op)

    def _for(self, op: IndexLoop) -> Step:
        lb, ub, st, iv = op.lb, op.ub, op.step, op.induction_var
        block = op.body.block

        def run(env: Env) -> None:
            steps, _ = self.compile(block)
            for i in range(env[lb], env[ub], env[st]):
                env[iv] = i
                for s in steps:
                    s(env)

        return run

    def _control(self, op: control.IfOp | control.WhileOp) -> Step:
        """``loop.if`` runs one region; ``loop.while`` its first region, then the body while
        the condition it ends with holds."""
        if isinstance(op, control.IfOp):
            cond, then_block, else_block = op.cond, op.then_region.block, op.else_region.block

            def run_if(env: Env) -> None:
                for s in self.compile(then_block if env[cond] else else_block)[0]:
                    s(env)

            return run_if
        before, after = op.before.block, op.after.block

        def run_while(env: Env) -> None:
            while True:
                steps, condition = self.compile(before)
                for s in steps:
                    s(env)
                if not env[condition.operands[0]]:  # type: ignore[union-attr]
                    return
                for s in self.compile(after)[0]:
                    s(env)

        return run_while

    def _constant(self, op: arith.ConstantOp) -> Any:
        value, t = op.value, op.result.type
        if isinstance(value, DenseIntOrFPElementsAttr):
            raise StratiError("a tensor constant at the loop level: run convert-tensor-to-loop first", op)
        if isinstance(value, (IntegerAttr, FloatAttr)):
            v = value.value.data
            if isinstance(t, IntegerType) and t.width.data == 1:
                return np.bool_(v & 1)
            if isinstance(t, IntegerType):
                return scalar(t, np.array(v % (1 << t.width.data), np.uint64))
            return scalar(t, v)
        raise StratiError(f"arith.constant of {value} is not supported", op)

    def _alloc(self, op: memref.AllocOp) -> Step:
        t = op.memref.type
        r = op.memref
        if op.dynamic_sizes:
            raise StratiError("dynamically sized memref.alloc is not supported", op)

        def alloc(env: Env) -> None:
            buf = _poison(t)
            self.allocated.add(id(buf))
            env[r] = buf

        return alloc

    def _dealloc(self, op: memref.DeallocOp) -> Step:
        m = op.memref

        def dealloc(env: Env) -> None:
            buf = env[m]
            if isinstance(buf, _Freed):
                raise StratiError("buffer deallocated twice", op)
            if id(buf) not in self.allocated:
                raise StratiError("memref.dealloc of a buffer that memref.alloc did not make", op)
            self.allocated.discard(id(buf))
            env[m] = _Freed(op)

        return dealloc

    def _global(self, op: memref.GetGlobalOp) -> np.ndarray:
        name = op.name_.root_reference.data
        if name not in self.globals:
            found = [
                g
                for g in self.module.walk()
                if isinstance(g, memref.GlobalOp) and g.sym_name.data == name
            ]
            if not found:
                raise StratiError(f"no memref.global @{name}", op)
            g = found[0]
            if not isinstance(g.initial_value, DenseIntOrFPElementsAttr):
                raise StratiError(f"memref.global @{name} has no initial value", op)
            array = np.array(numpy_from_dense(g.initial_value), copy=True).reshape(tuple(g.type.get_shape()))
            if g.constant is not None:
                array.setflags(write=False)
            self.globals[name] = array
        return self.globals[name]

    def _view(self, op: ViewOp) -> Step:
        src, r = op.source, op.result
        shape = tuple(op.result.type.get_shape())

        def view(env: Env) -> None:
            buf = env[src]
            out = buf.reshape(shape)
            if buf.size and not np.shares_memory(out, buf):  # pragma: no cover - buffers are contiguous
                raise StratiError("loop.view of a buffer that cannot be viewed without a copy", op)
            env[r] = out

        return view

    def _arena_view(self, op: ArenaViewOp) -> Step:
        arena, r = op.arena, op.result
        t = op.result.type
        dtype = to_dtype(t.get_element_type())
        shape = tuple(t.get_shape())
        start = op.byte_offset
        stop = start + (buffer_bytes(t) or 0)

        def arena_view(env: Env) -> None:
            buf = env[arena]
            if isinstance(buf, _Freed):
                buf._fail()
            env[r] = buf[start:stop].view(dtype).reshape(shape)  # the arena's bytes, not a copy

        return arena_view

    def _call(self, op: func.CallOp) -> Step:
        callee = op.callee.root_reference.data
        args, results = tuple(op.arguments), tuple(op.results)

        def call(env: Env) -> None:
            fn = find_function(self.module, callee)
            outs = self.call(fn, [env[a] for a in args])
            env.update(zip(results, outs))

        return call

    def _scalar(self, op: Operation) -> Step:
        if op.regions:
            raise StratiError(f"op '{op.name}' has regions: the loop interpreter cannot run it", op)
        reference = registry.get_op_attr(op.name, "reference") if self.use_registry else None
        operands, results = tuple(op.operands), tuple(op.results)
        types = [r.type for r in results]
        if reference is not None:
            return self._by_reference(op, reference)
        local = LOCAL.get(op.name)
        if local is None:
            raise StratiError(f"op '{op.name}' is not supported by the loop interpreter (no 'reference')", op)
        r, t = results[0], types[0]

        def by_table(env: Env) -> None:
            env[r] = scalar(t, local(op, *[env[o] for o in operands]))

        return by_table

    def _by_reference(self, op: Operation, reference: Callable[..., Any]) -> Step:
        """``reference(op, *operands)`` on scalars and buffers (numpy arrays it may write, as a
        target's DMA or GEMM op does); it returns the result, a tuple of them, or None."""
        operands, results = tuple(check_operands(op)), tuple(op.results)
        types = [r.type for r in results]

        def by_reference(env: Env) -> None:
            out = reference(op, *[env[o] for o in operands])
            if len(results) == 1:
                env[results[0]] = _result(types[0], out)
                return
            values = () if out is None else tuple(out)
            if len(values) != len(results):
                raise StratiError(f"the reference of '{op.name}' returned {len(values)} values for {len(results)} results", op)
            for r, t, v in zip(results, types, values):
                env[r] = _result(t, v)

        return by_reference


def _result(t: Attribute, value: Any) -> Any:
    return value if isinstance(t, MemRefType) else scalar(t, value)


# --- the local table of scalar semantics, used where the registry has no reference ----------


def _width(v: Any) -> int:
    if isinstance(v, int):
        return 64
    dtype = np.asarray(v).dtype
    return 1 if dtype == np.bool_ else dtype.itemsize * 8


def _signed(v: Any) -> int:
    if isinstance(v, (bool, np.bool_)):
        return -int(v)
    x, w = int(v), _width(v)
    x &= (1 << w) - 1
    return x - (1 << w) if x >= 1 << (w - 1) else x


def _unsigned(v: Any) -> int:
    return int(v) & ((1 << _width(v)) - 1)


def _wrap(t: Attribute, x: int) -> Any:
    if isinstance(t, IndexType):
        x &= (1 << 64) - 1
        return x - (1 << 64) if x >= 1 << 63 else x
    w = t.width.data if isinstance(t, IntegerType) else 64
    if w == 1:
        return np.bool_(x & 1)
    return scalar(t, np.array(x & ((1 << w) - 1), np.uint64))


def _trunc_div(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _int(fn: Callable[[int, int], int], read: Callable[[Any], int] = _signed):
    return lambda op, a, b: _wrap(op.results[0].type, fn(read(a), read(b)))


def _cmpf(op: Operation, a: Any, b: Any) -> bool:
    pred = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
    unordered = bool(np.isnan(a) or np.isnan(b))
    if pred in ("false", "true"):
        return pred == "true"
    if pred in ("ord", "uno"):
        return unordered == (pred == "uno")
    rel = {"eq": a == b, "ne": a != b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b}[pred[1:]]
    return bool(rel) and not unordered if pred[0] == "o" else bool(rel) or unordered


def _cmpi(op: Operation, a: Any, b: Any) -> bool:
    pred = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
    read = _unsigned if pred[0] == "u" else _signed
    x, y = read(a), read(b)
    rel = pred if pred in ("eq", "ne") else pred[1:]
    return {"eq": x == y, "ne": x != y, "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y}[rel]


def _maximumf(a: Any, b: Any) -> Any:
    if np.isnan(a) or np.isnan(b):
        return a + b
    if a == b:
        return b if np.signbit(a) else a
    return max(a, b)


def _minimumf(a: Any, b: Any) -> Any:
    if np.isnan(a) or np.isnan(b):
        return a + b
    if a == b:
        return a if np.signbit(a) else b
    return min(a, b)


def _float(fn: Callable[..., Any]):
    return lambda op, *xs: fn(*xs)


def _to_int(op: Operation, x: Any) -> Any:
    return _wrap(op.results[0].type, int(np.trunc(x)))


LOCAL: dict[str, Callable[..., Any]] = {
    "arith.addi": _int(lambda a, b: a + b),
    "arith.subi": _int(lambda a, b: a - b),
    "arith.muli": _int(lambda a, b: a * b),
    "arith.andi": _int(lambda a, b: a & b, _unsigned),
    "arith.ori": _int(lambda a, b: a | b, _unsigned),
    "arith.xori": _int(lambda a, b: a ^ b, _unsigned),
    "arith.shli": _int(lambda a, b: a << b if 0 <= b < 64 else 0, _unsigned),
    "arith.shrui": _int(lambda a, b: a >> b if 0 <= b < 64 else 0, _unsigned),
    "arith.shrsi": lambda op, a, b: _wrap(op.results[0].type, _signed(a) >> min(_unsigned(b), 63)),
    "arith.divsi": _int(_trunc_div),
    "arith.remsi": _int(lambda a, b: a - b * _trunc_div(a, b) if b else 0),
    "arith.floordivsi": _int(lambda a, b: a // b if b else 0),
    "arith.ceildivsi": _int(lambda a, b: -(-a // b) if b else 0),
    "arith.divui": _int(lambda a, b: a // b if b else 0, _unsigned),
    "arith.remui": _int(lambda a, b: a % b if b else 0, _unsigned),
    "arith.maxsi": _int(max),
    "arith.minsi": _int(min),
    "arith.maxui": _int(max, _unsigned),
    "arith.minui": _int(min, _unsigned),
    "arith.addf": _float(lambda a, b: a + b),
    "arith.subf": _float(lambda a, b: a - b),
    "arith.mulf": _float(lambda a, b: a * b),
    "arith.divf": _float(lambda a, b: a / b),
    "arith.remf": _float(np.fmod),
    "arith.negf": _float(lambda a: -a),
    "arith.maximumf": _float(_maximumf),
    "arith.minimumf": _float(_minimumf),
    "arith.maxnumf": _float(np.fmax),
    "arith.minnumf": _float(np.fmin),
    "arith.cmpf": _cmpf,
    "arith.cmpi": _cmpi,
    "arith.select": lambda op, c, a, b: a if c else b,
    "arith.index_cast": lambda op, x: _wrap(op.results[0].type, _signed(x)),
    "arith.sitofp": lambda op, x: _signed(x),
    "arith.uitofp": lambda op, x: _unsigned(x),
    "arith.fptosi": _to_int,
    "arith.fptoui": _to_int,
    "arith.extf": lambda op, x: x,
    "arith.truncf": lambda op, x: x,
    "arith.extsi": lambda op, x: _wrap(op.results[0].type, _signed(x)),
    "arith.extui": lambda op, x: _wrap(op.results[0].type, _unsigned(x)),
    "arith.trunci": lambda op, x: _wrap(op.results[0].type, _unsigned(x)),
    "math.exp": _float(np.exp),
    "math.exp2": _float(np.exp2),
    "math.expm1": _float(np.expm1),
    "math.log": _float(np.log),
    "math.log2": _float(np.log2),
    "math.log10": _float(np.log10),
    "math.log1p": _float(np.log1p),
    "math.sqrt": _float(np.sqrt),
    "math.rsqrt": _float(lambda x: 1 / np.sqrt(x)),
    "math.tanh": _float(np.tanh),
    "math.sin": _float(np.sin),
    "math.cos": _float(np.cos),
    "math.tan": _float(np.tan),
    "math.atan": _float(np.arctan),
    "math.atan2": _float(np.arctan2),
    "math.asin": _float(np.arcsin),
    "math.acos": _float(np.arccos),
    "math.sinh": _float(np.sinh),
    "math.cosh": _float(np.cosh),
    "math.asinh": _float(np.arcsinh),
    "math.acosh": _float(np.arccosh),
    "math.atanh": _float(np.arctanh),
    "math.erf": _float(lambda x: pymath.erf(float(x))),
    "math.absf": _float(np.abs),
    "math.absi": lambda op, x: _wrap(op.results[0].type, abs(_signed(x))),
    "math.floor": _float(np.floor),
    "math.ceil": _float(np.ceil),
    "math.trunc": _float(np.trunc),
    "math.round": _float(lambda x: np.trunc(x) + np.sign(x) if np.abs(x - np.trunc(x)) >= 0.5 else np.trunc(x)),
    "math.roundeven": _float(np.rint),
    "math.powf": _float(np.power),
    "math.copysign": _float(np.copysign),
    "math.fma": _float(lambda a, b, c: np.float64(a) * np.float64(b) + np.float64(c)),
}
