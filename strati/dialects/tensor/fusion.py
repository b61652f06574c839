"""Producer-consumer fusion of ``tensor.generic`` ops (level 2), what ``fuse-generics`` runs.

An elementwise producer is inlined into the generic that consumes its result, so
the intermediate tensor (and, after bufferization, its buffer and its loop nest)
disappears, as MLIR's linalg elementwise-op fusion does.  A producer ``P`` is
fused into a consumer ``C`` that reads its result as input ``k`` when:

* ``P`` has only parallel loops and one result, its output map is a permutation
  (identity or transpose) of its loops, and its body does not read the output's
  initial value (so ``P`` is a pure function of its inputs at every point);
* every use of ``P``'s result is an *input* of ``C``, each through the same map,
  and that map is a permutation of ``C``'s loops: each element of the producer is
  then read exactly once by ``C``, so fusion never recomputes anything (a
  broadcast read, such as a matmul operand, is left alone);
* the fused generic's operands still give the extent of every loop (a reduction
  over a broadcast keeps the broadcast).

The fused generic has ``C``'s loops and outputs; its inputs are ``C``'s other
inputs followed by ``P``'s inputs, each through ``P``'s map composed with
``inverse(P's output map) o (C's map for k)``; its body is ``P``'s body (its
``tensor.index`` ops renumbered to ``C``'s loops) followed by ``C``'s body reading
the value ``P`` yielded.  An input that is already there with the same map is
shared.  The rewrite repeats until nothing fuses.

An elementwise consumer that reads such a producer through a ``tensor.reshape`` is first
rewritten on the producer's shape and loops (:func:`expand_through_reshape`), so that the
producer fuses into it.

The same routine (:func:`fuse_generics`) is what ``graph.fused``'s ``lower`` runs
on the ops its body lowered to, so a fusion group becomes as few generics as
these rules allow; the pass applies it to whole functions.  An elementwise
*consumer* of a reduction (conv -> relu) cannot be expressed as one generic: that
fusion happens after bufferization (``fuse-loops``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from strati.dialects.tensor.ops import PARALLEL, EmptyOp, GenericOp, IndexOp, ReshapeOp, YieldOp
from strati.dialects.tensor.build import element_type


def is_permutation(m: AffineMap) -> bool:
    """Every loop exactly once, nothing else: ``(d0, d1, d2) -> (d2, d0, d1)``."""
    positions = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    return m.num_symbols == 0 and len(positions) == len(m.results) == m.num_dims and len(set(positions)) == m.num_dims


def producer_uses(producer: GenericOp, consumer: GenericOp) -> list[int] | None:
    """The input positions of ``consumer`` that read ``producer``'s result, if fusion is legal."""
    if not isinstance(producer, GenericOp) or producer is consumer or len(producer.res) != 1:
        return None
    if any(k != PARALLEL for k in producer.kinds):
        return None
    n_in = len(producer.inputs)
    out_map = producer.maps[n_in]
    if not is_permutation(out_map) or producer.body.block.args[n_in].uses:
        return None
    result = producer.res[0]
    c_in = len(consumer.inputs)
    positions: list[int] = []
    for use in result.uses:
        if use.operation is not consumer or use.index >= c_in:
            return None
        positions.append(use.index)
    if not positions:
        return None
    maps = consumer.maps
    first = maps[positions[0]]
    if any(maps[p] != first for p in positions) or not is_permutation(first):
        return None
    if first.num_dims != len(out_map.results):
        return None
    if not _extents_known(producer, consumer, positions):
        return None
    return sorted(set(positions))


def _extents_known(producer: GenericOp, consumer: GenericOp, positions: list[int]) -> bool:
    """Whether the fused generic's operands would still give the extent of every loop: a
    consumer loop that only the producer's result spans (a reduction over a broadcast, an
    edge pad read through ``tensor.extract``) would be left without one."""
    p_in, c_in = len(producer.inputs), len(consumer.inputs)
    p_maps, c_maps = producer.maps, consumer.maps
    inverse = p_maps[p_in].inverse_permutation()
    if inverse is None:
        return False
    phi = inverse.compose(c_maps[positions[0]])
    operands = [(v, c_maps[k]) for k, v in enumerate(consumer.inputs) if k not in positions]
    operands += [(v, p_maps[k].compose(phi)) for k, v in enumerate(producer.inputs)]
    operands += list(zip(consumer.outputs, c_maps[c_in:]))
    known = {e.position for v, m in operands if isinstance(v.type, TensorType) for e in m.results if isinstance(e, AffineDimExpr)}
    return known >= set(range(len(consumer.kinds)))


def fuse_pair(producer: GenericOp, consumer: GenericOp, positions: list[int]) -> GenericOp:
    """Inline ``producer`` into ``consumer`` (inputs ``positions`` read it); returns the new generic."""
    p_in = len(producer.inputs)
    c_in = len(consumer.inputs)
    p_maps, c_maps = producer.maps, consumer.maps
    inverse = p_maps[p_in].inverse_permutation()
    assert inverse is not None
    phi = inverse.compose(c_maps[positions[0]])  # consumer loops -> producer loops
    loop_of = [e.position for e in phi.results if isinstance(e, AffineDimExpr)]
    assert len(loop_of) == len(phi.results)

    # The new input list: the consumer's other inputs, then the producer's (shared when equal).
    inputs: list[SSAValue] = []
    maps: list[AffineMap] = []
    slot: dict[tuple[SSAValue, AffineMap], int] = {}

    def add(value: SSAValue, m: AffineMap) -> int:
        key = (value, m)
        if key not in slot:
            slot[key] = len(inputs)
            inputs.append(value)
            maps.append(m)
        return slot[key]

    consumer_slot = {k: add(v, c_maps[k]) for k, v in enumerate(consumer.inputs) if k not in positions}
    producer_slot = [add(v, p_maps[k].compose(phi)) for k, v in enumerate(producer.inputs)]
    outputs = list(consumer.outputs)
    maps += c_maps[c_in:]

    # Both generics are erased afterwards (every use of the producer is in the consumer), so their
    # ops move rather than being cloned, and the longer body stays where it is: fusing a chain of
    # n ops (each fusion adds one op to a growing body) costs O(n), not O(n^2).
    if _longer(producer.body.block, consumer.body.block):
        block = _grown_producer_body(producer, consumer, positions, inputs, outputs, producer_slot, consumer_slot, loop_of)
    else:
        block = _new_body(producer, consumer, positions, inputs, outputs, producer_slot, consumer_slot, loop_of)

    fused = GenericOp(inputs, outputs, maps, consumer.kinds, Region(block))
    fused.attributes.update(consumer.attributes)
    fused.location = consumer.location
    Rewriter.insert_op(fused, InsertPoint.before(consumer))
    for old, new in zip(consumer.res, fused.res):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    Rewriter.erase_op(consumer)
    if not producer.res[0].uses:
        inits = list(producer.outputs)
        Rewriter.erase_op(producer)
        for init in inits:  # the producer's destination, now unused
            if isinstance(init.owner, EmptyOp) and not init.uses:
                Rewriter.erase_op(init.owner)
    return fused


def _longer(a: Block, b: Block) -> bool:
    """Whether block ``a`` has more ops than ``b`` (in time proportional to the shorter one)."""
    x, y = a.first_op, b.first_op
    while x is not None and y is not None:
        x, y = x.next_op, y.next_op
    return x is not None


def _renumbered_index(inner: IndexOp, loop_of: list[int]) -> IndexOp:
    index = IndexOp(loop_of[inner.dim.value.data])
    index.result.name_hint = inner.result.name_hint
    return index


def _consumer_ops_after(block: Block, consumer: GenericOp, positions: list[int], yielded: SSAValue,
                        arg_of_slot: Sequence[SSAValue], consumer_slot: dict[int, int], outputs: Sequence[SSAValue]) -> None:
    """Move the consumer's body to the end of ``block``, reading ``yielded`` for the producer."""
    c_in = len(consumer.inputs)
    c_args = consumer.body.block.args
    for k in range(c_in):
        c_args[k].replace_all_uses_with(yielded if k in positions else arg_of_slot[consumer_slot[k]])
    for arg, new in zip(c_args[c_in:], block.args[len(block.args) - len(outputs):]):
        arg.replace_all_uses_with(new)
    for inner in list(consumer.body.block.ops):
        inner.detach()
        block.add_op(inner)


def _new_body(producer: GenericOp, consumer: GenericOp, positions: list[int], inputs: list[SSAValue], outputs: list[SSAValue],
              producer_slot: list[int], consumer_slot: dict[int, int], loop_of: list[int]) -> Block:
    """A new block: the producer's body, then the consumer's (both moved)."""
    p_in, c_in = len(producer.inputs), len(consumer.inputs)
    block = Block(arg_types=[element_type(v) for v in inputs] + [element_type(v) for v in outputs])
    new_args = block.args
    for k, arg in enumerate(producer.body.block.args[:p_in]):
        new_args[producer_slot[k]].name_hint = arg.name_hint
    for k, arg in enumerate(consumer.body.block.args[:c_in]):
        if k in consumer_slot and new_args[consumer_slot[k]].name_hint is None:
            new_args[consumer_slot[k]].name_hint = arg.name_hint
    for arg, new in zip(consumer.body.block.args[c_in:], new_args[len(inputs):]):
        new.name_hint = arg.name_hint

    for k, arg in enumerate(producer.body.block.args[:p_in]):
        arg.replace_all_uses_with(new_args[producer_slot[k]])
    yielded: SSAValue | None = None
    for inner in list(producer.body.block.ops):
        if isinstance(inner, YieldOp):
            yielded = inner.values[0]
            break
        if isinstance(inner, IndexOp):
            index = _renumbered_index(inner, loop_of)
            block.add_op(index)
            inner.result.replace_all_uses_with(index.result)
            continue
        inner.detach()
        block.add_op(inner)
    assert yielded is not None
    _consumer_ops_after(block, consumer, positions, yielded, new_args, consumer_slot, outputs)
    return block


def _grown_producer_body(producer: GenericOp, consumer: GenericOp, positions: list[int], inputs: list[SSAValue],
                         outputs: list[SSAValue], producer_slot: list[int], consumer_slot: dict[int, int], loop_of: list[int]) -> Block:
    """The producer's block, taken over: the consumer's other inputs become arguments in front,
    shared inputs are merged, the outputs replace the producer's, and the consumer's body moves
    to its end."""
    p_in = len(producer.inputs)
    block = producer.body.detach_block(0)
    p_args = list(block.args)
    front = len(set(consumer_slot.values()))  # the consumer's other inputs: slots 0 .. front - 1
    for i in range(front):
        block.insert_arg(element_type(inputs[i]), i)
    arg_of_slot: list[SSAValue | None] = [*block.args[:front], *([None] * (len(inputs) - front))]
    for k in range(p_in):
        slot = producer_slot[k]
        if arg_of_slot[slot] is None:
            arg_of_slot[slot] = p_args[k]
        else:  # an input the fused generic already has
            p_args[k].replace_all_uses_with(arg_of_slot[slot])
            arg_of_slot[slot].name_hint = p_args[k].name_hint
            block.erase_arg(p_args[k])
    block.erase_arg(p_args[p_in])  # the producer's output (its body does not read it)
    c_args = consumer.body.block.args
    for k, slot in consumer_slot.items():
        if arg_of_slot[slot].name_hint is None:
            arg_of_slot[slot].name_hint = c_args[k].name_hint
    for arg in c_args[len(consumer.inputs):]:
        block.insert_arg(arg.type, len(block.args)).name_hint = arg.name_hint
    yield_op = block.last_op
    assert isinstance(yield_op, YieldOp)
    yielded = yield_op.values[0]
    block.erase_op(yield_op)
    if loop_of != list(range(len(loop_of))):
        for inner in list(block.ops):
            if isinstance(inner, IndexOp):
                index = _renumbered_index(inner, loop_of)
                block.insert_op_before(index, inner)
                inner.result.replace_all_uses_with(index.result)
                block.erase_op(inner)
    _consumer_ops_after(block, consumer, positions, yielded, arg_of_slot, consumer_slot, outputs)
    return block


def expand_through_reshape(consumer: GenericOp, members: set[Operation] | None = None) -> GenericOp | None:
    """An elementwise consumer (identity maps, one shape, no ``tensor.index``) that reads the
    result of a permutation generic through a ``tensor.reshape``, rewritten on the producer's
    shape and loops, so that the producer fuses into it: its other operands reshaped alike,
    its result reshaped back (a reshape is a view once bufferized).  Elementwise work does not
    care how its row-major elements are grouped into dimensions, as MLIR's reshape propagation
    by expansion uses.  This is how relu or a residual add joins the copy that takes a blocked
    convolution's result back to NCHW (:mod:`strati.dialects.hw.cpu.conv`).  None when the
    consumer is not one such."""
    if len(consumer.res) != 1 or any(k != PARALLEL for k in consumer.kinds):
        return None
    operands = [*consumer.inputs, *consumer.outputs]
    result_type = consumer.res[0].type
    if any(m != AffineMap.identity(m.num_dims) for m in consumer.maps):
        return None
    if any(not isinstance(v.type, TensorType) or v.type.get_shape() != result_type.get_shape() for v in operands):
        return None
    if any(isinstance(o, IndexOp) for o in consumer.body.walk()):
        return None
    for k, value in enumerate(consumer.inputs):
        reshape, source = value.owner, None
        if isinstance(reshape, ReshapeOp) and value.has_one_use():
            source = reshape.input
        producer = source.owner if source is not None else None
        if not isinstance(producer, GenericOp) or not source.has_one_use() or len(producer.res) != 1:
            continue
        if (members is not None and producer not in members) or any(kind != PARALLEL for kind in producer.kinds):
            continue
        loops = producer.maps[len(producer.inputs)]
        if not is_permutation(loops):
            continue
        shape = source.type.get_shape()

        def reshaped(v: SSAValue) -> SSAValue:
            t = TensorType(element_type(v), shape)
            new = EmptyOp(t) if isinstance(v.owner, EmptyOp) else ReshapeOp.build(operands=[v], result_types=[t])
            Rewriter.insert_op(new, InsertPoint.before(consumer))
            return new.results[0]

        inputs = [source if j == k else reshaped(v) for j, v in enumerate(consumer.inputs)]
        outputs = [reshaped(v) for v in consumer.outputs]
        expanded = GenericOp(inputs, outputs, [loops] * len(operands), [PARALLEL] * loops.num_dims,
                             consumer.detach_region(consumer.body))  # fmt: skip
        expanded.attributes.update(consumer.attributes)
        expanded.location = consumer.location
        back = ReshapeOp.build(operands=[expanded.res[0]], result_types=[result_type])
        Rewriter.insert_op(expanded, InsertPoint.before(consumer))
        Rewriter.insert_op(back, InsertPoint.before(consumer))
        back.results[0].name_hint = consumer.res[0].name_hint
        consumer.res[0].replace_all_uses_with(back.results[0])
        olds = [v.owner for v in operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(consumer)
        for old in olds:  # the reshape read and an emptied destination, now unused
            if isinstance(old, (ReshapeOp, EmptyOp)) and not old.results[0].uses:
                Rewriter.erase_op(old)
        return expanded
    return None


def fuse_generics(ops: Sequence[Operation] | Block) -> int:
    """Fuse producers into consumers among ``ops`` (consecutive ops of one block, in order), or
    all the generics of a block, until nothing fuses; returns the number of fusions.  Only
    generics in ``ops`` take part, and only ``ops``' run of the block is scanned (a fused
    group's lowering is a few ops of a function of thousands)."""
    stop: Operation | None = None  # the op after the run: no member's input, so never erased
    if isinstance(ops, Block):
        block = ops
        members: set[Operation] | None = None
    else:
        members = {op for op in ops if isinstance(op, GenericOp)}
        blocks = {op.parent_block() for op in members}
        if not members:
            return 0
        assert len(blocks) == 1, "fuse_generics works within one block"
        (block,) = blocks
        assert block is not None
        stop = ops[-1].next_op
    count = 0
    changed = True
    while changed:
        changed = False
        op = block.first_op if members is None else _first_member(members, block, stop)
        while op is not None and op is not stop:
            if not isinstance(op, GenericOp) or (members is not None and op not in members):
                op = op.next_op
                continue
            expanded = expand_through_reshape(op, members)
            if expanded is not None:
                if members is not None:
                    members.discard(op)
                    members.add(expanded)
                op = expanded
            fused = None
            for value in op.inputs:
                producer = value.owner
                if not isinstance(producer, GenericOp) or (members is not None and producer not in members):
                    continue
                positions = producer_uses(producer, op)
                if positions is None:
                    continue
                fused = fuse_pair(producer, op, positions)
                if members is not None:
                    members.discard(op)
                    members.discard(producer)
                    members.add(fused)
                count += 1
                changed = True
                break
            op = op.next_op if fused is None else fused  # a fused generic may take more producers
    return count


def _first_member(members: set[Operation], block: Block, stop: Operation | None) -> Operation:
    """The first of ``members`` in ``block``, all of which lie before ``stop``: found walking
    back from it until every member is passed."""
    op = block.last_op if stop is None else stop.prev_op
    left = len(members)
    while True:
        assert op is not None
        left -= op in members
        if not left:
            return op
        op = op.prev_op


__all__ = ["expand_through_reshape", "fuse_generics"]
