"""vectorize-transposes: a copy that transposes its two innermost loops' dimensions becomes
vector loads along one, an N x N transpose in registers, and vector stores along the other.

A blocked convolution's result goes back to NCHW (for an op that wants it so) through such a
copy: the channel ``c`` is contiguous in what is read (``NCHW{32}c``), the pixel ``w`` in what
is written.  ``vectorize`` leaves it scalar (no loop is contiguous in both), so each element
was loaded and stored by itself, a pixel's 32 stores 32 planes apart (after SqueezeNet's
stem: 0.29 ms, the convolution's 0.23; tiled, 0.13).  With N lanes::

    loop.for %w = 0 to 111 {                     loop.for %w0 = 0 to 104 step 8 {
      loop.for %c = 0 to 32 {                      loop.for %c0 = 0 to 32 step 8 {
        %x = memref.load %in[.., %w, %c]    =>       %r_i = vector.load %in[.., %w0 + i, %c0]      (i < 8)
        %y = arith.maximumf %x, %zero                %s_i = arith.maximumf %r_i, %zero_vec
        memref.store %y, %out[.., %c, %w]            %t_j = lane j of every %s_i                   (3 rounds of vector.shuffle)
    }}                                               vector.store %t_j, %out[.., %c0 + j, %w0]     (j < 8)
                                                 }}
                                                 loop.for %w = 104 to 111 { the scalar nest }

The nest: an outer loop (step 1, constant bounds) holding only an innermost loop (the same).
Its body loads with one of the two variables as the last index (no other index depending on
it), computes elementwise (the ops ``vectorize`` accepts), and stores once, with the other
variable as the last index and the first as exactly one other index (the rest depending on
neither); the loads must not all be the same for every value of the store's variable (a
broadcast: ``vectorize`` stores it as it is).  Either orientation: the copy out of ``NCHW{c}c`` loads along the inner loop,
``graph.transpose`` along the outer one.  A load at the very indices of the store, of a buffer
of its type (ResNet's residual, added in place: the same bytes, as ``outline-kernels`` marks
with ``strati.may_alias``, or other ones), is read after the transpose, a column at a time, and
what uses it is computed on the columns; no other load reads the stored buffer.  ``N`` is the
target's vector width for the element type, halved (down to
:data:`~strati.transforms.vectorize.MIN_LANES`) while a loop is shorter.  The tiles cover the
first multiple of N iterations of each loop; the scalar nest keeps the rest: the inner loop's
last iterations on the tiled outer ones, then the outer loop's last ones.  The transpose swaps
the off-diagonal blocks of N/2, then N/4, ... 1 rows and lanes (:func:`transpose_masks`), each a
two-input ``vector.shuffle`` that LLVM's x86 back end turns into one or two of its shuffles.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, vector
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, VectorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from strati.dialects.hw.ops import TargetAttr
from strati.dialects.loop.analysis import IndexConstants, constant_index, depends, element_bits, inside, trip_count
from strati.dialects.loop.ops import ForOp, buffer_root
from strati.dialects.loop.ops import YieldOp as LoopYieldOp
from strati.transforms.vectorize import (
    MIN_LANES,
    UNIFORM_SAFE_DIALECTS,
    VECTORIZABLE,
    is_vector_element,
    vector_form_verifies,
    vector_lanes,
    vector_loops,
)


MIN_BITS = 16
"""Elements narrower than this (bytes, booleans) are left alone: a tile of 32 x 32 of them or
more (not tried)."""


@dataclass(frozen=True)
class VectorizeTransposesPass(ModulePass):
    """Copies that transpose their two innermost dimensions move N x N tiles through registers."""

    name = "vectorize-transposes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for target, consts, loop in vector_loops(op):
            if (nest := match(loop, target)) is not None:
                rewrite(nest, consts)


def transpose_masks(n: int) -> list[tuple[int, int, list[int], list[int]]]:
    """The shuffles that transpose ``n`` rows of ``n`` lanes (``n`` a power of two): for each
    block size b = n/2, n/4, ... 1 and each row i without bit b, rows i and i + b become
    ``shuffle(row_i, row_i+b, first)`` and ``shuffle(row_i, row_i+b, second)`` (lanes of the
    second operand numbered from n).  Each round swaps the elements (i, k) and (i ^ b, k ^ b)
    whose row and lane differ in bit b; after all rounds (i, k) is at (k, i)."""
    rounds = []
    b = n // 2
    while b >= 1:
        first = [k if not k & b else n + k - b for k in range(n)]
        second = [k + b if not k & b else n + k for k in range(n)]
        rounds += [(i, i + b, first, second) for i in range(n) if not i & b]
        b //= 2
    return rounds


@dataclass
class Nest:
    outer: ForOp
    inner: ForOp
    loads_along: SSAValue
    """The variable (of ``outer`` or ``inner``) the varying loads are contiguous in."""
    store_along: SSAValue
    """The other one, the stored address's last index."""
    store: memref.StoreOp
    rows: set[SSAValue]
    """The body's values that vary along ``loads_along``: a vector per value of ``store_along``."""
    columns: set[SSAValue]
    """The values computed after the transpose, along ``store_along``: loads at the stored
    address (a residual added in place) and what uses them."""
    lanes: int



def match(inner: ForOp, target: TargetAttr) -> Nest | None:
    """The transposing nest whose innermost loop is ``inner``, if it is one (its loads
    contiguous in either loop's variable, its store in the other's)."""
    outer = inner.parent_op()
    if not isinstance(outer, ForOp) or any(o is not inner and not isinstance(o, LoopYieldOp) for o in outer.body.block.ops):
        return None
    for loop in (inner, outer):
        if constant_index(loop.step) != 1 or constant_index(loop.lb) is None or trip_count(loop) is None:
            return None
    c, w = inner.induction_var, outer.induction_var
    return _match(outer, inner, c, w, target) or _match(outer, inner, w, c, target)


def _match(outer: ForOp, inner: ForOp, along: SSAValue, across: SSAValue, target: TargetAttr) -> Nest | None:
    body = [op for op in inner.body.block.ops if not isinstance(op, LoopYieldOp)]
    stores = [op for op in body if isinstance(op, memref.StoreOp)]
    if len(stores) != 1 or any(op.regions for op in body):
        return None
    (store,) = stores
    indices = list(store.indices)
    if (len(indices) < 2 or indices[-1] is not across or inside(store.memref, inner)
            or [i for i in indices[:-1] if depends(i, along, outer) or depends(i, across, outer)] != [along]):
        return None
    root = buffer_root(store.memref)
    rows: set[SSAValue] = set()
    columns: set[SSAValue] = set()
    bits = set()

    def invariant(v: SSAValue) -> bool:
        return not (depends(v, along, outer) or depends(v, across, outer))

    for op in body:
        if op is store:
            continue
        if isinstance(op, memref.LoadOp):
            if inside(op.memref, inner) or buffer_root(op.memref) is None:
                return None
            if list(op.indices) == indices and op.memref.type == store.memref.type:
                columns.add(op.res)  # read where it is written (in place: lane by lane, as vectorize allows)
            elif buffer_root(op.memref) == root:
                return None
            elif op.indices and op.indices[-1] is along and not any(depends(i, along, outer) for i in op.indices[:-1]):
                rows.add(op.res)
            elif any(depends(i, along, outer) for i in op.indices):
                return None
            if op.res in rows or op.res in columns:
                if not is_vector_element(op.res.type):
                    return None
                bits.add(element_bits(op.res.type))
            continue
        if any(v in rows or v in columns for v in op.operands):
            if op.name not in VECTORIZABLE or isinstance(op, arith.SelectOp) or not vector_form_verifies(op):
                return None
            if not all(is_vector_element(r.type) for r in op.results):
                return None
            kind = columns if any(v in columns for v in op.operands) else rows
            if kind is columns and not all(v in rows or v in columns or invariant(v) for v in op.operands):
                return None  # a scalar varying along the store's lanes
            kind.update(op.results)
            bits.update(element_bits(r.type) for r in op.results)
        elif op.name.split(".", 1)[0] not in UNIFORM_SAFE_DIALECTS or any(depends(v, along, outer) for v in op.operands):
            return None  # side effects, or arithmetic on the loads' variable
    if not rows or store.value not in rows | columns or len(bits) != 1 or min(bits) < MIN_BITS:
        return None
    if not any(isinstance(v.owner, memref.LoadOp) and any(depends(i, across, outer) for i in v.owner.indices) for v in rows):
        return None  # every row the same (a bias broadcast along the store): vectorize's broadcast and stores
    lanes = vector_lanes(target, bits.pop())
    trips = min(trip_count(inner), trip_count(outer))
    while lanes > MIN_LANES and trips < lanes:
        lanes //= 2
    if lanes < MIN_LANES or trips < lanes:
        return None
    return Nest(outer, inner, along, across, store, rows, columns, lanes)


def rewrite(nest: Nest, consts: IndexConstants) -> None:
    """The vector nest over the first multiple of N iterations of each loop, then the scalar
    nest over the rest of the inner loop's, then over the rest of the outer loop's."""
    outer, inner, n = nest.outer, nest.inner, nest.lanes
    lb, inner_lb = constant_index(outer.lb), constant_index(inner.lb)
    end = lb + trip_count(outer) // n * n
    inner_end = inner_lb + trip_count(inner) // n * n
    tiles = ForOp(outer.lb, consts.get(end), consts.get(n), parallel=outer.is_parallel)
    columns = ForOp(inner.lb, consts.get(inner_end), consts.get(n), parallel=inner.is_parallel)
    for new, old in ((tiles, outer), (columns, inner)):
        new.induction_var.name_hint = old.induction_var.name_hint
    tiles.body.block.insert_op_before(columns, tiles.body.block.last_op)
    outer.parent_block().insert_op_before(tiles, outer)
    if inner_end != inner_lb + trip_count(inner):  # the inner loop's last iterations, on the outer's tiles
        rest = outer.clone()
        rest.operands[1] = consts.get(end)
        rest.body.block.first_op.operands[0] = consts.get(inner_end)
        outer.parent_block().insert_op_before(rest, outer)
    block, terminator = columns.body.block, columns.body.block.last_op
    start = {outer.induction_var: tiles.induction_var, inner.induction_var: columns.induction_var}
    along, across = nest.loads_along, nest.store_along
    body = [op for op in inner.body.block.ops if not isinstance(op, LoopYieldOp) and op is not nest.store]

    def put(op: Operation) -> Operation:
        block.insert_op_before(op, terminator)
        return op

    def offset(iv: SSAValue, k: int) -> SSAValue:
        return start[iv] if k == 0 else put(arith.AddiOp(start[iv], consts.get(k))).result

    # What depends on neither loop (a constant) is computed once, before the nest.
    invariant: dict[SSAValue, SSAValue] = {}
    for op in body:
        if not (isinstance(op, memref.LoadOp) or any(r in nest.rows or r in nest.columns for r in op.results)
                or any(depends(v, along, outer) or depends(v, across, outer) for v in op.operands)):
            new = op.clone(value_mapper=dict(invariant))
            tiles.parent_block().insert_op_before(new, tiles)
            invariant.update(zip(op.results, new.results))
    hoisted: dict[SSAValue, SSAValue] = {}

    def vec(v: SSAValue, values: dict[SSAValue, SSAValue]) -> SSAValue:
        if v in nest.rows or v in nest.columns:
            return values[v]
        v = values.get(v, v)
        if inside(v, tiles):  # computed in the body, one per row
            return put(vector.BroadcastOp(v, VectorType(v.type, [n]))).vector
        if v not in hoisted:  # invariant: broadcast once, before the nest
            b = vector.BroadcastOp(v, VectorType(v.type, [n]))
            tiles.parent_block().insert_op_before(b, tiles)
            hoisted[v] = b.vector
        return hoisted[v]

    def emit(op: Operation, values: dict[SSAValue, SSAValue]) -> None:
        if isinstance(op, memref.LoadOp) and (op.res in nest.rows or op.res in nest.columns):
            new = put(vector.LoadOp(op.memref, [values.get(x, x) for x in op.indices], VectorType(op.res.type, [n])))
        elif any(r in nest.rows or r in nest.columns for r in op.results):
            new = put(op.create(operands=[vec(v, values) for v in op.operands],
                                result_types=[VectorType(r.type, [n]) for r in op.results],
                                properties=dict(op.properties), attributes=dict(op.attributes)))
        else:
            new = put(op.clone(value_mapper=dict(values)))
        values.update(zip(op.results, new.results))

    # The ops computed after the transpose: the columns' and the scalars they use.
    for_columns = [op for op in body if any(r in nest.columns for r in op.results)]
    for op in reversed(body):
        if op not in for_columns and not (op.results and op.results[0] in invariant) and not any(
                r in nest.rows for r in op.results) and any(u.operation in for_columns for r in op.results for u in r.uses):
            for_columns.append(op)
    for_columns = [op for op in body if op in for_columns]  # in the body's order
    # Rows: row i is the loads at along + 0..n-1, across + i, and what is computed of them.
    row_values = []
    for i in range(n):
        values = {**invariant, along: start[along], across: offset(across, i)}
        for op in body:
            if not (op.results and op.results[0] in invariant or any(r in nest.columns for r in op.results)):
                emit(op, values)
        row_values.append(values)
    # The transpose, of each row value the columns need (the stored one, or what the columns use).
    needed = [v for v in nest.rows if v is nest.store.value or any(
        u.operation.results and u.operation.results[0] in nest.columns for u in v.uses)]
    transposed: dict[SSAValue, list[SSAValue]] = {}
    for v in sorted(needed, key=lambda v: body.index(v.owner)):
        lanes = [values[v] for values in row_values]
        for i, p, first, second in transpose_masks(n):
            a, b = lanes[i], lanes[p]
            lanes[i] = put(vector.ShuffleOp(a, b, DenseArrayBase.from_list(i64, first), result_type=a.type)).result
            lanes[p] = put(vector.ShuffleOp(a, b, DenseArrayBase.from_list(i64, second), result_type=a.type)).result
        transposed[v] = lanes
    # Columns: column j is the addresses at along + j, across + 0..n-1.
    for j in range(n):
        values = {**invariant, along: offset(along, j), across: start[across]}
        values.update({v: lanes[j] for v, lanes in transposed.items()})
        for op in for_columns:
            emit(op, values)
        put(vector.StoreOp(values[nest.store.value], nest.store.memref, [values.get(x, x) for x in nest.store.indices]))
    if end == lb + trip_count(outer):
        outer.detach()
        outer.erase()
    else:
        outer.operands[0] = consts.get(end)


__all__ = ["MIN_BITS", "VectorizeTransposesPass", "match", "rewrite", "transpose_masks"]
