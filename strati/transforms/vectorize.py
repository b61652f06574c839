"""vectorize: innermost unit-stride loops become vector loops, for any target with vectors.

A loop (``step`` 1, innermost) is vectorised when legal: every load and store either
does not depend on the loop variable (a scalar, broadcast where a vector needs it) or
is contiguous in it (its last index is the variable plus something invariant, the
others invariant); the body's other ops are elementwise ``arith``/``math``; a stored
buffer is read, if at all, at the very address it is written (so lanes are
independent); and no store goes to an address that does not depend on the variable (a
reduction stays scalar: LLVM vectorises those itself with reassociation); nothing
compares lane by lane (xDSL's ``arith.cmpf``/``cmpi``/``select`` have no
``vector<N x i1>`` form; a select on an invariant condition is fine).  The loop becomes
a main loop of ``vector.load``/``vector.store`` and arith/math on ``vector<N x T>``
stepping by ``N`` lanes, plus a scalar remainder loop (none when the trip count is a
known multiple of ``N``; no vector loop when it is known to be below ``N``).

``N`` is the loop's ``vector_width`` schedule when it was set above 1, else the
target's: its description's ``vector_width`` field (f32 lanes) scaled to the widest
element (f64: half as many), halved while it exceeds a known trip count (down to
:data:`MIN_LANES`); a known remainder of at least that many iterations gets its own
narrower vector loop the same way (100 = 96 + 4 with 8 lanes: no scalar loop left).
``addf(x, mulf(a, b))`` becomes ``vector.fma`` when the description's ``fma`` field is
true and the product has no other use.  A target without a ``vector_width`` field has
no vectors: the pass leaves its loops alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, memref, vector
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IntegerAttr, IntegerType, ModuleOp, VectorType, i1, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import target_of
from strati.dialects.loop.analysis import (
    IndexConstants,
    constant_index,
    element_bits,
    innermost_loops,
    inside,
    trip_count,
)
from strati.dialects.loop.ops import ForOp, buffer_root
from strati.dialects.loop.ops import YieldOp as LoopYieldOp
from strati.functions import functions

MIN_LANES = 4
"""A loop shorter than the target's width is vectorised with half, a quarter, ... of it, down to this."""

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


def is_vector_element(t: Attribute) -> bool:
    return isinstance(t, (Float16Type, Float32Type, Float64Type)) or (isinstance(t, IntegerType) and t.width.data in (1, 8, 16, 32, 64))




def vector_lanes(target: TargetAttr, bits: int) -> int:
    """How many elements of ``bits`` bits fill one of the target's vector registers (at least 1);
    its ``vector_width`` field counts f32 lanes."""
    return max(1, target["vector_width"] * 32 // max(1, bits))


@dataclass(frozen=True)
class VectorizePass(ModulePass):
    """Innermost unit-stride loops become vector loops as wide as the target's vectors."""

    name = "vectorize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for target, consts, loop in vector_loops(op):
            try_vectorize(loop, target, consts)


def vector_loops(module: ModuleOp) -> Iterator[tuple[TargetAttr, IndexConstants, ForOp]]:
    """Each innermost loop of the module's functions, with the target's description and its
    function's index constants; none when the target has no vectors."""
    _, target = target_of(module)
    if target.get("vector_width") is None:
        return
    for fn in functions(module):
        consts = IndexConstants(fn)
        for loop in innermost_loops(fn):
            yield target, consts, loop


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
    if target is not None and target.get("fma", False):
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


# --- the vector loop -----------------------------------------------------------------------------


def try_vectorize(loop: ForOp, target: TargetAttr, consts: IndexConstants) -> bool:
    if constant_index(loop.step) != 1:
        return False
    plan = analyse(loop.body.block, loop.induction_var, target)
    if plan is None:
        return False
    scheduled = loop.vector_width.value.data
    lanes = scheduled if scheduled > 1 else vector_lanes(target, plan.bits or 32)
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
    elif trips is not None:  # a full tile %x to %x + C: the vector loop ends at %x + C rounded down
        end = arith.AddiOp(loop.lb, consts.get(trips // lanes * lanes))
        block.insert_op_before(end, loop)
        vend = end.result
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


__all__ = ["MIN_LANES", "Plan", "VectorizePass", "analyse", "independent", "try_vectorize", "vector_lanes", "vector_loops"]
