"""alter-layout: convolutions in the blocked channel layout their target's strategy prefers,
the layout carried through the ops that do not mix channels, its changes cancelled between them.

For each ``graph.conv2d`` whose cheapest strategy names a ``layout`` (the CPU's ``blocked``
one says ``NCHW{c}c``, ``c`` the description's ``vector_width``), costed as if its operands
were in that layout already (``layout_cost``: no copy back), the op becomes::

    xb = graph.layout_transform %x {src = "NCHW", dst = "NCHW16c"}
    wb = graph.layout_transform %w {src = "OIHW", dst = "OHWI16o"}     (folded: %w is a constant)
    yb = graph.conv2d_blocked xb, wb, %bias
    y  = graph.layout_transform yb {src = "NCHW16c", dst = "NCHW"}

An input of fewer channels than a block (a network's first convolution, on 3 colour
channels) stays NCHW: graph.conv2d_blocked reads it as it is, where its blocked copy would be
mostly padding (224 x 224 x 3 floats written as 224 x 224 x 16).  (No blocked value has so
few channels: the blocked convolutions make whole blocks, the carried ops keep them.)

Then, until nothing changes: an op that reads a value coming out of the blocked layout
(``y`` above) and does not mix channels computes in the blocked layout instead, the change
back moving after it: elementwise ops, max and average pooling (``graph.*_pool2d_blocked``), the arithmetic binary ops (add for a residual, mul
and add for a folded batch norm's scale and shift; each other operand blocked too, or a
constant per channel, re-laid-out here) and concat along the channels when every part but
the last fills whole blocks (the last one's padding ends the result; a part that is not
blocked yet is changed there, a copy the concat would make anyway).  A change into the
blocked layout of a value that just came out of it (``layout_transform`` of
``layout_transform``, the same types at both ends) is that value: only the graph's inputs
and outputs, and the ops that mix channels, keep a change.  The padding channels of a
blocked value hold whatever the ops compute from the zeros (relu(0), sigmoid(0)): nothing
reads them (the convolutions read the real input channels, the change back drops them).
The changes of constants (the weights, the per-channel scales) are folded here, whatever
their size: the re-laid-out constant replaces the original.

A convolution whose blocked values would meet no other convolution's (its group of ops joined
by blocked activations, found on a trial copy, holds no other) keeps NCHW: it would pay a
change into the layout and one out of it, where in NCHW the ``blocked`` strategy reads its
input as it is and writes the layout only inside its own lowering.  With that rule the pass is
part of -O3 (measured on the light ONNX models: 0.79-0.99 of the time; without it ShuffleNet's
and AlexNet's lone convolutions made them 1.24x and 1.10x slower).

Options: ``target`` (default: the module's description, else the default target), ``lone``
(true: a convolution alone is blocked too, as before the rule).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from strati import registry
from strati.dense import dense_from_numpy
from strati.dialects.graph.attrs.layout import blocked_layout, parse_layout, to_blocked, transform_params
from strati.dialects.graph.ops import ConstantOp
from strati.dialects.graph.ops_layout import BLOCKED_POOLS, Conv2dBlockedOp, LayoutTransformOp
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import target_of
from strati.functions import functions
from strati.registry import OpPattern
from strati.strategy import choose, strategies

BINARY = ("graph.add", "graph.sub", "graph.mul", "graph.div", "graph.maximum", "graph.minimum")
"""The binary ops carried in the blocked layout (channel by channel, numpy broadcasting)."""


@dataclass(frozen=True)
class AlterLayoutPass(ModulePass):
    """Blocked layouts for the convolutions whose strategy prefers one, carried between them."""

    name = "alter-layout"

    target: str | None = None
    lone: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _, description = target_of(op, self.target)
        for fn in functions(op):
            alter_function(fn, description, self.lone)


def alter_function(fn: func.FuncOp, description: TargetAttr, lone: bool = False) -> bool:
    """The rewrites of the module's docstring on one function; whether any conv changed layout.
    ``lone``: also the convolutions whose blocked layout would meet no other's (:func:`_alone`)."""
    blockable = _blockable(fn, description)
    alone = set() if lone else _alone(fn, blockable)
    chosen = [(conv, c) for k, (conv, c) in enumerate(blockable) if k not in alone]
    if not chosen:
        return False
    _rewrite(fn, chosen)
    _fold_and_clean(fn)
    return True


def _blockable(fn: func.FuncOp, description: TargetAttr) -> list[tuple[Operation, int]]:
    """The convolutions whose cheapest strategy prefers a blocked activation layout, with its block."""
    found = []
    for conv in [o for o in fn.walk() if o.name == "graph.conv2d" and _static(o)]:
        layout = preferred_layout(conv, description)
        if layout is None:
            continue
        kind, c = parse_layout(layout)
        if kind == "act" and c is not None:
            found.append((conv, c))
    return found


def _rewrite(fn: func.FuncOp, convs: list[tuple[Operation, int]]) -> None:
    """Block the convolutions, then carry and cancel the layout changes until nothing changes."""
    for conv, c in convs:
        _block_conv(conv, c)
    while True:
        progress = False
        for o in list(fn.walk()):
            if o.parent is None:
                continue
            progress |= _carry(o) or _cancel(o)
        if not progress:
            break


TRIAL_INDEX = "strati.alter_layout_index"
"""On the convolutions of :func:`_alone`'s trial copy: their place in the list it was given."""


def _alone(fn: func.FuncOp, convs: list[tuple[Operation, int]]) -> set[int]:
    """The convolutions (their places in ``convs``) whose blocked layout would reach no other's.

    They are rewritten on a copy of ``fn`` (the constants not folded), whose values in a blocked
    activation layout join the ops that make and use them into groups: a convolution alone in
    its group would pay a change into the layout and one out of it for nothing, where in NCHW
    it reads its input as it is (ShuffleNet's, between grouped convolutions that stay NCHW:
    1.24x the time with them blocked)."""
    from strati.transforms.fold_constants import constant_value

    if len(convs) < 2:
        return set(range(len(convs)))
    trial = fn.clone()
    at = {id(conv): k for k, (conv, _) in enumerate(convs)}
    originals = [o for o in fn.walk() if o.name == "graph.conv2d"]
    copies = [o for o in trial.walk() if o.name == "graph.conv2d"]
    trial_convs = []
    for original, copy in zip(originals, copies):
        if id(original) in at:
            copy.attributes[TRIAL_INDEX] = IntegerAttr(at[id(original)], i64)
            trial_convs.append((copy, convs[at[id(original)]][1]))
    _rewrite(trial, trial_convs)
    group: dict[Operation, Operation] = {}

    def find(op: Operation) -> Operation:
        while group.get(op, op) is not op:
            op = group[op]
        return op

    for op in trial.walk():
        for v in op.operands:
            owner = v.owner
            if not isinstance(owner, Operation) or isinstance(owner, ConstantOp) or len(getattr(v.type, "shape", ())) != 5:
                continue
            if isinstance(owner, LayoutTransformOp) and (transform_params(owner)[0] != "act" or constant_value(owner.operands[0]) is not None):
                continue  # weights, per-channel constants: no activation flows through them
            group[find(op)] = find(owner)
    members: dict[Operation, list[int]] = {}
    for op in trial.walk():
        if isinstance(op, Conv2dBlockedOp) and TRIAL_INDEX in op.attributes:
            members.setdefault(find(op), []).append(op.attributes[TRIAL_INDEX].value.data)
    return {ks[0] for ks in members.values() if len(ks) == 1}


def preferred_layout(op: Operation, description: TargetAttr) -> str | None:
    """The layout of the cheapest strategy that applies to ``op`` (:func:`choose`'s candidates),
    each strategy with a layout costed as if its operands were in it already (``layout_cost``):
    the copies it would otherwise make are what the pass removes.  None: NCHW."""
    choice = choose(op, description)
    if choice is None:
        return None
    best, best_cost = None, float("inf")
    for strategy in strategies(op.name, description.target_name):
        if strategy.name not in dict(choice.costs):
            continue
        layout = strategy.layout(op, description) if strategy.layout is not None else None
        cost = (strategy.layout_cost or strategy.cost)(op, description) if layout is not None else dict(choice.costs)[strategy.name]
        if cost < best_cost:
            best, best_cost = layout, cost
    return best


def _static(op: Operation) -> bool:
    from strati.dialects.shapes import shape_of

    return all(isinstance(v.type, TensorType) and None not in shape_of(v.type) for v in (*op.operands, *op.results))


def _transform(value: SSAValue, src: str, dst: str, result_type: TensorType | None = None) -> LayoutTransformOp:
    """A graph.layout_transform of ``value`` (its result type inferred unless given)."""
    props = {"src": StringAttr(src), "dst": StringAttr(dst)}
    if result_type is None:
        probe = LayoutTransformOp.create(operands=[value], result_types=[value.type], properties=props)
        result_type = registry.lookup_or_raise("graph.layout_transform", "infer_type")(probe)[0]
        probe.erase(safe_erase=False)
    return LayoutTransformOp.create(operands=[value], result_types=[result_type], properties=props)


def _block_conv(conv: Operation, c: int) -> None:
    act, weight = blocked_layout("act", c), blocked_layout("weight", c)
    x, w = conv.operands[0], conv.operands[1]
    wb = _transform(w, "OIHW", weight)
    xb = None if x.type.get_shape()[1] < c else _transform(x, "NCHW", act)  # few channels: read as they are
    n, _, oh, ow = conv.results[0].type.get_shape()
    ob = wb.results[0].type.get_shape()[0]
    result_type = TensorType(conv.results[0].type.get_element_type(), [n, ob, oh, ow, c])
    props = {k: v for k, v in conv.properties.items()}
    blocked = Conv2dBlockedOp.create(
        operands=[x if xb is None else xb.results[0], wb.results[0], *conv.operands[2:]], result_types=[result_type],
        properties=props, attributes=dict(conv.attributes),
    )  # fmt: skip
    back = _transform(blocked.results[0], act, "NCHW", conv.results[0].type)
    Rewriter.insert_op([*([xb] if xb else []), wb, blocked, back], InsertPoint.before(conv))
    conv.results[0].replace_all_uses_with(back.results[0])
    Rewriter.erase_op(conv)


def _unblocked(value: SSAValue) -> tuple[SSAValue, int] | None:
    """``(blocked, c)`` when ``value`` is an activation just changed out of a blocked layout."""
    t = value.owner
    if not isinstance(t, LayoutTransformOp):
        return None
    kind, c, blocking = transform_params(t)
    return (t.operands[0], c) if kind == "act" and not blocking else None


def _blocked_type(t: TensorType, c: int) -> TensorType:
    n, ch, h, w = t.get_shape()
    return TensorType(t.get_element_type(), [n, -(-ch // c), h, w, c])


def _per_channel(value: SSAValue, shape4: tuple[int, ...], c: int) -> SSAValue | None:
    """A constant that broadcasts along everything but the channels of an NCHW ``shape4``,
    as the same constant in the blocked layout (a new graph.constant)."""
    from strati.transforms.fold_constants import constant_value

    v = constant_value(value)
    if v is None or v.ndim > 4:
        return None
    v4 = v.reshape((1,) * (4 - v.ndim) + v.shape)
    if v4.shape[0] != 1 or v4.shape[2:] != (1, 1) or v4.shape[1] not in (1, shape4[1]):
        return None
    if v4.shape[1] == 1:
        return value  # a scalar broadcasts in any layout
    const = ConstantOp(dense_from_numpy(to_blocked(np.broadcast_to(v4, (1, shape4[1], 1, 1)), "act", c)))
    Rewriter.insert_op(const, InsertPoint.before(value.owner))
    return const.results[0]


def _carry(op: Operation) -> bool:
    """``op`` computed in the blocked layout when it reads a value changed out of it and does
    not mix channels (the module's docstring); whether it was."""
    if len(op.results) != 1 or not isinstance(op.results[0].type, TensorType) or op.regions:
        return False
    out_t = op.results[0].type
    if len(out_t.get_shape()) != 4 or not _static(op):
        return False
    sources = [_unblocked(v) for v in op.operands]
    found = [s for s in sources if s is not None]
    if not found or len({c for _, c in found}) != 1:
        return False
    c = found[0][1]
    operands: list[SSAValue] | None = None
    if registry.get_op_attr(op.name, "pattern") == OpPattern.ELEMWISE and len(op.operands) == 1:
        operands = [found[0][0]]
    elif op.name in BINARY and len(op.operands) == 2:
        operands = []
        for v, s in zip(op.operands, sources):
            if s is not None and v.type == out_t:
                operands.append(s[0])
            elif s is None and (b := _per_channel(v, tuple(out_t.get_shape()), c)) is not None:
                operands.append(b)
            else:
                return False
    elif op.name in BLOCKED_POOLS:
        operands = [found[0][0]]
    elif op.name == "graph.concat" and op.param("axis") in (1, -3):
        parts = [v.type.get_shape()[1] for v in op.operands]
        if any(p % c for p in parts[:-1]):
            return False
        operands = []
        for v, s in zip(op.operands, sources):
            if s is None:  # a part computed in NCHW: changed here (its copy is the concat's)
                t = _transform(v, "NCHW", blocked_layout("act", c))
                Rewriter.insert_op(t, InsertPoint.before(op))
                s = (t.results[0], c)
            operands.append(s[0])
    if operands is None:
        return False
    cls = BLOCKED_POOLS.get(op.name, type(op))
    props = dict(op.properties)
    if op.name == "graph.concat":
        props["axis"] = IntegerAttr(1, i64)  # the blocks (an axis of -3 would now be H)
    blocked = cls.create(operands=operands, result_types=[_blocked_type(out_t, c)], properties=props, attributes=dict(op.attributes))
    back = _transform(blocked.results[0], blocked_layout("act", c), "NCHW", out_t)
    Rewriter.insert_op([blocked, back], InsertPoint.before(op))
    op.results[0].replace_all_uses_with(back.results[0])
    Rewriter.erase_op(op)
    return True


def _cancel(op: Operation) -> bool:
    """A layout change of a value that just came out of the reverse change: that value."""
    if not isinstance(op, LayoutTransformOp):
        return False
    inner = op.operands[0].owner
    if not isinstance(inner, LayoutTransformOp) or inner.operands[0].type != op.results[0].type:
        return False
    if inner.param("src") != op.param("dst") or inner.param("dst") != op.param("src"):
        return False
    op.results[0].replace_all_uses_with(inner.operands[0])
    Rewriter.erase_op(op)
    if not inner.results[0].uses:
        Rewriter.erase_op(inner)
    return True


def _fold_and_clean(fn: func.FuncOp) -> None:
    """Fold the layout changes of constants; erase the changes and constants left unused."""
    from strati.transforms.fold_constants import constant_value

    for t in [o for o in fn.walk() if isinstance(o, LayoutTransformOp)]:
        value = constant_value(t.operands[0])
        if value is None:
            continue
        const = ConstantOp(dense_from_numpy(np.asarray(registry.lookup_or_raise(t.name, "reference")(t, value))))
        Rewriter.insert_op(const, InsertPoint.before(t))
        t.results[0].replace_all_uses_with(const.results[0])
        Rewriter.erase_op(t)
    for o in reversed(list(fn.walk())):
        if isinstance(o, (LayoutTransformOp, ConstantOp)) and all(not r.uses for r in o.results):
            Rewriter.erase_op(o)


__all__ = ["AlterLayoutPass", "alter_function"]
