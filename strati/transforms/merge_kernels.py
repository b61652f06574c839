"""merge-kernels: kernels that differ only in ``index`` constants and in the sizes of the buffers
they read and write become one kernel, parametric in them.

``outline-kernels`` shares a kernel between identical loop nests.  Many nests are alike but
not identical: DenseNet-121's dense layers each read a concatenation one block of channels
wider than the last, so its 58 1x1 convolutions (and the batch norms before them) are the same
scheduled loops with other trip counts on buffers of other sizes, and LLVM compiled each one
apart (two thirds of its LLVM time).  Here kernels whose ops, attributes, types and regions
match once every ``index`` constant is taken as any value and every buffer argument that is
only loaded from and stored to as any size (of its rank and element type) form a family:

- the first member's body moves to ``@<first>.family``, a kernel that takes, after the
  family's arguments, an ``index`` argument per distinct column of values that differ among
  the members (a constant's uses, a buffer's dimension; a trip count and the dimension it
  runs over share one);
- a buffer whose sizes differ is passed flat (``memref<?xf32>``): each of its accesses is
  linearised, row-major, with its dimensions (arguments where they differ, constants where
  not);
- each member keeps its name and signature, its body now a call of the family with its own
  values (``loop.view`` and ``memref.cast`` flatten its buffers); it is no longer a kernel,
  so LLVM inlines it into its callers.

The bound of a short loop that LLVM unrolls fully (a window's taps: :data:`UNROLLED_TRIPS`,
:data:`UNROLLED_OPS`) stays a constant: kernels that differ in it do not merge.  Kernels whose
accesses ``check_accesses`` finds out of bounds stay as they are, so that the verifier still
reports them (a flat buffer's bounds are unknown).  It runs last in the CPU
target's pipeline, after the schedules, so that only kernels scheduled alike merge, on each
module ``convert-loop-to-hw`` lowers: ``strati.compile`` lowers each group of kernels alike as
a module of its own (:mod:`strati.runtime.apart`), so a family forms within a group.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from strati.dialects.hw.ops import TARGET_ATTR
from strati.dialects.loop.ops import IndexLoop, ViewOp
from strati.transforms.outline_kernels import KERNEL_ATTR, signature, unique
from strati.verify_extra import ACCESSES, check_accesses

FAMILY_SUFFIX = ".family"
SCHEDULE_RECORDS = "schedule."
"""The attributes that record a schedule's knobs.  On a module with a target description
(``hw.target``: in ``convert-loop-to-hw``, after the target's schedules) they are records, the
schedule's effect being in the ops and constants, so kernels that differ in them merge (the
family keeps a record only where all its members agree): DenseNet-121's 1x1 convolutions of
``schedule.ic_chunk`` 8 and 9 have the same loops.  Before, they are still to be applied."""


@dataclass
class Kernel:
    """A kernel function seen with its ``index`` constants and flattenable buffers' sizes abstracted."""

    fn: func.FuncOp
    key: tuple
    sites: list[tuple[Operation, int]]
    """Each use of an ``index`` constant: (op, operand number)."""
    values: tuple[int, ...]
    """The sites' values, then each flattenable buffer's dimensions."""
    flattenable: list[int]
    """The argument numbers of buffers only loaded from and stored to."""

    @staticmethod
    def of(fn: func.FuncOp, records: str | None = None) -> Kernel:
        """``records``: the prefix of attributes left out of the comparison."""
        args = list(fn.body.block.args)
        flattenable = [i for i, a in enumerate(args) if _flattenable(a)]
        types = tuple(_any_size(a.type) if i in flattenable else a.type for i, a in enumerate(args))
        sites: list[tuple[Operation, int]] = []
        key = (types, fn.arg_attrs, signature(fn.body.block.ops, args, sites, records))
        values = tuple(o.operands[k].owner.value.value.data for o, k in sites)  # type: ignore[union-attr]
        unrolled = tuple((n, v) for n, ((o, k), v) in enumerate(zip(sites, values)) if k == 1 and _unrolled(o, v))
        shapes = tuple(d for i in flattenable for d in args[i].type.get_shape())  # type: ignore[attr-defined]
        return Kernel(fn, (key, unrolled), sites, values + shapes, flattenable)


UNROLLED_TRIPS = 4
UNROLLED_OPS = 300
"""A loop of at most :data:`UNROLLED_TRIPS` iterations and :data:`UNROLLED_OPS` ops unrolled
(LLVM's threshold at O3 for unrolling fully, in instructions) is one LLVM unrolls: a pool's or
a convolution's window.  Its bound stays a constant, so kernels that differ in it do not
merge: an average pool's 3-tap window as a loop of a run-time count took 2.5 times as long.
A longer loop shares its overhead among more iterations, and kernels alike but for one are
many (with ResNet-50's spatial loops of 7 to 16 iterations kept constant, 53 of its 71
kernels stayed apart, against 31)."""


def _unrolled(op: Operation, ub: int) -> bool:
    """``op`` is a loop of constant bounds (``ub`` the upper one) that LLVM unrolls fully."""
    if not isinstance(op, IndexLoop) or (lb := _constant(op.lb)) is None or ub - lb > UNROLLED_TRIPS:
        return False
    return _unrolled_size(op, ub) <= UNROLLED_OPS


def _unrolled_size(loop: IndexLoop, ub: int | None = None) -> float:
    """The ops of ``loop`` unrolled fully, its inner loops too (infinite if a bound is not constant)."""
    lb, step = _constant(loop.lb), _constant(loop.step)
    ub = _constant(loop.ub) if ub is None else ub
    if lb is None or ub is None or step is None or step < 1:
        return math.inf
    trips, size = max(0, -(-(ub - lb) // step)), 0.0
    for op in loop.body.block.ops:
        size += _unrolled_size(op) if isinstance(op, IndexLoop) else math.inf if op.regions else 1
        if trips * size > UNROLLED_OPS:
            return math.inf
    return trips * size


def _flattenable(arg: BlockArgument) -> bool:
    t = arg.type
    return (
        isinstance(t, MemRefType)
        and isinstance(t.layout, NoneAttr)
        and len(t.get_shape()) >= 1
        and all(d >= 0 for d in t.get_shape())
        and all(ACCESSES.get(use.operation.name) == use.index for use in arg.uses)
    )


def _any_size(t: MemRefType) -> tuple:
    return ("buffer", t.get_element_type(), len(t.get_shape()), t.memory_space)


def flat_type(t: MemRefType) -> MemRefType:
    """``t``'s elements as a 1-D buffer of any size."""
    return MemRefType(t.get_element_type(), [DYNAMIC_INDEX], NoneAttr(), t.memory_space)


def merge(module: ModuleOp, members: list[Kernel], names: set[str]) -> func.FuncOp:
    """One family kernel for ``members`` (each made a call of it); returns the family."""
    first = members[0]
    for ops in zip(*(m.fn.body.walk() for m in members)):  # a record that differs among them is no one's
        for name in [n for n, v in ops[0].attributes.items() if n.startswith(SCHEDULE_RECORDS) and any(o.attributes.get(n) != v for o in ops[1:])]:
            del ops[0].attributes[name]
    columns = list(zip(*(m.values for m in members)))
    old_args = list(first.fn.body.block.args)
    dims: dict[int, list[tuple[int, ...]]] = {}  # a flattened argument's dimension columns
    at = len(first.sites)
    for i in first.flattenable:
        rank = len(old_args[i].type.get_shape())  # type: ignore[attr-defined]
        if any(len(set(c)) > 1 for c in columns[at : at + rank]):
            dims[i] = columns[at : at + rank]
        at += rank
    params: dict[tuple[int, ...], int] = {}  # the differing columns used: sites', and dimensions' but the first
    for column in [*columns[: len(first.sites)], *(c for i in dims for c in dims[i][1:])]:
        if len(set(column)) > 1:
            params.setdefault(column, len(params))
    # The family: the first member's body, moved, on flattened buffers and the parameters.
    types = [flat_type(a.type) if i in dims else a.type for i, a in enumerate(old_args)]  # type: ignore[arg-type]
    block = Block(arg_types=[*types, *([IndexType()] * len(params))])
    param_args = block.args[len(types) :]
    for k, arg in enumerate(param_args):
        arg.name_hint = f"p{k}"
    for old, new in zip(old_args, block.args):
        new.name_hint = old.name_hint
    for op in list(first.fn.body.block.ops):
        op.detach()
        block.add_op(op)
    for (op, k), column in zip(first.sites, columns):
        if column in params:
            constant = op.operands[k].owner
            op.operands[k] = param_args[params[column]]
            if not constant.results[0].uses:  # type: ignore[union-attr]
                constant.detach()  # type: ignore[union-attr]
                constant.erase()  # type: ignore[union-attr]
    for i, (old, new) in enumerate(zip(old_args, block.args)):
        if i not in dims:
            old.replace_all_uses_with(new)
    flattened = {old_args[i]: (block.args[i], dims[i]) for i in dims}
    linearise = Linearise(block, param_args, params)
    for op in list(block.walk()):  # in order: a partial sum is reused after it is built
        at = ACCESSES.get(op.name)
        if at is not None and op.operands[at] in flattened:
            new, shape = flattened[op.operands[at]]
            op.operands = [*op.operands[:at], new, linearise(op, op.operands[at + 1 :], shape)]
    name = unique(first.fn.sym_name.data + FAMILY_SUFFIX, names)
    arg_attrs = None
    if first.fn.arg_attrs is not None:
        arg_attrs = ArrayAttr([*first.fn.arg_attrs.data, *([DictionaryAttr({})] * len(params))])
    family = func.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block), visibility="private", arg_attrs=arg_attrs)
    family.attributes[KERNEL_ATTR] = first.fn.attributes[KERNEL_ATTR]
    module.body.block.insert_op_before(family, first.fn)
    # Each member: a call of the family with its own sizes and values.
    for n, member in enumerate(members):
        fn = member.fn
        body = fn.body.block
        for op in reversed(list(body.ops)):
            op.detach()
            op.erase(safe_erase=False)
        operands: list[SSAValue] = []
        for i, arg in enumerate(body.args):
            if i in dims:
                t = arg.type
                assert isinstance(t, MemRefType)
                flat: SSAValue = arg
                if len(t.get_shape()) > 1:
                    view = ViewOp(arg, MemRefType(t.get_element_type(), [math.prod(t.get_shape())], NoneAttr(), t.memory_space))
                    body.add_op(view)
                    flat = view.result
                cast = memref.CastOp.get(flat, flat_type(t))
                body.add_op(cast)
                operands.append(cast.dest)
            else:
                operands.append(arg)
        for column in params:
            c = arith.ConstantOp(IntegerAttr(column[n], IndexType()))
            body.add_op(c)
            operands.append(c.result)
        body.add_ops([func.CallOp(name, operands, []), func.ReturnOp()])
        del fn.attributes[KERNEL_ATTR]
    return family


_NO_OVERFLOW_FLAGS = arith.IntegerOverflowAttr("none")


class Linearise:
    """The row-major linear index of an access, ``((i0 * d1 + i1) * d2 + i2) ...``, built before
    it (no product by 1, no sum with 0; the partial sums shared by the accesses of a block)."""

    def __init__(self, block: Block, param_args, params: dict[tuple[int, ...], int]) -> None:
        self.block, self.param_args, self.params = block, param_args, params
        self.constants: dict[int, SSAValue] = {}
        self.partial: dict[tuple, SSAValue | None] = {}

    def constant(self, value: int) -> SSAValue:
        if value not in self.constants:
            c = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self.block.insert_op_before(c, self.block.first_op)  # type: ignore[arg-type]
            self.constants[value] = c.result
        return self.constants[value]

    def __call__(self, op: Operation, indices, dims: list[tuple[int, ...]]) -> SSAValue:
        where = op.parent_block()
        linear: SSAValue | None = None
        for k, (index, column) in enumerate(zip(indices, dims)):
            key = (where, tuple(indices[: k + 1]), tuple(dims[1 : k + 1]))
            if key in self.partial:
                linear = self.partial[key]
                continue
            if linear is not None and column != (1,) * len(column):
                d = self.param_args[self.params[column]] if column in self.params else self.constant(column[0])
                linear = self._before(op, arith.MuliOp, linear, d)
            if _constant(index) != 0:
                linear = index if linear is None else self._before(op, arith.AddiOp, linear, index)
            self.partial[key] = linear
        return self.constant(0) if linear is None else linear

    @staticmethod
    def _before(op: Operation, cls, a: SSAValue, b: SSAValue) -> SSAValue:
        new = cls.create(operands=[a, b], result_types=[IndexType()], properties={"overflowFlags": _NO_OVERFLOW_FLAGS})
        op.parent_block().insert_op_before(new, op)  # type: ignore[union-attr]
        return new.results[0]


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@dataclass(frozen=True)
class MergeKernelsPass(ModulePass):
    """Kernels alike but for their ``index`` constants and buffer sizes, as calls of one kernel."""

    name = "merge-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        records = SCHEDULE_RECORDS if TARGET_ATTR in op.attributes else None
        families: dict[tuple, list[Kernel]] = defaultdict(list)
        names = {f.sym_name.data for f in op.ops if isinstance(f, func.FuncOp)}
        for fn in list(op.ops):
            if (
                isinstance(fn, func.FuncOp)
                and KERNEL_ATTR in fn.attributes
                and fn.body.blocks
                and not fn.function_type.outputs.data
            ):
                kernel = Kernel.of(fn, records)
                families[kernel.key].append(kernel)
        for members in families.values():
            if len(members) > 1:  # (accesses checked only here: a kernel alone stays as it is anyway)
                members = [m for m in members if check_accesses(m.fn) is None]
            if len(members) > 1:
                merge(op, members, names)


def family_members(module: ModuleOp) -> dict[str, list[str]]:
    """Each family kernel's name, and the functions that call it (for tests and tools)."""
    out: dict[str, list[str]] = defaultdict(list)
    for fn in module.ops:
        if isinstance(fn, func.FuncOp) and fn.body.blocks:
            for o in fn.body.block.ops:
                if isinstance(o, func.CallOp) and o.callee.root_reference.data.endswith(FAMILY_SUFFIX):
                    out[o.callee.root_reference.data].append(fn.sym_name.data)
    return dict(out)


__all__ = ["FAMILY_SUFFIX", "MergeKernelsPass", "family_members", "flat_type", "merge"]

