"""cpu-schedule-matmul: the CPU's schedule for matmul-shaped loop nests (GEMM, batched
matmul, and the matmul forms of the ``1x1_as_matmul`` and ``im2col`` convolutions).

A nest ``i, j, k`` (``C[.., i, j] += A[.., i, k] * B[.., k, j]``, A or B possibly
transposed, after any batch loops) is rebuilt from the generic loop transformations, as
GotoBLAS/BLIS block it::

    jc (NC, parallel: the cores split the columns) {
      kc (KC) {  pack B[kc.., jc..] -> KC x NC              // each core its own panel, once
        ic (MC, parallel when the rows split instead) {  pack A[ic.., kc..] -> MC x KC
          jr (NR) {                       full tiles, then the last partial one
            i (MR, unrolled and jammed) {
              k {  acc[MR x NR] += A[i, k] * B[k, j]  }   // in registers: NR/lanes vectors x MR rows
    }}}}}

The knobs come from the target description by an analytical model (:func:`knobs`): the
register tile ``MR x NR`` from the vector registers (``vector_width`` lanes: 32 of them
with AVX-512, 16 with AVX2 or less; NR two vectors wide, MR as many rows as leave room, beside
the accumulators, for the B vectors and the broadcasts of A of two k steps: LLVM unrolls the
k loop by two; but at least the accumulators that keep the FMA pipes busy, half again as many
when they fit beside one k step's B vectors and two broadcasts: 6 x 16 with AVX2, as BLIS's
Haswell kernel, :mod:`.registers`), ``KC`` so that B's ``KC x NR`` micro-panel fills half of
L1 while C fits half of L2, else as deep as a block of A of a few register tiles of rows
allows in a quarter of L2 (each k block reads and writes all of C once: :func:`depth`),
``MC`` so that a packed ``MC x KC`` block of A takes at most a quarter of L2 (it is read once
per NR columns).  The cores split the columns (``NC`` a core's share, its
panels of B in L3, packed once) when that shares the work as evenly as splitting the rows;
otherwise (few columns: a 1x1 convolution on a 7x7 image) ``NC`` covers the columns and the
cores split the row blocks (``MC`` a multiple of the cores), each B panel packed once before
them.  They are printed on the loops (``schedule.mc``, ``schedule.kc``, ``schedule.nc``,
``schedule.nr``, ``schedule.mr``) and read back from the nest's outermost loop when a tuner
(or a test) set them there.

A constant operand (weights: a constant global, or a kernel argument every call passes one) is
packed at compile time (:func:`strati.transforms.pack.pack_constant`): no copy runs.  With fewer
rows than ``MR`` (GEMV: a fully connected layer of batch 1) the rows have nothing to share, and
:func:`schedule_small_m` instead streams B once through its ``kc x nr`` panels, every row in one
register tile, the cores splitting the columns (``schedule.small_m`` on the column block loop;
``schedule.small_m = 0`` given on the nest keeps the large-M schedule).

Every step keeps each sum in its order (the k blocks ascend, and only loops over distinct
outputs are interchanged or jammed), so the results are bit-identical to the unscheduled
nest's.  Nests smaller than ``min-work`` multiply-adds are left to the generic passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException
from xdsl.transforms.common_subexpression_elimination import cse

from strati.dialects.hw.cpu.registers import ACC_SLACK, FMAS_IN_FLIGHT, registers
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import target_of
from strati.dialects.loop.analysis import IndexConstants, ancestors, constant_index, innermost_loops, inside, trip_count
from strati.functions import functions
from strati.dialects.loop.ops import ForOp, buffer_root, element_bytes
from strati.dialects.loop.ops import YieldOp as LoopYieldOp
from strati.transforms.interchange import hoist_loop
from strati.transforms.pack import call_sites, constant_sources, drop_unused_constants, pack, pack_constant
from strati.transforms.scalar_replace import scalar_replace
from strati.transforms.tile import knob, separate_full_tiles, tile_loop
from strati.transforms.unroll_and_jam import iterations_disjoint, unroll_and_jam
from strati.transforms.vectorize import try_vectorize

MAX_VECTORS = 4
"""Vector steps of the register tile's row that are unrolled completely."""
KNOBS = ("mc", "kc", "nc", "mr", "nr", "small_m")
MIN_WORK = 64 * 64 * 64
"""Multiply-adds below which a matmul keeps the generic schedule (packing costs more than it saves)."""


def knobs(target: TargetAttr, m: int, n: int, k: int, elem: int = 4, given: dict[str, int] | None = None) -> dict[str, int]:
    """The blocking of an ``m x n x k`` matmul on ``target`` (see the module's docstring);
    knobs in ``given`` are taken as they are and the others fitted around them."""
    given = given or {}
    lanes = max(1, target["vector_width"] * 4 // elem)
    nr_vecs = 2 if n >= 2 * lanes else 1
    nr = given.get("nr", nr_vecs * lanes)
    mr = given.get("mr", max(1, min(full_mr(target, n, elem), m)))
    kc = given.get("kc", depth(target, m, n, k, mr, nr, elem))
    cores = max(1, target["cores"])
    # B's kc x nc panels: at most half of L3 in all (the panels of every core at once).
    widest = max(nr, target.get("l3", 0) // 2 // (kc * elem) // nr * nr) if target.get("l3") else n
    # A's mc x kc blocks: at most a quarter of L2 each.
    tallest = max(mr, target["l2"] // 4 // (kc * elem) // mr * mr)
    if "nc" in given:
        nc = given["nc"]
        rows_split = -(-n // nc) < cores
    else:
        # The cores split the columns (each packs its own panels of B once) when that shares the
        # work as evenly as splitting the rows does; else the row blocks (nc covers all columns).
        rows_split = share(n, nr, cores) < share(m, mr, cores)
        blocks = cores * -(-n // (cores * widest)) if not rows_split else -(-n // widest)
        nc = -(-(-(-n // blocks)) // nr) * nr
    blocks = (cores if rows_split else 1) * -(-m // ((cores if rows_split else 1) * tallest))
    mc = given.get("mc", max(mr, -(-(-(-m // blocks)) // mr) * mr))
    return {"mc": mc, "kc": kc, "nc": nc, "mr": mr, "nr": nr}


A_BLOCK_TILES = 8
"""Register tiles of rows that a packed block of A holds at least (:func:`depth`)."""


def depth(target: TargetAttr, m: int, n: int, k: int, mr: int, nr: int, elem: int = 4) -> int:
    """``KC``.  Each k block reads and writes every tile of C once, and C's tiles are rows of
    the whole matrix apart: while a core's share of C fits half of L2 that costs little, and
    ``KC`` keeps B's ``KC x NR`` micro-panel in half of L1 (it is read once per MR rows); once
    C outgrows it (2048 x 2048: 16 MB of C per k block, from L3 or memory), ``KC`` is as deep
    as a block of A of :data:`A_BLOCK_TILES` register tiles of rows allows in a quarter of L2,
    the k blocks made even (the micro-panel, out of L1, streams from L2: two vector loads per
    ``MR x 2`` FMAs).  Measured on AVX-512 (2 cores, L2 1 MB; GFLOP/s, the L1 rule against the
    deep one): N = 2048 170-181 against 202-207, N = 1024 174-182 against 190-194, N = 512
    175-179 against 170-188; N = 256 153-164 against 140 (C 256 KB)."""
    if m * n * elem // max(1, target["cores"]) <= target["l2"] // 2:
        return max(16, min(k, target["l1"] // 2 // (nr * elem)))
    deepest = max(16, target["l2"] // 4 // (A_BLOCK_TILES * mr * elem))
    blocks = -(-k // deepest)
    return -(-k // blocks)


def share(extent: int, tile: int, cores: int) -> float:
    """The share of the cores' time spent on work when ``extent`` iterations, in tiles of
    ``tile``, are split over ``cores`` in equal blocks of whole tiles."""
    block = -(-(-(-extent // tile)) // cores) * tile
    return extent / (cores * block)


def full_mr(target: TargetAttr, n: int, elem: int = 4) -> int:
    """The rows of the large-M register tile (before it is cut to the matrix's rows)."""
    lanes = max(1, target["vector_width"] * 4 // elem)
    nr_vecs = 2 if n >= 2 * lanes else 1
    # Accumulators, B vectors and A broadcasts of two k steps (LLVM unrolls the k loop by 2) in the registers.
    rows = (registers(target) - 2 * nr_vecs) // (nr_vecs + 2)
    # At least the accumulators that keep the FMA pipes busy, with slack, when they fit beside one
    # k step's B vectors and two broadcasts (AVX2: 6 x 2, as BLIS's Haswell kernel; 4 x 2, the
    # fewest that keep the pipes busy, measured 1.1-1.4x faster than 3 x 2 at N = 256 to 1024, and
    # 6 x 2 1-6% faster again at N = 512 and 2048).
    for busy in (-(-int(FMAS_IN_FLIGHT * ACC_SLACK) // nr_vecs), -(-FMAS_IN_FLIGHT // nr_vecs)):
        if busy * nr_vecs + nr_vecs + 2 <= registers(target):
            rows = max(rows, busy)
            break
    return max(1, rows)


def small_m_knobs(target: TargetAttr, m: int, n: int, k: int, elem: int = 4, constant_b: bool = False,
                  given: dict[str, int] | None = None) -> dict[str, int]:
    """The small-M (GEMV) blocking: every row in one register tile (``mr = m``), as many vectors
    of columns (``nr``, at most :data:`MAX_VECTORS`) as leave registers for the B vectors and
    two broadcasts; ``nc`` the columns of one core (the cores split N, not M); ``kc`` so that
    the rows of A a panel reads stay in half of L2 when B is packed at compile time (B is then
    streamed once, panel after panel), else so that a ``kc x nr`` panel packed at run time fills
    half of L1."""  # fmt: skip
    given = given or {}
    lanes = max(1, target["vector_width"] * 4 // elem)
    fit = [v for v in range(MAX_VECTORS, 0, -1) if m * v + v + 2 <= registers(target)]
    nr_vecs = max(1, min(fit[0] if fit else 1, -(-n // lanes)))
    nr = given.get("nr", nr_vecs * lanes)
    if constant_b:
        kc = given.get("kc", max(16, min(k, target["l2"] // 2 // (m * elem))))
    else:
        kc = given.get("kc", max(16, min(k, target["l1"] // 2 // (nr * elem))))
    cores = max(1, target["cores"])
    nc = given.get("nc", max(nr, -(-(-(-n // nr)) // cores) * nr))
    return {"kc": kc, "nc": nc, "mr": given.get("mr", m), "nr": nr}


@dataclass
class Nest:
    i: ForOp
    j: ForOp
    k: ForOp
    a: object
    b: object
    given: dict[str, int] | None = None


def match(k: ForOp) -> Nest | None:
    """The matmul nest whose reduction loop is ``k``, if it is one (the loops i, j, k
    perfectly nested but for statements of ``i`` that write other rows only)."""
    j, i = k.parent_op(), None
    if not isinstance(j, ForOp):
        return None
    i = j.parent_op()
    if not isinstance(i, ForOp):
        return None
    if [o for o in j.body.block.ops if not isinstance(o, LoopYieldOp)] != [k]:
        return None
    if any(constant_index(lp.step) != 1 or trip_count(lp) is None or constant_index(lp.lb) is None for lp in (i, j, k)):
        return None
    ops = [o for o in k.body.block.ops if not isinstance(o, LoopYieldOp)]
    stores = [o for o in ops if isinstance(o, memref.StoreOp)]
    loads = [o for o in ops if isinstance(o, memref.LoadOp)]
    if len(stores) != 1 or any(o.regions or not (o.name.startswith("arith.") or o in loads or o in stores) for o in ops):
        return None
    (s,) = stores
    iv_i, iv_j, iv_k = i.induction_var, j.induction_var, k.induction_var
    idx = list(s.indices)
    if len(idx) < 2 or idx[-2] is not iv_i or idx[-1] is not iv_j or any(x in (iv_i, iv_j, iv_k) for x in idx[:-2]):
        return None
    a = b = None
    for ld in loads:
        if buffer_root(ld.memref) == buffer_root(s.memref):
            if ld.memref is not s.memref or list(ld.indices) != idx:
                return None
            continue
        used = {x for x in ld.indices if x in (iv_i, iv_j, iv_k)}
        if used == {iv_i, iv_k} and a is None:
            a = ld.memref
        elif used == {iv_k, iv_j} and b is None:
            b = ld.memref
        else:
            return None
        if len(set(ld.indices[-2:])) != 2 or set(ld.indices[-2:]) != used or any(x in (iv_i, iv_j, iv_k) for x in ld.indices[:-2]):
            return None
    if a is None or b is None or buffer_root(a) is None or buffer_root(b) is None:
        return None
    if buffer_root(s.memref) in (buffer_root(a), buffer_root(b)):
        return None
    if not iterations_disjoint(i) or not iterations_disjoint(j):
        return None
    for o in k.walk():
        for v in o.operands:
            if inside(v, i) and v is not i.induction_var and not inside(v, j):
                return None  # the nest uses a value of i's other statements
    return Nest(i, j, k, a, b)


def first_loop(loop: ForOp) -> ForOp:
    """The first loop in a loop's body (after its index ops)."""
    return next(o for o in loop.body.block.ops if isinstance(o, ForOp))


def take_knobs(loop: ForOp) -> dict[str, int]:
    """The knobs set on the nest's outermost loop (by a tuner or a test), removed from it."""
    given = {}
    for name in KNOBS:
        value = loop.attributes.pop(f"schedule.{name}", None)
        if value is not None:
            if name == "small_m":
                if not isinstance(value, IntegerAttr) or value.value.data < 0:
                    raise VerifyException(f"schedule.small_m must be 0 (the large-M schedule) or the rows, not {value}")
            elif not isinstance(value, IntegerAttr) or value.value.data < 1:
                raise VerifyException(f"schedule.{name} must be a positive integer, not {value}")
            given[name] = value.value.data
    return given


def split_off(nest: Nest) -> None:
    """Fission: the i loop's other statements keep loops of their own, those before the nest in
    a loop before it and those after it (a fused consumer of the product) in a loop after it.
    The i iterations are disjoint (``match``), so distributing the statements keeps their order."""
    i = nest.i
    body = [o for o in i.body.block.ops if not isinstance(o, LoopYieldOp)]
    after = body[body.index(nest.j) + 1 :]
    if len(body) == 1:
        return
    nest.i = _loop_after(i, [nest.j])
    if after:
        _loop_after(nest.i, after)


def _loop_after(i: ForOp, ops: list[Operation]) -> ForOp:
    """A loop with ``i``'s header, right after ``i``, holding ``ops`` (moved out of the loop that
    holds them, an original of ``i``'s header) and reading its own induction variable."""
    source = ops[0].parent_op()
    assert isinstance(source, ForOp)
    new_i = ForOp(i.lb, i.ub, i.step, parallel=i.is_parallel)
    new_i.attributes.update(i.attributes)
    new_i.induction_var.name_hint = i.induction_var.name_hint
    i.parent_block().insert_op_after(new_i, i)
    for op in ops:
        op.detach()
        new_i.body.block.insert_op_before(op, new_i.body.block.last_op)
        for o in op.walk():
            o.operands = [new_i.induction_var if v is source.induction_var else v for v in o.operands]
    return new_i


@dataclass
class Packing:
    """What the pass's schedules share: the module's call sites (found once) and the names of
    the constants packed at compile time (whose originals may go at the end)."""

    calls: dict
    packed: set[str]


def pack_operand(loop: ForOp, buffer, consts: IndexConstants, packing: Packing, panels: bool = False) -> None:
    """Pack ``buffer``'s tile in ``loop``: at compile time when it is a constant (weights), else
    by a copy at run time (``panels``: in micro-panels of the register tiles, :func:`pack`)."""
    done = pack_constant(loop, buffer, consts, packing.calls)
    if done is not None:
        packing.packed.update(g.sym_name.data for g, _ in done)
    else:
        pack(loop, buffer, consts, panels)


def schedule(nest: Nest, target: TargetAttr, consts: IndexConstants, packing: Packing | None = None) -> None:
    """Block, pack, vectorise and register-tile one matmul nest (see the module's docstring):
    the small-M schedule when the rows are fewer than a register tile's, else GotoBLAS's."""
    if packing is None:
        module = next(iter(reversed(list(ancestors(nest.i)))))
        packing = Packing(call_sites(module), set())
    i, j, k = nest.i, nest.j, nest.k
    m, n, kk = trip_count(i), trip_count(j), trip_count(k)
    elem = element_bytes(nest.a.type.get_element_type()) or 4
    given = dict(nest.given or {})
    small = given.pop("small_m", None)
    if small if small is not None else m < full_mr(target, n, elem):
        schedule_small_m(nest, target, consts, packing, given)
        return
    kn = knobs(target, m, n, kk, elem, given)
    # Cache blocking: jc { kc { ic { jr { i { k { j } } } } } }.  hoist_loop returns the outer
    # loop op (the parent's op, now with the hoisted loop's header), so each loop is found anew.
    jc = hoist_loop(tile_loop(j, kn["nc"], consts, "nc"))  # past i: jc { i { j { k } } }
    kc = hoist_loop(hoist_loop(tile_loop(k, kn["kc"], consts, "kc")))  # past j, past i: jc { kc { i { j { k } } } }
    ic = tile_loop(first_loop(kc), kn["mc"], consts, "mc")  # kc { ic { i { j { k } } } }
    jr = hoist_loop(tile_loop(first_loop(first_loop(ic)), kn["nr"], consts, "nr"))  # past i
    hoist_loop(first_loop(first_loop(first_loop(jr))))  # k past j: i { k { j } }
    # Packing: B's panel once per (jc, kc), A's block once per (jc, kc, ic).
    pack_operand(kc, nest.b, consts, packing, panels=True)  # kc x nr micro-panels, each contiguous
    pack_operand(ic, nest.a, consts, packing)
    register_tiles(jr, kn, target, consts)
    cse(jc)  # the copies of the index arithmetic that unroll-and-jam made


def schedule_small_m(nest: Nest, target: TargetAttr, consts: IndexConstants, packing: Packing, given: dict[str, int]) -> None:
    """The small-M (GEMV) schedule: A is not packed (its few rows are read as broadcasts), the
    cores split the columns, and B goes through the register tile once, ``nr`` columns at a time::

        jc (nc columns, parallel: one block per core)
          kc (kc)
            jr (nr)                                   B's kc x nr panel: packed at compile time
              i (all m rows, unrolled and jammed)      when B is a constant, else copied here
                k   acc[m x nr] += A[i, k] * B[k, j]

    With B packed at compile time its panels lie in the order the loops read them, so B streams
    from memory once, contiguously."""
    i, j, k = nest.i, nest.j, nest.k
    m, n, kk = trip_count(i), trip_count(j), trip_count(k)
    elem = element_bytes(nest.a.type.get_element_type()) or 4
    constant_b = constant_sources(nest.b, packing.calls) is not None
    kn = small_m_knobs(target, m, n, kk, elem, constant_b, given)
    jc = hoist_loop(tile_loop(j, kn["nc"], consts, "nc"))  # past i: jc { i { j { k } } }
    knob(jc, "small_m", m)
    kc = hoist_loop(hoist_loop(tile_loop(k, kn["kc"], consts, "kc")))  # past j, past i: jc { kc { i { j { k } } } }
    jr = hoist_loop(tile_loop(first_loop(first_loop(kc)), kn["nr"], consts, "nr"))  # past i
    hoist_loop(first_loop(first_loop(first_loop(jr))))  # k past j: i { k { j } }
    pack_operand(jr, nest.b, consts, packing)
    register_tiles(jr, kn, target, consts)
    cse(jc)


def register_tiles(jr: ForOp, kn: dict[str, int], target: TargetAttr, consts: IndexConstants) -> None:
    """Register tiles: full NR-wide tiles, then the partial last one, each vectorised over j,
    its rows unrolled and jammed by MR and its accumulators kept in registers across k."""
    tiles = [jr]
    full = separate_full_tiles(jr, consts)
    if full is not None:
        tiles.insert(0, full)
    for tile in tiles:
        i = [o for o in tile.body.block.ops if isinstance(o, ForOp)][-1]  # after a copy packing B there
        try_vectorize(first_loop(first_loop(i)), target, consts)
        main = unroll_and_jam(i, kn["mr"], consts)
        if main is not None:
            knob(main, "mr", kn["mr"])
        for kl in [o for o in tile.walk() if isinstance(o, ForOp)]:
            inner = [o for o in kl.body.block.ops if isinstance(o, ForOp)]
            if len(inner) != 1 or any(isinstance(o, ForOp) for o in inner[0].body.walk() if o is not inner[0]):
                continue
            t = trip_count(inner[0])
            if t is not None and t <= MAX_VECTORS and any(o.name == "vector.fma" for o in inner[0].body.walk()):
                unroll_and_jam(inner[0], t, consts)
                scalar_replace(kl, consts)


@dataclass(frozen=True)
class CpuScheduleMatmulPass(ModulePass):
    """Block, pack and register-tile matmul loop nests for the CPU (knobs from the target description)."""

    name = "cpu-schedule-matmul"
    min_work: int = MIN_WORK
    interprocedural: ClassVar[bool] = True
    """It reads a kernel's call sites: the constant weights every call passes are packed at
    compile time, a new argument added to each call."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _, target = target_of(op)
        if target.get("vector_width") is None:
            return
        packing = Packing(call_sites(op), set())
        for fn in functions(op):
            consts = IndexConstants(fn)
            for k in innermost_loops(fn):
                nest = match(k)
                if nest is None:
                    continue
                if trip_count(nest.i) * trip_count(nest.j) * trip_count(nest.k) < self.min_work:
                    continue
                nest.given = take_knobs(nest.i)
                split_off(nest)
                schedule(nest, target, consts, packing)
        if packing.packed:
            drop_unused_constants(op, packing.packed)


__all__ = ["CpuScheduleMatmulPass", "full_mr", "knobs", "match", "schedule", "small_m_knobs"]
