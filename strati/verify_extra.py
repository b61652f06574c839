"""Structural checks that xDSL 0.75's verifier does not make, or makes without a location,
and the ops' own verifiers (:func:`check_ops`).

- Ops: each op's verifier, once per signature where it is local (see :func:`check_ops`).
- Symbol redefinition: reported at the second definition, naming the first (xDSL reports
  it at the module, without a line).
- SSA dominance: a value is used after its definition, in its block or in a region nested
  below it (xDSL accepts a use before the definition, and later stages fail in odd ways).
  Regions with several blocks are checked block by block only (strati's are single-block).
- Sizes: every dimension of a shaped type, and its number of elements, below 2**62, so that
  element counts and byte offsets fit in 64-bit arithmetic.
- Globals (:func:`check_globals`): a ``memref.global``'s initial value has its type's shape and
  element type, and a ``memref.get_global`` names a global of its result's type.
- Accesses (:func:`check_accesses`): a load or store that constant loop bounds take out of
  its memref's static shape, on an iteration that surely runs (compiled, it would write or
  read outside the buffer, and may kill the process).
"""

from __future__ import annotations

from collections.abc import Hashable

from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Block, BlockArgument, ErasedSSAValue, Operation, OpResult, SSAValue
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import DiagnosticException

from strati.registry import get_op_attr, register_op_attr

MAX_SIZE = 1 << 62

LOCAL_VERIFIERS = (
    "arith.addf", "arith.addi", "arith.andi", "arith.cmpf", "arith.cmpi", "arith.constant", "arith.divf",
    "arith.divsi", "arith.divui", "arith.fptosi", "arith.index_cast", "arith.maximumf", "arith.minimumf",
    "arith.minsi", "arith.mulf", "arith.muli", "arith.remsi", "arith.remui", "arith.select", "arith.sitofp",
    "arith.subf", "arith.subi", "math.exp", "memref.alloc", "memref.alloca", "memref.dealloc", "memref.load",
    "memref.store", "vector.broadcast", "vector.fma", "vector.load", "vector.shuffle", "vector.store",
)
"""The upstream ops of lowered code whose verifier (xDSL 0.75's, read for this) looks at nothing
but the op's own operand and result types, properties and attributes: each is marked
``local_verifier`` (strati's own such ops mark themselves where they are defined)."""

for _name in LOCAL_VERIFIERS:
    register_op_attr(_name, "local_verifier", True)


def check_ops(module: Operation) -> tuple[str, Operation] | None:
    """(message, op) for the first op, in walk order, whose verifier fails; None when all pass.

    An op marked ``local_verifier`` without regions or successors is verified once per
    :func:`signature`: its verdict is a function of it, and the ops of lowered code repeat a
    few signatures (DenseNet-121's 21,934 ops at the hw level have 1,302; verifying each op
    took 1.5 s, as many vector.loads as a kernel has taps each building xDSL's type constraints
    anew).  The first op that fails is the same either way."""
    from strati.diagnostics import diagnostic_message

    passed: set[Hashable] = set()
    local: dict[str, bool] = {}
    for op in module.walk():
        key = signature(op, local)
        if key is not None:
            try:
                if key in passed and not any(isinstance(v, ErasedSSAValue) for v in op.operands):
                    continue
            except TypeError:  # an unhashable attribute: verified as it is
                key = None
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as err:
            return diagnostic_message(err), op
        except Exception as err:  # noqa: BLE001 - a bug in a verifier or an infer_type
            return f"internal error while verifying: {type(err).__name__}: {err}", op
        if key is not None:
            passed.add(key)
    return None


def signature(op: Operation, local: dict[str, bool]) -> Hashable | None:
    """All a local verifier's verdict depends on: the op's class, operand and result types,
    properties and attributes, and, for the last op of its block, its parent's class (whether
    the block needs a terminator); None for an op not marked ``local_verifier`` (``local``
    caches the marks by op name), or with regions or successors."""
    if op.regions or op.successors:
        return None
    if (marked := local.get(op.name)) is None:
        marked = local[op.name] = bool(get_op_attr(op.name, "local_verifier"))
    if not marked:
        return None
    parent = type(op.parent_op()) if op.next_op is None else None
    return (type(op), tuple(v.type for v in op.operands), tuple(r.type for r in op.results),
            tuple(op.properties.items()), tuple(op.attributes.items()), parent)


def check_structure(module: Operation) -> tuple[str, Operation] | None:
    """(message, op) for the first problem, in program order; None when there is none."""
    from strati.diagnostics import location_text

    index: dict[Operation, int] = {}
    for op in module.walk():
        block = op.parent_block()
        if block is not None and op not in index:
            for i, o in enumerate(block.ops):
                index[o] = i
        if op.has_trait(SymbolTable):
            seen: dict[str, Operation] = {}
            for child in op.regions[0].ops if op.regions else ():
                name = child.properties.get("sym_name", child.attributes.get("sym_name"))
                if name is None:
                    continue
                if name.data in seen:
                    first = location_text(seen[name.data].location)
                    return f"redefinition of symbol '@{name.data}'{f' (first defined at {first})' if first else ''}", child
                seen[name.data] = child
        for i, v in enumerate(op.operands):
            if not _dominates(v, op, index):
                name = f"%{v.name_hint}" if v.name_hint else f"#{i}"
                return f"operand {name} does not dominate this use (it is defined after it, or in a region that does not enclose it)", op
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            problem = _size_problem(value)
            if problem is not None:
                return problem, op
    return None


def _dominates(value: SSAValue, user: Operation, index: dict[Operation, int]) -> bool:
    if isinstance(value, OpResult):
        definer = value.op
        block = definer.parent_block()
    elif isinstance(value, BlockArgument):
        definer, block = None, value.block
    else:  # a forward reference the parser never resolved (defined only in a region below the use)
        return False
    if block is None:
        return True
    op: Operation | None = user
    while op is not None:  # the user, or the ancestor of it that is in the defining block
        if op.parent_block() is block:
            return definer is None or (definer is not op and index.get(definer, -1) < index.get(op, -1))
        if _same_region_other_block(op.parent_block(), block):
            return True  # a multi-block region: not checked here
        op = op.parent_op()
    return False


def _same_region_other_block(a: Block | None, b: Block) -> bool:
    return a is not None and a is not b and a.parent is not None and a.parent is b.parent


def _size_problem(value: SSAValue) -> str | None:
    t = value.type
    if not isinstance(t, ShapedType):
        return None
    try:
        shape = t.get_shape()
    except Exception:  # noqa: BLE001 - an unranked type has no shape
        return None
    count = 1
    for d in shape:
        if d >= MAX_SIZE:
            return f"dimension {d} of {t} is too large (at most 2**62 - 1)"
        if d > 0:
            count *= d
    if count >= MAX_SIZE:
        return f"{t} has {count} elements, too many (at most 2**62 - 1)"
    return None


ACCESSES = {"memref.load": 0, "memref.store": 1, "vector.load": 0, "vector.store": 1}
"""The memory accesses checked, and the place of the memref among their operands (the indices follow it)."""


def check_accesses(module: Operation) -> tuple[str, Operation] | None:
    """(message, op) for the first access whose index leaves its dimension of the memref's
    static shape on an iteration that surely runs: each index a linear combination of
    constants and of the variables of loops (``loop.for``, a target's loops) with constant
    bounds, or bounds a constant apart (``%k = %kc to %kc + 4``: its variable is ``%kc`` plus
    an offset of its own), the access in no other region than such loops, none of them empty,
    up to its function.  Then the extreme values are taken (the loops' variables and offsets
    are independent), so the answer is exact; anything else (a bound computed at run time, a
    branch) is not checked.  A vector access spans its lanes along the last dimension."""
    from strati.dialects.loop.analysis import constant_index
    from strati.dialects.loop.ops import IndexLoop

    spans: dict[Operation, tuple[int, int] | None] = {}
    forms: dict[SSAValue, dict | None] = {}

    def loop_span(loop: Operation) -> tuple[int, int] | None:
        """The values of the loop's variable less its lower bound's variable part; None when
        the loop may be empty, or its bounds are not a constant apart."""
        if loop not in spans:
            spans[loop] = None
            lb, ub = (_linear(v, forms, IndexLoop, constant_index, loop_span) for v in (loop.lb, loop.ub))  # type: ignore[attr-defined]
            step = constant_index(loop.step)  # type: ignore[attr-defined]
            if lb is not None and ub is not None and step is not None and step >= 1:
                difference = {v: ub.get(v, 0) - lb.get(v, 0) for v in {*lb, *ub} if ub.get(v, 0) != lb.get(v, 0)}
                if set(difference) <= {None} and (trips := difference.get(None, 0)) > 0:
                    start = lb.get(None, 0)
                    spans[loop] = (start, start + (trips - 1) // step * step)
        return spans[loop]

    for op in module.walk():
        at = ACCESSES.get(op.name)
        if at is None:
            continue
        memref_value = op.operands[at]
        shape = getattr(memref_value.type, "get_shape", lambda: ())()
        indices = op.operands[at + 1 :]
        if not shape or len(indices) != len(shape):
            continue
        parent, sure = op.parent_op(), True
        while parent is not None and parent.name != "func.func":
            if not isinstance(parent, IndexLoop) or loop_span(parent) is None:
                sure = False
                break
            parent = parent.parent_op()
        if not sure:
            continue
        lanes = 1
        if op.name.startswith("vector."):
            vector_type = (op.results[0] if op.name == "vector.load" else op.operands[0]).type
            lanes = getattr(vector_type, "get_shape", lambda: (1,))()[-1]
        for k, (index, extent) in enumerate(zip(indices, shape)):
            if extent < 0:
                continue
            form = _linear(index, forms, IndexLoop, constant_index, loop_span)
            if form is None:
                continue
            lo = hi = form.get(None, 0)
            for var, coefficient in form.items():
                if var is None:
                    continue
                first, last = loop_span(var.owner.parent_op())  # type: ignore[misc,union-attr]
                lo += min(coefficient * first, coefficient * last)
                hi += max(coefficient * first, coefficient * last)
            if k == len(shape) - 1:
                hi += lanes - 1
            if lo < 0 or hi >= extent:
                where = f"{lo}" if lo == hi else f"{lo} to {hi}"
                return (f"index {k} goes out of bounds: it takes {where}, and dimension {k} of "
                        f"{memref_value.type} has {extent} elements"), op  # fmt: skip
    return None


def _linear(value: SSAValue, forms: dict, loop_type, constant_index, loop_span) -> dict | None:
    """``value`` as {loop variable: coefficient, None: constant}, or None when it is not such a
    combination of constants and the variables of loops that ``loop_span`` spans (a loop's
    variable stands for its offset from its lower bound's variable part, which the form adds)."""
    if value in forms:
        return forms[value]
    forms[value] = None  # (a loop's bounds read before its variable's form is known)
    form: dict | None = None
    c = constant_index(value)
    owner = value.owner
    if c is not None:
        form = {None: c}
    elif isinstance(value, BlockArgument):
        loop = value.block.parent_op()
        if isinstance(loop, loop_type) and value.index == 0 and loop_span(loop) is not None:
            lb = _linear(loop.lb, forms, loop_type, constant_index, loop_span)
            assert lb is not None  # (loop_span read it)
            form = {v: x for v, x in lb.items() if v is not None}
            form[value] = 1
    elif isinstance(owner, Operation) and owner.name in ("arith.addi", "arith.subi", "arith.muli"):
        a, b = (_linear(v, forms, loop_type, constant_index, loop_span) for v in owner.operands)
        if a is not None and b is not None:
            if owner.name == "arith.muli":
                if set(a) == {None} or set(b) == {None}:
                    scale, other = (a[None], b) if set(a) == {None} else (b[None], a)
                    form = {v: scale * x for v, x in other.items()}
            else:
                sign = -1 if owner.name == "arith.subi" else 1
                form = dict(a)
                for v, x in b.items():
                    form[v] = form.get(v, 0) + sign * x
    forms[value] = form
    return form


def check_globals(module: Operation) -> tuple[str, Operation] | None:
    """(message, op) for the first ``memref.global`` whose initial value is not of its type's
    shape and element type, or ``memref.get_global`` whose result type is not its global's
    (xDSL 0.75 checks neither: the buffer would be read with the wrong size)."""
    from xdsl.dialects import memref
    from xdsl.dialects.builtin import MemRefType

    found: dict[str, memref.GlobalOp] = {}
    getters: list[memref.GetGlobalOp] = []
    for op in module.walk():
        if isinstance(op, memref.GlobalOp):
            found[op.sym_name.data] = op
            value_type = getattr(op.initial_value, "type", None)
            if isinstance(value_type, ShapedType) and isinstance(op.type, MemRefType) and (
                tuple(value_type.get_shape()) != tuple(op.type.get_shape())
                or value_type.get_element_type() != op.type.get_element_type()
            ):
                return f"initial value of type {value_type} does not match the global's type {op.type}", op
        elif isinstance(op, memref.GetGlobalOp):
            getters.append(op)
    for op in getters:
        target = found.get(op.name_.root_reference.data)
        if target is not None and op.memref.type != target.type:
            return f"@{op.name_.root_reference.data} is a {target.type}, not a {op.memref.type}", op
    return None
