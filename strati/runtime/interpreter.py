"""The reference interpreter: runs a function op by op through the registered ``reference``.

It is the oracle that compiled code is checked against, so it is deliberately
simple: values are numpy arrays, every op's result is checked against its
declared type, and any op without a ``reference`` is named in the error.
Dispatch is by op name through the registry, so an op defined outside strati
runs as soon as it registers a ``reference`` (xDSL's interpreter dispatches on
op classes and keeps tensors as ShapedArray, not numpy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue

from strati import registry
from strati.dense import call_reference, to_dtype
from strati.diagnostics import StratiError
from strati.dialects.shapes import shape_of
from strati.functions import argument_aliases, argument_names, find_function  # noqa: F401 - argument_names re-exported


def run_function(
    module: ModuleOp, inputs: Sequence[np.ndarray] | Mapping[str, np.ndarray], entry: str | None = None
) -> list[np.ndarray]:
    """Execute a function on numpy arrays; ``inputs`` by position or by argument name."""
    fn = find_function(module, entry)
    args = bind_inputs(fn, inputs)
    return Interpreter(module).call(fn, args)


def order_inputs(
    names: Sequence[str | Sequence[str]], inputs: Sequence | Mapping[str, object], types: Sequence | None = None
) -> list:
    """Inputs given by name or by position, in the order of ``names``; errors name the input
    (and its type, from ``types`` when given).

    An entry of ``names`` may be a tuple of aliases (the first is the one errors use): an
    input is found under any of them, and given under two of them is an error."""
    aliases = [(n,) if isinstance(n, str) else tuple(dict.fromkeys(n)) for n in names]
    first = [a[0] for a in aliases]
    if isinstance(inputs, Mapping):
        known = {name for a in aliases for name in a}
        unknown = [k for k in inputs if k not in known]
        if unknown:
            raise StratiError(f"unknown input '{unknown[0]}' (inputs: {', '.join(first) or 'none'})")
        ordered = []
        for i, a in enumerate(aliases):
            given = [n for n in a if n in inputs]
            if not given:
                raise StratiError(f"missing input '{a[0]}'" + (f" of type {types[i]}" if types else ""))
            if len(given) > 1:
                raise StratiError(f"input '{a[0]}' is given twice (as '{given[0]}' and '{given[1]}')")
            ordered.append(inputs[given[0]])
        return ordered
    if len(inputs) != len(aliases):
        raise StratiError(f"expected {len(aliases)} inputs ({', '.join(first)}), got {len(inputs)}")
    return list(inputs)


def bind_inputs(fn: func.FuncOp, inputs: Sequence[np.ndarray] | Mapping[str, np.ndarray]) -> list[np.ndarray]:
    """Check inputs against the function's argument types; errors name the input."""
    aliases = argument_aliases(fn)
    types = list(fn.function_type.inputs.data)
    values = order_inputs(aliases, inputs)
    return [check_value(a[0], t, np.asarray(x)) for a, t, x in zip(aliases, types, values)]


def check_value(name: str, t, value: np.ndarray) -> np.ndarray:
    """A value against a tensor type: same dtype, same shape where the type is static."""
    if not isinstance(t, TensorType):
        raise StratiError(f"'{name}' has type {t}, which the interpreter does not support")
    dtype = to_dtype(t.get_element_type())
    if value.dtype != dtype:
        raise StratiError(f"input '{name}' has dtype {value.dtype}, expected {dtype} ({t})")
    shape = shape_of(t)
    if len(shape) != value.ndim or any(d is not None and d != v for d, v in zip(shape, value.shape)):
        raise StratiError(f"input '{name}' has shape {list(value.shape)}, expected {t}")
    return value


class Interpreter:
    """Runs functions of one module; ``func.call`` goes to the module's other functions."""

    def __init__(self, module: ModuleOp):
        from strati.resources import require_values

        require_values(module)  # an elided constant has no values to run with
        self.module = module

    def call(self, fn: func.FuncOp, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        env: dict[SSAValue, np.ndarray] = dict(zip(fn.body.blocks[0].args, args))
        for op in fn.body.blocks[0].ops:
            if isinstance(op, func.ReturnOp):
                return [env[v] for v in op.arguments]
            values = [env[v] for v in op.operands]
            if isinstance(op, func.CallOp):
                results = self.call(find_function(self.module, op.callee.root_reference.data), values)
            else:
                results = self.run_op(op, values, env)
            env.update(zip(op.results, results))
        raise StratiError(f"function @{fn.sym_name.data} has no func.return")

    def run_op(
        self, op: Operation, values: Sequence[np.ndarray], env: Mapping[SSAValue, np.ndarray] | None = None
    ) -> list[np.ndarray]:
        """Run one op; an op with regions also gets ``captures``: the values defined above it."""
        reference = registry.get_op_attr(op.name, "reference")
        if reference is None:
            raise StratiError(f"op '{op.name}' has no 'reference' attribute: the interpreter cannot run it", op)
        out = call_reference(reference, op, *values, captures=env or {}) if op.regions else call_reference(reference, op, *values)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        if len(outs) != len(op.results):
            raise StratiError(f"reference of '{op.name}' returned {len(outs)} values for {len(op.results)} results", op)
        return [self._check_result(op, r, np.asarray(v)) for r, v in zip(op.results, outs)]

    @staticmethod
    def _check_result(op: Operation, result: SSAValue, value: np.ndarray) -> np.ndarray:
        t = result.type
        if isinstance(t, TensorType):
            dtype = to_dtype(t.get_element_type())
            shape = shape_of(t)
            bad_shape = len(shape) != value.ndim or any(
                d is not None and d != v for d, v in zip(shape, value.shape)
            )
            if value.dtype != dtype or bad_shape:
                raise StratiError(
                    f"reference of '{op.name}' returned {value.dtype}{list(value.shape)} for a result of type {t}",
                    op,
                )
        return value
