"""Structural checks that xDSL 0.75's verifier does not make, or makes without a location.

- Symbol redefinition: reported at the second definition, naming the first (xDSL reports
  it at the module, without a line).
- SSA dominance: a value is used after its definition, in its block or in a region nested
  below it (xDSL accepts a use before the definition, and later stages fail in odd ways).
  Regions with several blocks are checked block by block only (strati's are single-block).
- Sizes: every dimension of a shaped type, and its number of elements, below 2**62, so that
  element counts and byte offsets fit in 64-bit arithmetic.
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
