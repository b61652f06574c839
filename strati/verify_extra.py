"""Structural checks that xDSL 0.75's verifier does not make, or makes without a location.

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

from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import SymbolTable

MAX_SIZE = 1 << 62


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
    constants and of the variables of loops with constant bounds (``loop.for``, a target's
    loops), the access in no other region than such loops, none of them empty, up to its
    function.  Then the extreme values are taken (the loops' variables are independent), so
    the answer is exact; anything else (a bound computed at run time, a branch) is not checked.
    A vector access spans its lanes along the last dimension."""
    from strati.dialects.loop.analysis import constant_index
    from strati.dialects.loop.ops import IndexLoop

    spans: dict[Operation, tuple[int, int] | None] = {}

    def loop_span(loop: Operation) -> tuple[int, int] | None:
        if loop not in spans:
            bounds = [constant_index(v) for v in (loop.lb, loop.ub, loop.step)]  # type: ignore[attr-defined]
            lb, ub, step = bounds
            if lb is None or ub is None or step is None or step < 1 or ub <= lb:
                spans[loop] = None
            else:
                spans[loop] = (lb, lb + (ub - lb - 1) // step * step)
        return spans[loop]

    forms: dict[SSAValue, dict | None] = {}
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
            form = _linear(index, forms, IndexLoop, constant_index)
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


def _linear(value: SSAValue, forms: dict, loop_type, constant_index) -> dict | None:
    """``value`` as {loop variable: coefficient, None: constant}, or None when it is not such a
    combination of constants and the variables of loops with constant bounds."""
    if value in forms:
        return forms[value]
    form: dict | None = None
    c = constant_index(value)
    owner = value.owner
    if c is not None:
        form = {None: c}
    elif isinstance(value, BlockArgument):
        loop = value.block.parent_op()
        if isinstance(loop, loop_type) and value.index == 0:
            form = {value: 1}
    elif isinstance(owner, Operation) and owner.name in ("arith.addi", "arith.subi", "arith.muli"):
        a, b = (_linear(v, forms, loop_type, constant_index) for v in owner.operands)
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
