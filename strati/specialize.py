"""Executables for functions with dynamic dimensions: compiled once per input signature.

strati generates code for static shapes only (buffers are bare pointers, loops have
constant bounds).  A function whose arguments have ``?`` dimensions (an ONNX model with
a ``dim_param`` batch or sequence length, say) compiles into a
:class:`SpecializingExecutable`: its ports keep the declared types, every call is
checked against them (dtype, rank, each static dimension), and the first call with a
new combination of concrete input shapes specialises the model (the arguments get the
concrete shapes, shapes are inferred again, see :func:`specialize_module`; an ONNX
model is imported again with those shapes, so that its shape computations fold) and
compiles it.  The compiled executables are kept in a least-recently-used cache of
``cache_size`` entries (:data:`DEFAULT_CACHE_SIZE`), as MXNet's hybridize caches a
graph per input signature.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.rewriter import Rewriter

from strati.dense import to_dtype
from strati.diagnostics import StratiError
from strati.dialects.shapes import shape_of
from strati.functions import argument_aliases, find_function, result_names
from strati.runtime.jit import CallableByPorts, Executable, Port, order_ports

DEFAULT_CACHE_SIZE = 8
"""How many specialisations an executable keeps by default (``strati.compile(..., cache_size=N)``)."""

Shapes = tuple[tuple[int, ...], ...]


def has_dynamic_arguments(fn: func.FuncOp) -> bool:
    return any(isinstance(t, TensorType) and None in shape_of(t) for t in fn.function_type.inputs.data)


def tensor_ports(fn: func.FuncOp) -> tuple[list[Port], list[Port]]:
    """The inputs and outputs of a tensor-level function, as ports (None for a dynamic dimension)."""

    def port(names: tuple[str, ...], t) -> Port:
        if not isinstance(t, TensorType):
            raise StratiError(f"@{fn.sym_name.data} has an argument or result of type {t}: only tensors can be dynamic")
        return Port(names[0], t, shape_of(t), to_dtype(t.get_element_type()), names[1:])

    inputs = [port(a, t) for a, t in zip(argument_aliases(fn), fn.function_type.inputs.data)]
    outputs = [port((n,), t) for n, t in zip(result_names(fn), fn.function_type.outputs.data)]
    return inputs, outputs


def check_dynamic(port: Port, value) -> np.ndarray:
    """A value against a port with dynamic dimensions: a numpy array of its dtype and rank, and of
    its size in every static dimension; one-line errors naming the input."""
    if not isinstance(value, np.ndarray):
        raise StratiError(f"input '{port.name}' must be a numpy array of type {port.type}, got {type(value).__name__}")
    if value.dtype != port.dtype:
        raise StratiError(f"input '{port.name}' has dtype {value.dtype}, expected {port.dtype} ({port.type})")
    if value.ndim != len(port.shape):
        raise StratiError(
            f"input '{port.name}' has rank {value.ndim} (shape {list(value.shape)}), expected rank {len(port.shape)} ({port.type})"
        )
    for i, (want, got) in enumerate(zip(port.shape, value.shape)):
        if want is not None and want != got:
            raise StratiError(f"input '{port.name}' has shape {list(value.shape)}, expected {port.type} (dimension {i} is {want})")
    return value


def specialize_module(module: ModuleOp, entry: str | None, shapes: Shapes) -> ModuleOp:
    """A copy of the module whose entry function takes tensors of the given shapes, with the
    types inside inferred again (a contradiction, such as two ``?`` that must agree and do not,
    is a StratiError naming the op)."""
    from strati.transforms.infer_shapes import infer_function

    module = module.clone()
    fn = find_function(module, entry)
    block = fn.body.blocks[0]
    for arg, shape in zip(list(block.args), shapes):
        if tuple(arg.type.get_shape()) != shape:
            Rewriter.replace_value_with_new_type(arg, TensorType(arg.type.get_element_type(), shape))
    fn.function_type = FunctionType.from_lists([a.type for a in block.args], list(fn.function_type.outputs.data))
    try:
        infer_function(fn)
    except StratiError as err:
        shown = ", ".join("[" + "x".join(map(str, s)) + "]" for s in shapes)
        where = f"'{err.op.name}' op " if err.op is not None else ""
        raise StratiError(f"with inputs of shapes {shown}: {where}{err.message}", err.op) from None
    return module


@dataclass
class CacheInfo:
    hits: int
    misses: int
    size: int
    maxsize: int


class SpecializingExecutable(CallableByPorts):
    """Called as an :class:`~strati.runtime.jit.Executable` is (``exe(x)``, ``exe(**feeds)``,
    ``exe.run(...)``), for inputs of any shape the declared types allow; compiles per signature."""

    def __init__(
        self,
        name: str,
        inputs: list[Port],
        outputs: list[Port],
        build: Callable[[Shapes], Executable],
        cache_size: int = DEFAULT_CACHE_SIZE,
    ):
        if not isinstance(cache_size, int) or cache_size < 1:
            raise StratiError(f"cache_size must be a positive integer, got {cache_size!r}")
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.results: list[Port] = []
        self.cache_size = cache_size
        self._build = build
        self._cache: OrderedDict[Shapes, Executable] = OrderedDict()
        self._hits = self._misses = 0

    def run(self, *args, out: Sequence[np.ndarray] | np.ndarray | None = None, **named) -> list[np.ndarray]:
        inputs = self.bind(args, named)
        return self.specialization(tuple(x.shape for x in inputs)).run(*inputs, out=out)

    def bind(self, args: Sequence, named: Mapping[str, object]) -> list[np.ndarray]:
        return [check_dynamic(p, x) for p, x in zip(self.inputs, order_ports(self.inputs, args, named))]

    def specialization(self, shapes: Shapes) -> Executable:
        """The executable compiled for these input shapes (from the cache, else compiled now; the
        least recently used one is dropped when the cache is full)."""
        exe = self._cache.get(shapes)
        if exe is not None:
            self._hits += 1
            self._cache.move_to_end(shapes)
            return exe
        self._misses += 1
        exe = self._build(shapes)
        self._cache[shapes] = exe
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return exe

    def cache_info(self) -> CacheInfo:
        """Hits, misses, the specialisations kept and the bound, as functools.lru_cache says them."""
        return CacheInfo(self._hits, self._misses, len(self._cache), self.cache_size)

    @property
    def cached_shapes(self) -> list[Shapes]:
        """The input signatures compiled and kept, least recently used first."""
        return list(self._cache)

    def clear_cache(self) -> None:
        self._cache.clear()


__all__ = [
    "DEFAULT_CACHE_SIZE",
    "CacheInfo",
    "SpecializingExecutable",
    "check_dynamic",
    "has_dynamic_arguments",
    "specialize_module",
    "tensor_ports",
]
