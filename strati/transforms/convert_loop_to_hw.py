"""convert-loop-to-hw{target=cpu}: map level-3 loop nests onto a hardware target (level 4).

The pass attaches the target's description to the module (``hw.target``, see
:mod:`strati.dialects.hw`): the one the module already carries when its name is
``target``, else the registry's (``cpu`` = this machine).  Every decision below
reads that description; nothing here knows a particular CPU.  For ``cpu``, each
function goes through three steps:

1. **Interchange.**  An innermost loop that cannot be vectorised (typically a
   reduction: matmul's ``k`` in ``i, j, k``) is rotated with the loops of its
   perfect nest: the loop ``p`` whose induction variable is the last index of
   every store moves innermost (``i, j, k -> i, k, j``).  Legal when the loops from
   ``p`` down are perfectly nested, the innermost body has no side effect but
   loads and stores, every store's address uses ``p``'s variable as its last index
   and none of the loops below ``p``, each stored buffer is read and written at that
   one address only, and the loops' bounds do not depend on each other's
   variables.  Then two iterations of ``p`` touch distinct elements and, for one
   ``p``, the inner iterations keep their order: the results are bit-identical.
   It is done only when the rotated nest vectorises, and only when a parallel
   loop still encloses ``p`` (so rotation never trades the cores for lanes).

2. **Vectorisation** of innermost unit-stride loops (``step`` 1), when legal:
   every load and store either does not depend on the loop variable (a scalar,
   broadcast where a vector needs it) or is contiguous in it (its last index is
   the variable plus something invariant, the others invariant); the body's
   other ops are elementwise ``arith``/``math``; a stored buffer is read, if at
   all, at the very address it is written (so lanes are independent); and no
   store goes to an address that does not depend on the variable (a reduction
   stays scalar: LLVM vectorises those itself with reassociation); nothing
   compares lane by lane (xDSL's ``arith.cmpf``/``cmpi``/``select`` have no
   ``vector<N x i1>`` form; a select on an invariant condition is fine).  The loop
   becomes a main loop of ``vector.load``/``vector.store`` and arith/math on
   ``vector<N x T>`` stepping by ``N`` lanes, plus a scalar remainder loop (none
   when the trip count is a known multiple of ``N``; no vector loop when it is
   known to be below ``N``).  ``N`` is the loop's ``vector_width`` schedule when
   it was set above 1, else the target's width in f32 lanes scaled to the widest
   element (f64: half as many), halved while it exceeds a known trip count (down
   to :data:`MIN_LANES`); a known remainder of at least that many iterations gets
   its own narrower vector loop the same way (100 = 96 + 4 with 8 lanes: no scalar
   loop left).  ``addf(x, mulf(a, b))`` becomes ``vector.fma``
   when the target has FMA and the product has no other use.

3. **Parallelisation.**  The outermost loops marked ``parallel`` become
   ``cpu.parallel`` (tasks for the thread pool), when the target has more than
   one core and the loop is worth a task: its estimated work, ``trip count x
   body size`` (ops executed, inner loops counted by their own trip counts, a
   vector op as one, a transcendental function or a call as
   :data:`LIBRARY_CALL_COST`), must reach ``parallel_threshold`` (default
   :data:`PARALLEL_WORK_THRESHOLD`, about 0.1 ms of work on one core, several
   times the cost of a region: measured 15-30 us for an empty two-thread region
   against 8 us for the whole call without one).  A parallel loop with fewer
   iterations than cores hands the job to the parallel loops inside it if they
   are worth it; a sequential loop is looked into.

Options: ``target`` (default ``cpu``), ``vectorize``, ``interchange``,
``parallelize`` (booleans, default true) and ``parallel_threshold``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, vector
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from strati.diagnostics import StratiError
from strati.dialects.hw.cpu.ops import ParallelOp
from strati.dialects.hw.cpu.ops import YieldOp as CpuYieldOp
from strati.dialects.hw.ops import TargetAttr, module_target, set_module_target
from strati.dialects.hw.targets import get_target
from strati.dialects.loop.ops import VIEW_OPS, ForOp, buffer_root
from strati.dialects.loop.ops import YieldOp as LoopYieldOp

PARALLEL_WORK_THRESHOLD = 1 << 18
"""Ops executed (a vector op counts one) below which a parallel loop stays sequential:
262144 ops is about 0.1 ms on one core (2.45 GHz), several times what a region costs
(15-30 us for an empty two-thread region through the Python thread pool)."""

MIN_LANES = 4
"""A loop shorter than the target's width is vectorised with half, a quarter, ... of it, down to this."""

LIBRARY_CALL_COST = 10
"""The cost model's weight of a transcendental function (a libm or libmvec call) or a call."""
LIBRARY_CALLS = frozenset(
    f"math.{n}" for n in (
        "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "cbrt", "sin", "cos", "tan", "tanh", "sinh",
        "cosh", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "erf", "powf",
    )
)  # fmt: skip

UNKNOWN_TRIP_COUNT = 1
"""The trip count assumed for a loop whose bounds are not constants (conservative: no task)."""

# Elementwise ops that have a vector form with the same name (operands and result vectors of N lanes).
# Not comparisons: xDSL's arith.cmpf/cmpi (and arith.select's condition) are i1 only, with no
# vector<N x i1> form, so a loop that compares lane by lane stays scalar (LLVM vectorises it);
# nor the int<->float and integer width casts, which xDSL 0.75 defines on scalars only.  Each
# vector form is also checked against xDSL's verifier before it is used (vector_form_verifies).
VECTORIZABLE = frozenset(
    {
        *(f"arith.{n}" for n in (
            "addf", "subf", "mulf", "divf", "negf", "maximumf", "minimumf", "maxnumf", "minnumf",
            "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "ceildivsi", "floordivsi",
            "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "minsi", "maxui", "minui",
            "select", "extf", "truncf",
        )),
        *(f"math.{n}" for n in (
            "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "cbrt", "sin", "cos", "tan",
            "tanh", "sinh", "cosh", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "erf", "absf",
            "absi", "floor", "ceil", "trunc", "round", "roundeven", "powf", "fma", "copysign", "ctpop", "ctlz",
            "cttz",
        )),
    }
)  # fmt: skip

# Ops without side effects that may be executed once per vector step instead of once per element.
UNIFORM_SAFE_DIALECTS = ("arith", "math")
UNIFORM_SAFE_OPS = frozenset({"loop.view", "memref.get_global", "memref.collapse_shape", "memref.expand_shape", "memref.load"})

UNIFORM, LANE, VECTOR = "uniform", "lane", "vector"


@dataclass(frozen=True)
class ConvertLoopToHwPass(ModulePass):
    name = "convert-loop-to-hw"

    target: str = "cpu"
    vectorize: bool = True
    interchange: bool = True
    parallelize: bool = True
    parallel_threshold: int = PARALLEL_WORK_THRESHOLD

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = module_target(op)
        if target is None or target.target_name != self.target:
            try:
                target = get_target(self.target)
            except KeyError as err:
                raise StratiError(f"convert-loop-to-hw: {err.args[0]}") from None
        mapper = TARGET_MAPPERS.get(target.target_name)
        if mapper is None:
            raise StratiError(
                f"convert-loop-to-hw cannot map onto target '{target.target_name}' "
                f"(it knows {', '.join(sorted(TARGET_MAPPERS))})"
            )
        set_module_target(op, target)
        for fn in [f for f in op.walk() if isinstance(f, func.FuncOp) and f.body.blocks]:
            mapper(self, fn, target)


def map_cpu(options: ConvertLoopToHwPass, fn: func.FuncOp, target: TargetAttr) -> None:
    consts = IndexConstants(fn)
    if options.interchange:
        for loop in innermost_loops(fn):
            try_interchange(loop, target)
    if options.vectorize:
        for loop in innermost_loops(fn):
            try_vectorize(loop, target, consts)
    if options.parallelize and target.num_cores > 1:
        for op in list(fn.body.block.ops):
            if isinstance(op, ForOp):
                parallelize(op, target, options.parallel_threshold)


TARGET_MAPPERS = {"cpu": map_cpu}
"""Target name -> how convert-loop-to-hw maps a function onto it."""


# --- helpers ----------------------------------------------------------------------------------


class IndexConstants:
    """``arith.constant N : index`` at the top of a function, reused when already there."""

    def __init__(self, fn: func.FuncOp):
        self.block = fn.body.block
        self.known: dict[int, SSAValue] = {}
        self.last: Operation | None = None
        for op in self.block.ops:
            if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType):
                value = op.value
                assert isinstance(value, IntegerAttr)
                self.known.setdefault(value.value.data, op.result)
                self.last = op
            else:
                break

    def get(self, n: int) -> SSAValue:
        if n not in self.known:
            c = arith.ConstantOp(IntegerAttr(n, IndexType()))
            c.result.name_hint = f"c{n}" if n >= 0 else f"cneg{-n}"
            if self.last is None:
                first = self.block.first_op
                if first is None:
                    self.block.add_op(c)
                else:
                    self.block.insert_op_before(c, first)
            else:
                self.block.insert_op_after(c, self.last)
            self.last = c
            self.known[n] = c.result
        return self.known[n]


def constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def trip_count(loop: ForOp | ParallelOp) -> int | None:
    lb, ub, step = constant_index(loop.lb), constant_index(loop.ub), constant_index(loop.step)
    if lb is None or ub is None or step is None or step < 1:
        return None
    return max(0, -(-(ub - lb) // step))


def innermost_loops(fn: func.FuncOp) -> list[ForOp]:
    return [op for op in fn.walk() if isinstance(op, ForOp) and not any(isinstance(o, (ForOp, ParallelOp)) for o in op.body.walk())]


def inside(value: SSAValue, op: Operation) -> bool:
    """Whether ``value`` is defined inside ``op``'s regions."""
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    while block is not None:
        parent = block.parent_op()
        if parent is op:
            return True
        if parent is None:
            return False
        block = parent.parent_block()
    return False


def element_bits(t: Attribute) -> int:
    if isinstance(t, VectorType):
        t = t.get_element_type()
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, Float16Type):
        return 16
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, Float64Type):
        return 64
    return 64


def is_vector_element(t: Attribute) -> bool:
    return isinstance(t, (Float16Type, Float32Type, Float64Type)) or (isinstance(t, IntegerType) and t.width.data in (1, 8, 16, 32, 64))


# --- legality of vectorising a loop body along one induction variable ---------------------------


@dataclass
class Plan:
    """How each value of an innermost body behaves along the vectorised variable."""

    kinds: dict[SSAValue, str] = field(default_factory=dict)
    fused: set[Operation] = field(default_factory=set)
    """``arith.mulf`` ops folded into the ``vector.fma`` of their only user."""
    bits: int = 0
    """The widest element (bits) among the vector values."""


def analyse(body: Block, iv: SSAValue, target: TargetAttr | None = None) -> Plan | None:
    """A Plan if ``body`` (an innermost loop body) can run ``N`` consecutive values of ``iv`` at once."""
    plan = Plan()
    kinds = plan.kinds
    kinds[iv] = LANE

    def kind(v: SSAValue) -> str:
        return kinds.get(v, UNIFORM)  # defined outside the body (or another loop's variable): invariant

    stores: list[memref.StoreOp] = []
    loads: list[memref.LoadOp] = []
    for op in body.ops:
        if isinstance(op, LoopYieldOp):
            continue
        if op.regions:
            return None
        operand_kinds = [kind(v) for v in op.operands]
        if isinstance(op, memref.LoadOp):
            loads.append(op)
            lead = operand_kinds[1:]
            if any(k != UNIFORM for k in lead[:-1]):
                return None
            last = lead[-1] if lead else UNIFORM
            if last == VECTOR:
                return None
            if last == LANE:
                if not is_vector_element(op.res.type):
                    return None
                kinds[op.res] = VECTOR
                plan.bits = max(plan.bits, element_bits(op.res.type))
            continue
        if isinstance(op, memref.StoreOp):
            stores.append(op)
            value_kind, index_kinds = operand_kinds[0], operand_kinds[2:]
            if value_kind == LANE or not index_kinds or any(k != UNIFORM for k in index_kinds[:-1]):
                return None
            if index_kinds[-1] != LANE:
                return None  # an invariant address: a reduction (or a dependence), left scalar
            if not is_vector_element(op.value.type):
                return None
            continue
        if all(k == UNIFORM for k in operand_kinds):
            dialect = op.name.split(".", 1)[0]
            if dialect not in UNIFORM_SAFE_DIALECTS and op.name not in UNIFORM_SAFE_OPS:
                return None  # side effects (calls, allocations): they cannot run once per vector
            continue
        if LANE in operand_kinds:
            # Index arithmetic on the variable: only 'variable + invariant' (unit stride) is an address.
            if isinstance(op, arith.AddiOp) and sorted(operand_kinds) == [LANE, UNIFORM]:
                kinds[op.result] = LANE
                continue
            if isinstance(op, arith.SubiOp) and operand_kinds == [LANE, UNIFORM]:
                kinds[op.result] = LANE
                continue
            return None
        if op.name not in VECTORIZABLE:
            return None
        if isinstance(op, arith.SelectOp) and kind(op.cond) != UNIFORM:
            return None  # a lane-wise condition: xDSL's arith.select/cmpf/cmpi have no vector<N x i1>
        if not vector_form_verifies(op):
            return None
        for r in op.results:
            if not is_vector_element(r.type):
                return None
            kinds[r] = VECTOR
            plan.bits = max(plan.bits, element_bits(r.type) if r.type != i1 else 0)
    if not stores:
        return None
    if not independent(loads, stores):
        return None
    for s in stores:
        plan.bits = max(plan.bits, element_bits(s.value.type) if s.value.type != i1 else 0)
    if target is not None and target.has_fma:
        for op in body.ops:
            if isinstance(op, arith.AddfOp) and kinds.get(op.result) == VECTOR:
                for operand in (op.lhs, op.rhs):
                    m = operand.owner
                    if isinstance(m, arith.MulfOp) and kinds.get(m.result) == VECTOR and m.result.has_one_use() and m not in plan.fused:
                        plan.fused.add(m)
                        break
    return plan


_VECTOR_FORMS: dict[tuple, bool] = {}


def vector_form_verifies(op: Operation) -> bool:
    """Whether xDSL accepts the op on vectors (its constraints may admit scalars only)."""
    scalar_cond = isinstance(op, arith.SelectOp)
    key = (op.name, tuple(v.type for v in op.operands), tuple(r.type for r in op.results), scalar_cond)
    if key not in _VECTOR_FORMS:
        types = [t if scalar_cond and k == 0 else VectorType(t, [4]) for k, t in enumerate(key[1])]
        block = Block(arg_types=types)
        try:
            probe = op.create(
                operands=list(block.args),
                result_types=[VectorType(t, [4]) for t in key[2]],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            probe.verify()
            _VECTOR_FORMS[key] = True
        except Exception:  # noqa: BLE001 - any verifier complaint means: no vector form
            _VECTOR_FORMS[key] = False
    return _VECTOR_FORMS[key]


def access_key(op: memref.LoadOp | memref.StoreOp) -> tuple:
    return (op.memref, tuple(op.indices))


def independent(loads: Iterable[memref.LoadOp], stores: Iterable[memref.StoreOp]) -> bool:
    """Each stored buffer is written at one address only and read, if at all, at that address."""
    written: dict[object, tuple] = {}
    for s in stores:
        root = buffer_root(s.memref)
        if root is None:
            return False
        key = access_key(s)
        if written.setdefault(root, key) != key:
            return False
    if not written:
        return True
    for ld in loads:
        root = buffer_root(ld.memref)
        if root is None:
            return False  # might be any of the stored buffers
        if root in written and written[root] != access_key(ld):
            return False
    return True


# --- interchange --------------------------------------------------------------------------------


def perfect_chain(loop: ForOp) -> list[ForOp]:
    """The loops around ``loop`` that hold nothing but the next loop, outermost first, ``loop`` last."""
    chain = [loop]
    while True:
        parent = chain[0].parent_op()
        if not isinstance(parent, ForOp):
            break
        ops = list(parent.body.block.ops)
        if len(ops) != 2 or ops[0] is not chain[0] or not isinstance(ops[1], LoopYieldOp):
            break
        chain.insert(0, parent)
    return chain


def depends_on(value: SSAValue, ivs: set[SSAValue], body: Block, memo: dict[SSAValue, bool]) -> bool:
    if value in ivs:
        return True
    if value in memo:
        return memo[value]
    owner = value.owner
    result = False
    if isinstance(owner, Operation) and owner.parent_block() is body:
        result = any(depends_on(v, ivs, body, memo) for v in owner.operands)
    memo[value] = result
    return result


def try_interchange(loop: ForOp, target: TargetAttr) -> bool:
    """Rotate the loop whose variable is the stores' last index innermost, when legal and useful."""
    body = loop.body.block
    if constant_index(loop.step) == 1 and analyse(body, loop.induction_var) is not None:
        return False  # already vectorisable
    stores = [op for op in body.ops if isinstance(op, memref.StoreOp)]
    if not stores:
        return False
    for op in body.ops:
        if op.regions or not (
            isinstance(op, (memref.LoadOp, memref.StoreOp, LoopYieldOp))
            or op.name.split(".", 1)[0] in UNIFORM_SAFE_DIALECTS
            or op.name in VIEW_OPS
        ):
            return False
    chain = perfect_chain(loop)
    ivs = [lp.induction_var for lp in chain]
    last = stores[0].indices[-1] if stores[0].indices else None
    if last not in ivs[:-1]:
        return False
    p = ivs.index(last)
    pivot = chain[p]
    if constant_index(pivot.step) != 1:
        return False
    if any(not s.indices or s.indices[-1] is not last for s in stores):
        return False
    inner_ivs = set(ivs[p + 1 :])
    memo: dict[SSAValue, bool] = {}
    for s in stores:
        if any(depends_on(i, inner_ivs, body, memo) for i in s.indices):
            return False
    loads = [op for op in body.ops if isinstance(op, memref.LoadOp)]
    if not independent(loads, stores):
        return False
    for lp in chain[p:]:
        if any(v in ivs for v in lp.operands):
            return False  # bounds that depend on another loop of the nest
    # Only when a parallel loop still encloses the pivot (or the pivot was not parallel anyway).
    enclosing_parallel = any(lp.is_parallel for lp in chain[:p]) or any(
        isinstance(a, ForOp) and a.is_parallel for a in ancestors(chain[0])
    )
    if pivot.is_parallel and not enclosing_parallel:
        return False
    if analyse(body, pivot.induction_var, target) is None:
        return False
    for k in range(p, len(chain) - 1):
        swap_headers(chain[k], chain[k + 1])
    return True


def ancestors(op: Operation) -> Iterable[Operation]:
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def swap_headers(outer: ForOp, inner: ForOp) -> None:
    """Exchange two perfectly nested loops: bounds, schedule and the roles of their variables."""
    a, b = outer.induction_var, inner.induction_var
    a_uses, b_uses = list(a.uses), list(b.uses)
    o_ops, i_ops = list(outer.operands), list(inner.operands)
    outer.operands = i_ops
    inner.operands = o_ops
    for name in ("parallel", "vector_width", "unroll"):
        outer.properties[name], inner.properties[name] = inner.properties[name], outer.properties[name]
    for use in a_uses:
        use.operation.operands[use.index] = b
    for use in b_uses:
        use.operation.operands[use.index] = a
    a.name_hint, b.name_hint = b.name_hint, a.name_hint


# --- vectorisation -------------------------------------------------------------------------------


def try_vectorize(loop: ForOp, target: TargetAttr, consts: IndexConstants) -> bool:
    if constant_index(loop.step) != 1:
        return False
    plan = analyse(loop.body.block, loop.induction_var, target)
    if plan is None:
        return False
    scheduled = loop.vector_width.value.data
    lanes = scheduled if scheduled > 1 else target.lanes_for(plan.bits or 32)
    trips = trip_count(loop)
    if scheduled <= 1 and trips is not None:
        while lanes > trips and lanes > MIN_LANES:
            lanes //= 2  # a short loop: a part of the register (AVX-512 -> AVX2 -> SSE widths)
    if lanes < 2 or (trips is not None and trips < lanes):
        return False
    block = loop.parent_block()
    assert block is not None
    # Where the vector loop ends: lb + floor((ub - lb) / N) * N.
    lb = constant_index(loop.lb)
    if trips is not None and lb is not None:
        end_value = lb + trips // lanes * lanes
        vend = consts.get(end_value)
        remainder = trips % lanes != 0
    else:
        n = consts.get(lanes)
        length = arith.SubiOp(loop.ub, loop.lb)
        rem = arith.RemSIOp(length, n)
        end = arith.SubiOp(loop.ub, rem)
        for op in (length, rem, end):
            block.insert_op_before(op, loop)
        vend = end.result
        remainder = True
    main = ForOp(loop.lb, vend, consts.get(lanes), parallel=loop.is_parallel, unroll=loop.unroll.value.data)
    main.induction_var.name_hint = loop.induction_var.name_hint
    block.insert_op_before(main, loop)
    VectorBody(plan, lanes, loop, main).emit()
    if remainder:
        loop.operands[0] = vend
        loop.properties["vector_width"] = IntegerAttr(1, i64)
        if trips is not None:
            try_vectorize(loop, target, consts)  # a known remainder of MIN_LANES or more: narrower vectors
    else:
        loop.detach()
        loop.erase()
    return True


class VectorBody:
    """Writes the vector loop's body from the scalar one, following a Plan."""

    def __init__(self, plan: Plan, lanes: int, scalar: ForOp, main: ForOp):
        self.plan = plan
        self.lanes = lanes
        self.scalar = scalar
        self.main = main
        self.block = main.body.block
        self.terminator = self.block.last_op
        self.values: dict[SSAValue, SSAValue] = {scalar.induction_var: main.induction_var}
        self.broadcasts: dict[SSAValue, SSAValue] = {}

    def insert(self, op: Operation) -> Operation:
        self.block.insert_op_before(op, self.terminator)
        return op

    def scalar_value(self, v: SSAValue) -> SSAValue:
        return self.values.get(v, v)

    def vec(self, v: SSAValue) -> SSAValue:
        if self.plan.kinds.get(v) == VECTOR:
            return self.values[v]
        if v in self.broadcasts:
            return self.broadcasts[v]
        b = vector.BroadcastOp(self.scalar_value(v), VectorType(v.type, [self.lanes]))
        if v.name_hint:
            b.vector.name_hint = f"{v.name_hint}_vec"
        if v in self.values or inside(v, self.scalar):
            self.insert(b)  # computed in the body: broadcast there
        else:
            self.main.parent_block().insert_op_before(b, self.main)  # invariant: broadcast once, before the loop
        self.broadcasts[v] = b.vector
        return b.vector

    def vtype(self, t: Attribute) -> VectorType:
        return VectorType(t, [self.lanes])

    def emit(self) -> None:
        kinds = self.plan.kinds
        for op in self.scalar.body.block.ops:
            if isinstance(op, LoopYieldOp) or op in self.plan.fused:
                continue
            if isinstance(op, memref.LoadOp) and kinds.get(op.res) == VECTOR:
                new = vector.LoadOp(self.scalar_value(op.memref), [self.scalar_value(i) for i in op.indices], self.vtype(op.res.type))
                self.insert(new)
                self.values[op.res] = new.result
            elif isinstance(op, memref.StoreOp):
                value = self.vec(op.value)
                self.insert(vector.StoreOp(value, self.scalar_value(op.memref), [self.scalar_value(i) for i in op.indices]))
            elif isinstance(op, arith.SelectOp) and kinds.get(op.result) == VECTOR:
                # One condition for every lane (an invariant one: analyse refuses a varying i1).
                new = arith.SelectOp(self.scalar_value(op.cond), self.vec(op.lhs), self.vec(op.rhs))
                self.insert(new)
                self.values[op.result] = new.results[0]
            elif any(kinds.get(r) == VECTOR for r in op.results):
                fused = self.fma(op)
                if fused is None:
                    new = op.create(
                        operands=[self.vec(v) for v in op.operands],
                        result_types=[self.vtype(r.type) for r in op.results],
                        properties=dict(op.properties),
                        attributes=dict(op.attributes),
                    )
                    self.insert(new)
                    fused = new
                for old, r in zip(op.results, fused.results):
                    self.values[old] = r
            else:  # uniform, or an address (variable + invariant): computed once per vector, as a scalar
                new = op.clone(value_mapper=self.values)
                self.insert(new)
            for old, new_result in zip(op.results, self.values_for(op)):
                if old.name_hint and new_result is not None and not new_result.name_hint:
                    new_result.name_hint = old.name_hint

    def values_for(self, op: Operation) -> list[SSAValue | None]:
        return [self.values.get(r) for r in op.results]

    def fma(self, op: Operation) -> Operation | None:
        if not isinstance(op, arith.AddfOp):
            return None
        for acc, product in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            m = product.owner
            if isinstance(m, arith.MulfOp) and m in self.plan.fused:
                new = vector.FMAOp(self.vec(m.lhs), self.vec(m.rhs), self.vec(acc))
                self.insert(new)
                return new
        return None


# --- parallelisation -------------------------------------------------------------------------------


def work(ops: Iterable[Operation]) -> int:
    """Ops executed by a list of ops, inner loops counted by their trip counts; a function
    computed by a library call (exp, tanh, ...) counts :data:`LIBRARY_CALL_COST`."""
    total = 0
    for op in ops:
        if isinstance(op, (LoopYieldOp, CpuYieldOp)):
            continue
        if isinstance(op, (ForOp, ParallelOp)):
            trips = trip_count(op)
            total += (UNKNOWN_TRIP_COUNT if trips is None else trips) * work(op.body.block.ops)
        elif op.regions:
            total += 1 + sum(work(b.ops) for r in op.regions for b in r.blocks)
        elif op.name in LIBRARY_CALLS or isinstance(op, func.CallOp):
            total += LIBRARY_CALL_COST
        else:
            total += 1
    return total


def parallelize(loop: ForOp, target: TargetAttr, threshold: int) -> None:
    """Map the outermost worthwhile parallel loops in ``loop`` (inclusive) to cpu.parallel."""
    trips = trip_count(loop)
    inner = [op for op in loop.body.block.ops if isinstance(op, ForOp)]
    if not loop.is_parallel:
        for op in inner:
            parallelize(op, target, threshold)
        return
    total = (UNKNOWN_TRIP_COUNT if trips is None else trips) * work(loop.body.block.ops)
    if total < threshold:
        return  # inner loops do less work still
    if trips is not None and trips < target.num_cores:
        # Too few iterations to keep every core busy: an inner parallel loop may do better.
        if any(op.is_parallel and (trip_count(op) or 0) >= target.num_cores for op in inner):
            for op in inner:
                parallelize(op, target, threshold)
            return
        if trips < 2:
            return
    to_parallel(loop)


def to_parallel(loop: ForOp) -> ParallelOp:
    body = loop.detach_region(loop.body)
    block = body.block
    terminator = block.last_op
    assert isinstance(terminator, LoopYieldOp)
    terminator.detach()
    terminator.erase()
    block.add_op(CpuYieldOp())
    par = ParallelOp(loop.lb, loop.ub, loop.step, body)
    par.attributes.update(loop.attributes)
    parent = loop.parent_block()
    assert parent is not None
    parent.insert_op_before(par, loop)
    loop.detach()
    loop.erase()
    return par


__all__ = ["PARALLEL_WORK_THRESHOLD", "ConvertLoopToHwPass", "analyse", "try_interchange", "try_vectorize"]
