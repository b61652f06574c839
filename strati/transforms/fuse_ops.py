"""fuse-ops: group graph ops into fused kernels by their registered ``pattern``, as TVM's FuseOps.

For every function, the pass builds the dataflow graph of the ops in its body
(nodes in program order, which is a topological order; an edge from each op to
each op that uses one of its results), computes the post-dominator tree of that
DAG (the function's return, and anything outside the graph, is the sink: a node
whose value escapes has no post-dominator), and then partitions it with TVM's
rules, in two phases over the nodes in topological order:

* the *edge kind* from a producer to a consumer is the consumer's pattern, except
  that a ``broadcast`` consumer whose operand already has the result's shape
  reads it elementwise (``elemwise``);
* phase 0: an ``out_elemwise_fusable`` group (conv2d, matmul, gemm, pools) fuses
  into its immediate post-dominator when the kinds on the way there combine to
  ``elemwise`` and every op on every path to it is at most ``broadcast``: it takes
  its elementwise tail.  An ``elemwise``/``broadcast`` group fuses into its
  post-dominator when the edge kinds combine to at most ``injective`` or to
  ``reduce`` and every path to it is at most ``injective`` (the post-dominator
  itself may be ``broadcast``, ``injective``, ``reduce`` or an
  ``out_elemwise_fusable`` group): a reduction absorbs elementwise producers;
* phase 1: an ``injective`` group fuses into its post-dominator when every path
  is ``injective`` or less (so conv2d has finished taking its tail first);
* a ``reduce`` group never fuses into its consumers (a reduction ends a group),
  ``opaque`` never fuses at all, and groups are capped at ``max_depth`` ops.

Fusing into the *post-dominator* along *all* paths is what keeps a value with
several users right: every op between a node and its post-dominator joins the
same group, so no value computed inside a group is needed outside it except the
group's own results, and nothing is ever recomputed.  Constants
(``graph.constant`` and any ``ConstantLike`` op) are never members: they stay
outside, as operands of the group.  Ops without a ``pattern`` (or of another
dialect) are ``opaque``.

Every group of two or more ops becomes a ``graph.fused`` op placed where its last
op was: its operands are the values the group reads from outside, its results
the values used outside, its body the ops (in their order) ending in
``graph.yield``; it is named ``fused_<op>_<op>...`` and carries the group's kind
(the largest of its ops' kinds: that of its anchor, if it has one).  A group of one op stays as it is: it already is a kernel.
``graph.fused`` ops already in the IR are opaque, so the pass is idempotent.

Options: ``max_depth`` (default 256, TVM's ``max_fuse_depth``): the largest group.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, IsTerminator

from strati import registry
from strati.dialects.graph.ops import FusedOp, YieldOp
from strati.functions import functions
from strati.registry import OpPattern

MAX_NAME_LENGTH = 80


def combine(a: OpPattern, b: OpPattern) -> OpPattern:
    return max(a, b)


def op_pattern(op: Operation) -> OpPattern:
    if isinstance(op, FusedOp):
        return OpPattern.OPAQUE
    value = registry.get_op_attr(op.name, "pattern")
    return value if isinstance(value, OpPattern) else OpPattern.OPAQUE


def is_constant(op: Operation) -> bool:
    return op.has_trait(ConstantLike) or op.name == "graph.constant"


# --- the dataflow graph ------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    index: int
    op: Operation
    pattern: OpPattern
    outputs: list[tuple[Node, OpPattern]] = field(default_factory=list)
    extern_ref: bool = False


def edge_pattern(consumer: Operation, pattern: OpPattern, operand: SSAValue) -> OpPattern:
    """TVM: a broadcast consumer reads an operand of the result's shape elementwise."""
    if pattern == OpPattern.BROADCAST and isinstance(operand.type, TensorType):
        if consumer.results and all(r.type == operand.type or (
            isinstance(r.type, TensorType) and r.type.get_shape() == operand.type.get_shape()
        ) for r in consumer.results):
            return OpPattern.ELEMWISE
    return pattern


def build_graph(block: Block) -> list[Node]:
    nodes: list[Node] = []
    by_op: dict[Operation, Node] = {}
    for op in block.ops:
        if op.has_trait(IsTerminator) or is_constant(op):
            continue
        node = Node(len(nodes), op, op_pattern(op))
        nodes.append(node)
        by_op[op] = node
    for node in nodes:
        for result in node.op.results:
            for use in result.uses:
                user = use.operation
                consumer = by_op.get(user)
                if consumer is None:  # the return, an op of a nested region, anything outside the graph
                    node.extern_ref = True
                    continue
                node.outputs.append((consumer, edge_pattern(user, consumer.pattern, result)))
    return nodes


# --- post-dominators ---------------------------------------------------------------------


@dataclass(eq=False)
class DomNode:
    node: Node
    parent: DomNode | None
    depth: int
    pattern: OpPattern  # the combined kind of the edges on the way to the parent


def post_dominators(nodes: list[Node]) -> list[DomNode]:
    """The post-dominator tree (TVM's DominatorTree::PostDom): in reverse topological order,
    a node's parent is the least common ancestor of its consumers."""
    tree: list[DomNode | None] = [None] * len(nodes)

    def lca(a: DomNode | None, b: DomNode | None, pattern: list[OpPattern]) -> DomNode | None:
        while a is not b:
            if a is None or b is None:
                return None
            if a.depth < b.depth:
                pattern[0] = combine(pattern[0], b.pattern)
                b = b.parent
            elif b.depth < a.depth:
                pattern[0] = combine(pattern[0], a.pattern)
                a = a.parent
            else:
                pattern[0] = combine(combine(pattern[0], a.pattern), b.pattern)
                a, b = a.parent, b.parent
        return a

    for node in reversed(nodes):
        if node.extern_ref or not node.outputs:
            tree[node.index] = DomNode(node, None, 1, OpPattern.OPAQUE)
            continue
        pattern = [OpPattern.ELEMWISE]
        parent: DomNode | None = None
        for i, (consumer, kind) in enumerate(node.outputs):
            target = tree[consumer.index]
            assert target is not None
            parent = target if i == 0 else lca(parent, target, pattern)
            pattern[0] = combine(pattern[0], kind)
        tree[node.index] = DomNode(node, parent, parent.depth + 1 if parent else 1, pattern[0])
    return [t for t in tree if t is not None]


# --- partitioning ------------------------------------------------------------------------


@dataclass(eq=False)
class Group:
    pattern: OpPattern
    parent: Group | None = None
    anchor: Operation | None = None
    num_nodes: int = 1

    def root(self) -> Group:
        group = self
        while group.parent is not None:
            group = group.parent
        # path compression
        node = self
        while node.parent is not None and node.parent is not group:
            node.parent, node = group, node.parent
        return group


class Partitioner:
    def __init__(self, nodes: list[Node], max_depth: int):
        self.nodes = nodes
        self.max_depth = max_depth
        self.groups = [
            Group(n.pattern, anchor=n.op if n.pattern == OpPattern.OUT_ELEMWISE_FUSABLE else None) for n in nodes
        ]
        self.visited: set[Node] = set()

    def merge(self, child: Group, parent: Group) -> None:
        child, parent = child.root(), parent.root()
        if child is parent:
            return
        parent.num_nodes += child.num_nodes
        child.parent = parent
        if child.anchor is not None:
            assert parent.anchor is None
            parent.anchor = child.anchor
            parent.pattern = combine(child.pattern, parent.pattern)

    def check_path(self, src: Node, sink: Node, cond) -> bool:
        self.visited = set()

        def visit(node: Node) -> bool:
            if node in self.visited:
                return True
            self.visited.add(node)
            group = self.groups[node.index].root()
            if not cond(group.pattern, node is sink):
                return False
            if node is sink:
                return True
            return all(visit(n) for n, _ in node.outputs)

        return all(visit(n) for n, _ in src.outputs)

    def commit(self, src: Node, sink: Node) -> None:
        target = self.groups[sink.index]
        self.visited = set()

        def visit(node: Node) -> None:
            if node is sink or node in self.visited:
                return
            self.visited.add(node)
            self.merge(self.groups[node.index], target)
            for n, _ in node.outputs:
                visit(n)

        visit(src)

    def count_with(self, child: Node, parent: Node) -> int:
        """The size of the parent's group with everything on the way from ``child`` to it
        (TVM's CountFusedNodesWithNewChild)."""
        seen: set[Node] = set()

        def up_to_sink(node: Node) -> int:
            if node is parent or node in seen:
                return 0
            seen.add(node)
            return self.groups[node.index].num_nodes + sum(up_to_sink(n) for n, _ in node.outputs)

        return self.groups[parent.index].root().num_nodes + up_to_sink(child)

    def run(self, tree: list[DomNode], phase: int) -> None:
        for node, dom in zip(self.nodes, tree):
            group = self.groups[node.index]
            if group.pattern == OpPattern.OPAQUE or dom.parent is None:
                continue
            sink = dom.parent.node
            if self.count_with(node, sink) > self.max_depth:
                continue
            if group.root() is self.groups[sink.index].root():
                continue  # already fused into it
            if group.pattern == OpPattern.OUT_ELEMWISE_FUSABLE:
                if phase != 0 or dom.pattern != OpPattern.ELEMWISE:
                    continue
                if self.check_path(node, sink, lambda kind, is_sink: kind <= OpPattern.BROADCAST):
                    self.commit(node, sink)
            elif group.pattern <= OpPattern.BROADCAST:
                if not (dom.pattern <= OpPattern.INJECTIVE or dom.pattern == OpPattern.REDUCE):
                    continue

                def cond(kind: OpPattern, is_sink: bool) -> bool:
                    if not is_sink:
                        return kind <= OpPattern.INJECTIVE
                    return kind <= OpPattern.OUT_ELEMWISE_FUSABLE  # broadcast, injective, reduce, out_elemwise

                if self.check_path(node, sink, cond):
                    self.commit(node, sink)
            elif group.pattern == OpPattern.INJECTIVE:
                if phase != 1:
                    continue
                if self.check_path(node, sink, lambda kind, is_sink: kind <= OpPattern.INJECTIVE):
                    self.commit(node, sink)
            # REDUCE: a reduction ends its group; nothing to do.

    def partition(self) -> list[list[Node]]:
        tree = post_dominators(self.nodes)
        for phase in (0, 1):
            self.run(tree, phase)
        members: dict[Group, list[Node]] = {}
        for node in self.nodes:
            members.setdefault(self.groups[node.index].root(), []).append(node)
        return list(members.values())

    @staticmethod
    def kind(group_nodes: list[Node]) -> OpPattern:
        """The group's kind, as written on graph.fused: the largest of its ops' (an anchor's)."""
        return max(n.pattern for n in group_nodes)


def partition(block: Block, max_depth: int = 256) -> list[tuple[list[Operation], OpPattern]]:
    """The fusion groups of a block's ops (each in program order) and their kinds."""
    nodes = build_graph(block)
    p = Partitioner(nodes, max_depth)
    return [([n.op for n in group], p.kind(group)) for group in p.partition()]


# --- rewriting ---------------------------------------------------------------------------


def kernel_name(ops: list[Operation]) -> str:
    name = "fused_" + "_".join(op.name.split(".", 1)[-1] for op in ops)
    if len(name) > MAX_NAME_LENGTH:
        name = name[: MAX_NAME_LENGTH - 4].rstrip("_") + "_etc"
    return name


def outline_group(ops: list[Operation], kind: OpPattern) -> FusedOp | None:
    """Replace a group (ops in program order, one block) by a graph.fused op placed at its last op.

    Returns None, leaving the ops alone, if some use outside the group comes before
    the group's last op (no group that fuse-ops forms has one)."""
    members = set(ops)
    block = ops[-1].parent_block()
    assert block is not None
    position = {op: i for i, op in enumerate(block.ops)}
    last = position[ops[-1]]
    inputs: list[SSAValue] = []
    seen: set[SSAValue] = set()
    outputs: list[SSAValue] = []
    for op in ops:
        for v in op.operands:
            if (v.owner not in members) and v not in seen:
                seen.add(v)
                inputs.append(v)
        for r in op.results:
            outside = [u.operation for u in r.uses if block.find_ancestor_op_in_block(u.operation) not in members]
            if outside:
                if any(position[block.find_ancestor_op_in_block(u)] < last for u in outside):  # type: ignore[index]
                    return None
                outputs.append(r)
    body = Block(arg_types=[v.type for v in inputs])
    mapper: dict[SSAValue, SSAValue] = dict(zip(inputs, body.args))
    for v, arg in zip(inputs, body.args):
        arg.name_hint = v.name_hint
    for op in ops:
        body.add_op(op.clone(value_mapper=mapper))
    body.add_op(YieldOp(*[mapper[v] for v in outputs]))
    fused = FusedOp(kernel_name(ops), str(kind), inputs, [v.type for v in outputs], Region(body))
    fused.location = ops[-1].location
    Rewriter.insert_op(fused, InsertPoint.after(ops[-1]))
    for old, new in zip(outputs, fused.outputs):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
    for op in reversed(ops):
        Rewriter.erase_op(op)
    return fused


def fuse_block(block: Block, max_depth: int = 256) -> list[FusedOp]:
    fused: list[FusedOp] = []
    for ops, kind in partition(block, max_depth):
        if len(ops) < 2:
            continue
        op = outline_group(ops, kind)
        if op is not None:
            fused.append(op)
    return fused


@dataclass(frozen=True)
class FuseOpsPass(ModulePass):
    """Group graph ops into graph.fused kernels by their fusion kinds (see the module doc)."""

    name = "fuse-ops"

    max_depth: int = 256

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            for block in fn.body.blocks:
                fuse_block(block, self.max_depth)
