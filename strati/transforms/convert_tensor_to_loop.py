"""convert-tensor-to-loop: bufferize tensor-level functions into loop nests over memrefs.

Conventions of the result (level 3):

* **Destination-passing style.** ``func.func @f(%x: tensor<..>) -> (tensor<A>, tensor<B>)``
  becomes ``func.func @f(%x: memref<..>, %out0: memref<A>, %out1: memref<B>)
  attributes {strati.outputs = 2 : i64}``: each result is an extra trailing
  argument that the function writes, and ``strati.outputs`` says how many of the
  trailing arguments are outputs.  Inputs are read only.  Result attributes, if
  any, move onto the output arguments.  ``func.call`` follows the same convention.
* **Buffers.** A value's buffer is, in order of preference: the output argument
  it is returned through (so the producer writes it directly, no copy); the
  buffer of the producer's destination operand (the init of a generic or fill,
  the dest of an insert_slice) when that operand has no later use, including
  through reshape views (in place); else a fresh ``memref.alloc``.
  ``tensor.empty`` allocates nothing until some op needs its buffer.
  ``tensor.reshape`` is a ``loop.view`` (when the reshape is returned, its source
  is computed straight into a view of the output argument).  Values returned that
  are arguments, constants or already written elsewhere are copied.
* **Deallocation.** Every ``memref.alloc`` is paired with a ``memref.dealloc``
  right after the last top-level op that uses the buffer or a view of it.
* **Constants.** ``arith.constant dense<..> : tensor<..>`` becomes a private
  constant ``memref.global @__constant_<shape>`` (identical constants share one)
  read through ``memref.get_global``; nothing writes it in place.
* **Loops.** A ``tensor.generic`` is one ``loop.for`` per iteration dimension,
  outermost = d0 (the generic's order, reductions stay where the generic put
  them).  Loops before the first reduction are ``parallel = true`` when their
  dimension indexes every output.  Inputs are ``memref.load``-ed through their
  indexing maps (affine expressions become ``arith`` on ``index``: ``muli``/``addi``,
  and ``remsi``/``divsi``/``ceildivsi`` where the dividend is provably
  non-negative, else the floor-semantics sequence), the body's scalar ops are
  cloned, ``tensor.index`` is the induction variable, ``tensor.extract`` a load from
  the captured buffer, and each yielded value is ``memref.store``-d through its
  output map.  The output is first initialised from the init only if the body
  reads it (or the output map does not cover every element): nothing for
  ``tensor.empty``, a fill loop for ``tensor.fill``, a copy loop otherwise.
  Data movement (fill, concat, extract/insert slices, pad) are copy loop nests,
  all ``parallel``.
* **Open.** Each op is converted by its registered ``bufferize`` attribute,
  ``bufferize(bufferizer, op)`` (the tensor dialect's are at the end of this file).
  A rule reads its operands' buffers with ``bufferizer.buffer(value)`` (scalars from
  ``bufferizer.values``), gets a result's buffer with ``bufferizer.result_buffer(result)``
  (or sets ``bufferizer.values[result]``), and inserts ops with ``bufferizer.emit(op)``;
  ``loops``, ``load``, ``store`` and ``copy`` build loop nests.  So a target's op at
  the tensor level (an accelerator's GEMM) bufferizes into its memref form without a
  change here.  An op with tensors and no rule is an error naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from strati import registry
from strati.diagnostics import StratiError
from strati.functions import OUTPUTS_ATTR
from strati.dialects.loop.ops import ForOp, ViewOp
from strati.dialects.tensor.ops import (
    PARALLEL,
    ConcatOp,
    EmptyOp,
    ExtractOp,
    ExtractSliceOp,
    FillOp,
    GenericOp,
    IndexOp,
    InsertSliceOp,
    PadOp,
    ReshapeOp,
    YieldOp,
)


# Ops whose result is written into a buffer of their own (fresh, in place, or an output).
_OWNING = (EmptyOp, FillOp, GenericOp, ConcatOp, ExtractSliceOp, InsertSliceOp, PadOp, func.CallOp)


def memref_of(t: Attribute, what: Operation | None = None) -> Attribute:
    """The buffer type of a tensor type (other types are unchanged)."""
    if not isinstance(t, TensorType):
        return t
    shape = list(t.get_shape())
    if any(d < 0 for d in shape):
        raise StratiError(f"cannot bufferize the dynamically shaped {t}: shapes must be static", what)
    return MemRefType(t.get_element_type(), shape)


def has_tensors(op: Operation) -> bool:
    types = [v.type for v in (*op.operands, *op.results)]
    if isinstance(op, func.FuncOp):
        types = [*op.function_type.inputs.data, *op.function_type.outputs.data]
    return any(isinstance(t, TensorType) for t in types)


def is_tensor_constant(op: Operation | None) -> bool:
    return isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType)


def dps_signature(fn: func.FuncOp) -> list[Attribute]:
    """The argument types of the bufferized function: inputs, then one buffer per result."""
    ft = fn.function_type
    for t in ft.outputs.data:
        if not isinstance(t, TensorType):
            raise StratiError(f"function @{fn.sym_name.data} returns {t}: only tensor results can be bufferized", fn)
    return [memref_of(t, fn) for t in (*ft.inputs.data, *ft.outputs.data)]


@dataclass(frozen=True)
class ConvertTensorToLoopPass(ModulePass):
    """Bufferize tensor-level functions into loop nests over memrefs (destination-passing style)."""

    name = "convert-tensor-to-loop"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = [f for f in op.walk() if isinstance(f, func.FuncOp) and has_tensors(f)]
        signatures = {f.sym_name.data: (len(f.function_type.outputs.data), dps_signature(f)) for f in functions}
        globals_ = ConstantPool(op)
        for fn in functions:
            if fn.body.blocks:
                FunctionBufferizer(fn, signatures, globals_).run()
            n_out, arg_types = signatures[fn.sym_name.data]
            convert_signature(fn, n_out, arg_types)


def convert_signature(fn: func.FuncOp, n_out: int, arg_types: list[Attribute]) -> None:
    n_in = len(arg_types) - n_out
    fn.properties["function_type"] = FunctionType.from_lists(arg_types, [])
    arg_attrs = list(fn.arg_attrs.data) if fn.arg_attrs is not None else [DictionaryAttr({})] * n_in
    res_attrs = list(fn.res_attrs.data) if fn.res_attrs is not None else [DictionaryAttr({})] * n_out
    if fn.arg_attrs is not None or fn.res_attrs is not None:
        fn.properties["arg_attrs"] = ArrayAttr([*arg_attrs, *res_attrs])
    fn.properties.pop("res_attrs", None)
    fn.attributes[OUTPUTS_ATTR] = IntegerAttr(n_out, i64)


class ConstantPool:
    """Dense tensor constants as private constant ``memref.global``s, one per distinct value."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.by_value: dict[tuple[Attribute, Attribute], str] = {}
        self.taken = {
            o.sym_name.data
            for o in module.body.block.ops
            if isinstance(getattr(o, "sym_name", None), StringAttr)
        }

    def symbol(self, value: DenseIntOrFPElementsAttr, t: MemRefType, before: Operation) -> str:
        key = (value, t)
        if key in self.by_value:
            return self.by_value[key]
        shape = "x".join(str(d) for d in t.get_shape())
        base = f"__constant_{shape}{'x' if shape else ''}{t.get_element_type()}"
        name, n = base, 0
        while name in self.taken:
            name, n = f"{base}_{n}", n + 1
        self.taken.add(name)
        self.by_value[key] = name
        g = memref.GlobalOp.get(StringAttr(name), t, value, StringAttr("private"), UnitAttr())
        # Globals go before the function that first uses them, at the module's top level.
        top = before
        while top.parent_op() is not self.module:
            parent = top.parent_op()
            assert parent is not None
            top = parent
        self.module.body.block.insert_op_before(g, top)
        return name


class FunctionBufferizer:
    def __init__(self, fn: func.FuncOp, signatures: dict[str, tuple[int, list[Attribute]]], pool: ConstantPool):
        self.fn = fn
        self.signatures = signatures
        self.pool = pool
        self.old = fn.body.block
        n_out, arg_types = signatures[fn.sym_name.data]
        self.block = Block(arg_types=arg_types)
        n_in = len(arg_types) - n_out
        self.out_args = list(self.block.args[n_in:])
        ret = self.old.last_op
        if not isinstance(ret, func.ReturnOp):
            raise StratiError(f"function @{fn.sym_name.data} does not end with func.return", fn)
        self.ret = ret
        for i, (new, old) in enumerate(zip(self.block.args, self.old.args)):
            new.name_hint = old.name_hint
        for i, out in enumerate(self.out_args):
            out.name_hint = "out" if n_out == 1 else f"out{i}"
        self.position = {op: i for i, op in enumerate(self.old.ops)}
        self.values: dict[SSAValue, SSAValue] = {}  # old scalars and old tensors' buffers
        for old, new in zip(self.old.args, self.block.args):
            self.values[old] = new
        self.hints: dict[SSAValue, SSAValue] = {}  # old tensor -> the buffer it must be computed into
        self.view_parent: dict[SSAValue, SSAValue] = {}  # a view made for a hint -> the hinted buffer
        self.allocs: list[SSAValue] = []
        self.consts: dict[int, SSAValue] = {}
        self.prologue_end: Operation | None = None
        self.insert_at: InsertPoint = InsertPoint.at_end(self.block)
        self.location: Attribute | None = None

    # -- emission helpers -------------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        if self.location is not None:
            op.location = self.location
        block, before = self.insert_at.block, self.insert_at.insert_before
        if before is None:
            block.add_op(op)
        else:
            block.insert_op_before(op, before)
        return op

    def prologue(self, op: Operation) -> Operation:
        """Insert at the top of the function (index constants, views of output arguments)."""
        if self.prologue_end is None:
            first = self.block.first_op
            if first is None:
                self.block.add_op(op)
            else:
                self.block.insert_op_before(op, first)
        else:
            self.block.insert_op_after(op, self.prologue_end)
        self.prologue_end = op
        return op

    def index(self, n: int) -> SSAValue:
        if n not in self.consts:
            c = arith.ConstantOp(IntegerAttr(n, IndexType()))
            c.result.name_hint = f"c{n}" if n >= 0 else f"cneg{-n}"
            self.prologue(c)
            self.consts[n] = c.result
        return self.consts[n]

    def alloc(self, t: MemRefType, like: SSAValue | None = None) -> SSAValue:
        op = self.emit(memref.AllocOp([], [], t))
        result = op.results[0]
        if like is not None and like.name_hint:
            result.name_hint = like.name_hint
        self.allocs.append(result)
        return result

    def loops(self, extents: Sequence[int], parallel: Sequence[bool], body: Callable[[list[SSAValue]], None]) -> ForOp | None:
        """A loop nest over ``extents`` (outermost first); ``body(ivs)`` emits the innermost body.
        Returns the outermost loop (None for no extents)."""
        saved = self.insert_at
        ivs: list[SSAValue] = []
        outer = None
        for n, par in zip(extents, parallel):
            loop = ForOp(self.index(0), self.index(n), self.index(1), parallel=par)
            self.emit(loop)
            outer = outer or loop
            ivs.append(loop.induction_var)
            self.insert_at = InsertPoint.before(loop.body.block.last_op)  # before loop.yield
        body(ivs)
        self.insert_at = saved
        return outer

    def load(self, buffer: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
        return self.emit(memref.LoadOp.get(buffer, list(indices))).results[0]

    def store(self, value: SSAValue, buffer: SSAValue, indices: Sequence[SSAValue]) -> None:
        self.emit(memref.StoreOp.get(value, buffer, list(indices)))

    def copy(self, src: SSAValue, dst: SSAValue) -> None:
        shape = list(dst.type.get_shape())
        self.loops(shape, [True] * len(shape), lambda ivs: self.store(self.load(src, ivs), dst, ivs))

    def fill(self, value: SSAValue, dst: SSAValue) -> None:
        shape = list(dst.type.get_shape())
        self.loops(shape, [True] * len(shape), lambda ivs: self.store(value, dst, ivs))

    # -- affine expressions -----------------------------------------------------------

    def affine(self, expr: AffineExpr, dims: Sequence[SSAValue], cache: dict[AffineExpr, SSAValue]) -> SSAValue:
        if expr in cache:
            return cache[expr]
        if isinstance(expr, AffineDimExpr):
            return dims[expr.position]
        if isinstance(expr, AffineConstantExpr):
            return self.index(expr.value)
        if not isinstance(expr, AffineBinaryOpExpr):
            raise StratiError(f"affine expression {expr} is not supported (symbols?)")
        kind, lhs_e, rhs_e = expr.kind, expr.lhs, expr.rhs
        if isinstance(lhs_e, AffineConstantExpr) and isinstance(rhs_e, AffineConstantExpr):
            return self.index(_fold(kind, lhs_e.value, rhs_e.value))
        lhs, rhs = self.affine(lhs_e, dims, cache), self.affine(rhs_e, dims, cache)
        if kind == AffineBinaryOpKind.Add:
            result = arith.AddiOp(lhs, rhs)
        elif kind == AffineBinaryOpKind.Mul:
            result = arith.MuliOp(lhs, rhs)
        elif nonneg(lhs_e) and isinstance(rhs_e, AffineConstantExpr) and rhs_e.value > 0:
            # The dividend is known non-negative and the divisor positive: C semantics agree with floor.
            cls = {
                AffineBinaryOpKind.Mod: arith.RemSIOp,
                AffineBinaryOpKind.FloorDiv: arith.DivSIOp,
                AffineBinaryOpKind.CeilDiv: arith.CeilDivSIOp,
            }[kind]
            result = cls(lhs, rhs)
        elif kind == AffineBinaryOpKind.Mod:
            # a mod b (b > 0) = r < 0 ? r + b : r with r = a rem b
            rem = self.emit(arith.RemSIOp(lhs, rhs)).results[0]
            plus = self.emit(arith.AddiOp(rem, rhs)).results[0]
            neg = self.emit(arith.CmpiOp(rem, self.index(0), "slt")).results[0]
            result = arith.SelectOp(neg, plus, rem)
        elif kind == AffineBinaryOpKind.FloorDiv:
            result = arith.FloorDivSIOp(lhs, rhs)
        else:
            result = arith.CeilDivSIOp(lhs, rhs)
        value = self.emit(result).results[0]
        cache[expr] = value
        return value

    def indices(self, m: AffineMap, dims: Sequence[SSAValue], cache: dict[AffineExpr, SSAValue]) -> list[SSAValue]:
        return [self.affine(e, dims, cache) for e in m.results]

    # -- buffer planning -----------------------------------------------------------------

    def top_level(self, op: Operation) -> Operation:
        found = self.old.find_ancestor_op_in_block(op)
        assert found is not None
        return found

    def users(self, value: SSAValue) -> Iterator[tuple[Operation, bool]]:
        """Top-level users of ``value``, and of reshapes of it; the flag is true for direct uses."""
        for use in value.uses:
            top = self.top_level(use.operation)
            yield top, use.operation is top
            if isinstance(use.operation, ReshapeOp):
                for user, _ in self.users(use.operation.result):
                    yield user, False

    def reusable(self, init: SSAValue, consumer: Operation, operand_index: int) -> bool:
        """Whether ``consumer`` may write into ``init``'s buffer: it owns one, and nothing reads
        it (or a view of it) from ``consumer`` on except that one operand."""
        owner = init.owner
        if not isinstance(owner, _OWNING) or owner.parent_block() is not self.old:
            return False
        here = self.position[consumer]
        for user, direct in self.users(init):
            at = self.position[user]
            if at < here:
                continue
            if at > here or not direct:
                return False
        # Exactly one use at the consumer itself, and it is the destination operand.
        uses_here = [u for u in init.uses if self.top_level(u.operation) is consumer]
        return len(uses_here) == 1 and uses_here[0].operation is consumer and uses_here[0].index == operand_index

    def plan(self) -> None:
        """Decide, back to front, which values are computed straight into an output buffer."""
        for i, v in enumerate(self.ret.arguments):
            owner = v.owner
            if isinstance(owner, Operation) and not is_tensor_constant(owner) and v not in self.hints:
                self.hints[v] = self.out_args[i]
        for op in reversed(list(self.old.ops)):
            for k, result in enumerate(op.results):
                target = self.hints.get(result)
                if target is None:
                    continue
                dest: SSAValue | None = None
                index = -1
                if isinstance(op, GenericOp):
                    dest = op.outputs[k]
                    index = len(op.inputs) + k
                elif isinstance(op, FillOp):
                    dest, index = op.init, 1
                elif isinstance(op, InsertSliceOp):
                    dest, index = op.dest, 1
                elif isinstance(op, ReshapeOp):
                    src = op.input
                    owner = src.owner
                    if isinstance(owner, Operation) and not is_tensor_constant(owner) and src not in self.hints:
                        view = self.prologue(ViewOp(target, memref_of(src.type)))
                        view.results[0].name_hint = target.name_hint
                        self.view_parent[view.results[0]] = target
                        self.hints[src] = view.results[0]
                    continue
                if dest is not None and dest not in self.hints and self.reusable(dest, op, index):
                    self.hints[dest] = target

    def buffer(self, value: SSAValue) -> SSAValue:
        """The buffer holding an old tensor value, materialising tensor.empty/fill on demand."""
        if value in self.values:
            return self.values[value]
        owner = value.owner
        saved = self.location
        if isinstance(owner, Operation):
            self.location = owner.location
        if isinstance(owner, EmptyOp):
            buf = self.hints.get(value)
            if buf is None:
                buf = self.alloc(memref_of(value.type), value)
        elif isinstance(owner, FillOp):
            buf = self.destination(owner, value, owner.init, 1, contents_needed=False)
            self.fill(self.values[owner.value], buf)
        else:
            raise StratiError(f"no buffer for a value of {owner}")  # pragma: no cover - a bug in us
        self.location = saved
        self.values[value] = buf
        return buf

    def destination(self, op: Operation, result: SSAValue, init: SSAValue, index: int, contents_needed: bool) -> SSAValue:
        """The buffer ``op`` writes ``result`` into, initialised from ``init`` when its contents matter."""
        target = self.hints.get(result)
        if target is not None and self.hints.get(init) is target:
            self.buffer(init)  # computed in place (a fill writes its value into it)
            return target
        if target is None and self.reusable(init, op, index):
            if isinstance(init.owner, EmptyOp) and init not in self.values:
                self.values[init] = self.alloc(memref_of(init.type), result)  # named after what it holds
            return self.buffer(init)
        if target is None:
            target = self.alloc(memref_of(result.type), result)
        if contents_needed:
            self.initialise(target, init)
        return target

    def initialise(self, target: SSAValue, init: SSAValue) -> None:
        owner = init.owner
        if isinstance(owner, EmptyOp):
            return
        if isinstance(owner, FillOp):
            self.fill(self.values[owner.value], target)
            return
        self.copy(self.buffer(init), target)

    # -- the conversion ----------------------------------------------------------------------

    def run(self) -> None:
        self.plan()
        for op in list(self.old.ops):
            self.location = op.location
            if op is self.ret:
                self.convert_return(op)
            elif is_tensor_constant(op):
                self.convert_constant(op)
            elif isinstance(op, func.CallOp) and op.callee.root_reference.data in self.signatures:
                self.convert_call(op)
            elif (rule := registry.get_op_attr(op.name, "bufferize")) is not None:
                rule(self, op)
            elif has_tensors(op):
                raise StratiError("cannot be bufferized: it has no 'bufferize' attribute", op)
            else:
                self.emit(op.clone(value_mapper=self.values))
        self.place_deallocs()
        old = self.fn.body.detach_block(self.old)
        self.fn.body.add_block(self.block)
        old.erase(safe_erase=False)

    def result_buffer(self, result: SSAValue) -> SSAValue:
        """A fresh buffer (or the output it is returned through) for an op with no destination operand."""
        target = self.hints.get(result)
        if target is None:
            target = self.alloc(memref_of(result.type), result)
        self.values[result] = target
        return target

    def convert_return(self, op: func.ReturnOp) -> None:
        for v, out in zip(op.arguments, self.out_args):
            buf = self.buffer(v)
            if buf is not out:
                self.copy(buf, out)
        self.emit(func.ReturnOp())

    def convert_extract(self, op: ExtractOp) -> None:
        indices = [self.values[i] for i in op.indices]
        self.values[op.result] = self.load(self.buffer(op.tensor), indices)

    def convert_constant(self, op: arith.ConstantOp) -> None:
        if not op.result.uses:
            return  # left over by a lowering that used a re-laid-out copy: no global for it
        t = memref_of(op.result.type, op)
        assert isinstance(t, MemRefType) and isinstance(op.value, DenseIntOrFPElementsAttr)
        name = self.pool.symbol(op.value, t, self.fn)
        g = self.emit(memref.GetGlobalOp(name, t))
        g.results[0].name_hint = op.result.name_hint
        self.values[op.result] = g.results[0]

    def convert_reshape(self, op: ReshapeOp) -> None:
        src = self.buffer(op.input)
        target = self.hints.get(op.result)
        if target is not None and self.view_parent.get(src) is target:
            self.values[op.result] = target
            return
        view = self.emit(ViewOp(src, memref_of(op.result.type)))
        view.results[0].name_hint = op.result.name_hint
        self.values[op.result] = view.results[0]
        if target is not None:  # returned, but the source could not be computed into the output
            self.copy(view.results[0], target)
            self.values[op.result] = target

    def convert_concat(self, op: ConcatOp) -> None:
        dim = op.param("dim")
        rank = len(op.result.type.get_shape())
        dim = dim + rank if dim < 0 else dim
        srcs = [self.buffer(v) for v in op.inputs]
        out = self.result_buffer(op.result)
        offset = 0
        for src in srcs:
            shape = list(src.type.get_shape())
            base = offset

            def body(ivs: list[SSAValue], src: SSAValue = src, base: int = base) -> None:
                value = self.load(src, ivs)
                at = list(ivs)
                if base:
                    at[dim] = self.emit(arith.AddiOp(ivs[dim], self.index(base))).results[0]
                self.store(value, out, at)

            self.loops(shape, [True] * len(shape), body)
            offset += shape[dim]

    def strided(self, ivs: Sequence[SSAValue], offsets: Sequence[int], strides: Sequence[int]) -> list[SSAValue]:
        cache: dict[AffineExpr, SSAValue] = {}
        exprs = [AffineDimExpr(i) * st + off for i, (off, st) in enumerate(zip(offsets, strides))]
        return [self.affine(e, ivs, cache) for e in exprs]

    def convert_extract_slice(self, op: ExtractSliceOp) -> None:
        src = self.buffer(op.input)
        out = self.result_buffer(op.result)
        offsets, strides = op.param("offsets"), op.param("strides")
        shape = list(op.result.type.get_shape())
        self.loops(shape, [True] * len(shape), lambda ivs: self.store(self.load(src, self.strided(ivs, offsets, strides)), out, ivs))

    def convert_insert_slice(self, op: InsertSliceOp) -> None:
        src = self.buffer(op.source)
        out = self.destination(op, op.result, op.dest, 1, contents_needed=True)
        self.values[op.result] = out
        offsets, strides = op.param("offsets"), op.param("strides")
        shape = list(op.source.type.get_shape())
        self.loops(shape, [True] * len(shape), lambda ivs: self.store(self.load(src, ivs), out, self.strided(ivs, offsets, strides)))

    def convert_pad(self, op: PadOp) -> None:
        src = self.buffer(op.input)
        out = self.result_buffer(op.result)
        self.fill(self.values[op.value], out)
        low = op.param("low")
        shape = list(op.input.type.get_shape())
        self.loops(shape, [True] * len(shape), lambda ivs: self.store(self.load(src, ivs), out, self.strided(ivs, low, [1] * len(low))))

    def convert_call(self, op: func.CallOp) -> None:
        callee = op.callee.root_reference.data
        args = [self.buffer(v) if isinstance(v.type, TensorType) else self.values[v] for v in op.arguments]
        outs = [self.result_buffer(r) for r in op.results]
        self.emit(func.CallOp(callee, [*args, *outs], []))

    def convert_generic(self, op: GenericOp) -> None:
        n_in = len(op.inputs)
        maps, kinds = op.maps, op.kinds
        extents = op.loop_ranges()
        body = op.body.block
        out_args = body.args[n_in:]

        # Buffers first: inputs, captured tensors, then outputs (initialised where read).
        ins: list[SSAValue] = [self.buffer(v) if isinstance(v.type, TensorType) else self.values[v] for v in op.inputs]
        for inner in body.walk():
            if isinstance(inner, ExtractOp) and inner.tensor.owner is not None:
                self.buffer(inner.tensor)
        outs: list[SSAValue] = []
        for k, (init, result) in enumerate(zip(op.outputs, op.res)):
            m = maps[n_in + k]
            needed = bool(out_args[k].uses) or not covers(m, init.type) or 0 in extents
            outs.append(self.destination(op, result, init, n_in + k, contents_needed=needed))
        for result, buf in zip(op.res, outs):
            self.values[result] = buf

        # Schedule: loops before the first reduction are parallel when they index every output.
        parallel: list[bool] = []
        outer = True
        for d, kind in enumerate(kinds):
            outer = outer and kind == PARALLEL
            in_every_output = all(AffineDimExpr(d) in m.results for m in maps[n_in:])
            parallel.append(outer and in_every_output)

        def emit_body(ivs: list[SSAValue]) -> None:
            cache: dict[AffineExpr, SSAValue] = {}
            mapper = self.values  # the body's values join it: they are distinct from the function's
            for k, (arg, value, m) in enumerate(zip(body.args[:n_in], op.inputs, maps)):
                if not arg.uses:
                    continue
                mapper[arg] = self.load(ins[k], self.indices(m, ivs, cache)) if isinstance(value.type, TensorType) else ins[k]
            out_indices = [self.indices(m, ivs, cache) for m in maps[n_in:]]
            for arg, buf, at in zip(out_args, outs, out_indices):
                if arg.uses:
                    mapper[arg] = self.load(buf, at)
            for inner in body.ops:
                if isinstance(inner, YieldOp):
                    for value, buf, at in zip(inner.values, outs, out_indices):
                        self.store(mapper.get(value, value), buf, at)
                elif isinstance(inner, IndexOp):
                    mapper[inner.result] = ivs[inner.dim.value.data]
                elif isinstance(inner, ExtractOp):
                    indices = [mapper.get(i, i) for i in inner.indices]
                    mapper[inner.result] = self.load(self.values[inner.tensor], indices)
                else:
                    self.emit(inner.clone(value_mapper=mapper))

        outer = self.loops(extents, parallel, emit_body)
        if outer is not None:  # a schedule asked for at the tensor level: on the nest's outermost loop
            outer.attributes.update({k: v for k, v in op.attributes.items() if k.startswith("schedule.")})

    # -- region ops ------------------------------------------------------------------------------

    def outline(self, op: Operation, block: Block, suffix: str) -> tuple[str, list[SSAValue]]:
        """``block`` (a region of ``op``, ending in a yield) as a private function of the module,
        bufferized like any: its arguments, then the tensors it reads from above (constants are
        copied in); its name and those outer values.  The rule of a region op calls it."""
        inside: set[SSAValue] = set(block.args)
        for inner in block.walk():
            inside.update(inner.results)
            for region in inner.regions:
                for b in region.blocks:
                    inside.update(b.args)
        captures: list[SSAValue] = []
        for inner in block.walk():
            for v in inner.operands:
                if v not in inside and v not in captures:
                    captures.append(v)
        constants = [v for v in captures if isinstance(v.owner, arith.ConstantOp)]
        passed = [v for v in captures if v not in constants]
        for v in passed:
            if not isinstance(v.type, TensorType):
                raise StratiError(f"a region reads the value {v.name_hint or ''} of type {v.type} from above: only tensors can be passed", op)
        n = len(block.args)
        new_block = Block(arg_types=[*(a.type for a in block.args), *(v.type for v in passed)])
        mapper: dict[SSAValue, SSAValue] = dict(zip(block.args, new_block.args[:n]))
        mapper.update(zip(passed, new_block.args[n:]))
        for old, new in zip([*block.args, *passed], new_block.args):
            new.name_hint = old.name_hint
        for c in constants:
            clone = c.owner.clone()  # type: ignore[union-attr]
            new_block.add_op(clone)
            mapper[c] = clone.results[0]
        result_types = []
        for inner in block.ops:
            if inner is block.last_op:
                ret = func.ReturnOp(*[mapper.get(v, v) for v in inner.operands])
                ret.location = inner.location
                new_block.add_op(ret)
                result_types = [v.type for v in inner.operands]
            else:
                new_block.add_op(inner.clone(value_mapper=mapper))
        base = f"{self.fn.sym_name.data}_{suffix}"
        name, k = base, 0
        while name in self.pool.taken:
            name, k = f"{base}_{k}", k + 1
        self.pool.taken.add(name)
        fn = func.FuncOp(name, FunctionType.from_lists([a.type for a in new_block.args], result_types), Region(new_block), visibility="private")
        fn.location = op.location
        self.pool.module.body.block.insert_op_before(fn, self.fn)
        self.signatures[name] = (len(result_types), dps_signature(fn))
        FunctionBufferizer(fn, self.signatures, self.pool).run()
        convert_signature(fn, *self.signatures[name])
        return name, passed

    # -- deallocation --------------------------------------------------------------------------

    def place_deallocs(self) -> None:
        position = {op: i for i, op in enumerate(self.block.ops)}

        def last_user(value: SSAValue) -> Operation:
            owner = value.owner
            assert isinstance(owner, Operation)
            last = owner
            for use in value.uses:
                top = self.block.find_ancestor_op_in_block(use.operation)
                assert top is not None
                if isinstance(use.operation, ViewOp):
                    top = max(top, last_user(use.operation.results[0]), key=position.__getitem__)
                last = max(last, top, key=position.__getitem__)
            return last

        for buf in self.allocs:
            after = last_user(buf)
            dealloc = memref.DeallocOp.get(buf)
            dealloc.location = after.location
            self.block.insert_op_after(dealloc, after)


def covers(m: AffineMap, t: Attribute) -> bool:
    """Whether an output map writes every element of the output."""
    assert isinstance(t, TensorType)
    return all(
        isinstance(e, AffineDimExpr) or (isinstance(e, AffineConstantExpr) and e.value == 0 and n == 1)
        for e, n in zip(m.results, t.get_shape())
    )


def nonneg(e: AffineExpr) -> bool:
    """Provably non-negative for non-negative loop indices."""
    if isinstance(e, AffineDimExpr):
        return True
    if isinstance(e, AffineConstantExpr):
        return e.value >= 0
    if isinstance(e, AffineBinaryOpExpr):
        if e.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul):
            return nonneg(e.lhs) and nonneg(e.rhs)
        if e.kind == AffineBinaryOpKind.Mod:
            return True  # the result of mod by a positive constant is in [0, b)
        return nonneg(e.lhs) and nonneg(e.rhs)
    return False


def _fold(kind: AffineBinaryOpKind, a: int, b: int) -> int:
    match kind:
        case AffineBinaryOpKind.Add:
            return a + b
        case AffineBinaryOpKind.Mul:
            return a * b
        case AffineBinaryOpKind.Mod:
            return a % b
        case AffineBinaryOpKind.FloorDiv:
            return a // b
        case AffineBinaryOpKind.CeilDiv:
            return -(-a // b)
    raise AssertionError(kind)


def _materialised_when_needed(bufferizer: FunctionBufferizer, op: Operation) -> None:
    """``tensor.empty`` and ``tensor.fill`` allocate nothing until some op needs their buffer."""


for _name, _rule in (
    ("tensor.empty", _materialised_when_needed),
    ("tensor.fill", _materialised_when_needed),
    ("tensor.generic", FunctionBufferizer.convert_generic),
    ("tensor.reshape", FunctionBufferizer.convert_reshape),
    ("tensor.concat", FunctionBufferizer.convert_concat),
    ("tensor.extract_slice", FunctionBufferizer.convert_extract_slice),
    ("tensor.insert_slice", FunctionBufferizer.convert_insert_slice),
    ("tensor.pad", FunctionBufferizer.convert_pad),
    ("tensor.extract", FunctionBufferizer.convert_extract),
):
    registry.register_op_attr(_name, "bufferize", _rule)
