"""Level 3 (loop nests on memref buffers) to LLVM IR, emitted with ``llvmlite.ir`` directly.

What is translated: ``func`` (func.func, func.return, func.call), ``arith`` and
``math`` on scalars and 1-D vectors, ``memref`` (alloc, alloca, dealloc, load,
store, copy, global, get_global, collapse/expand_shape), ``loop.for``,
``loop.view``, ``loop.arena_view`` (a ``getelementptr inbounds i8`` at its byte
offset), ``vector`` (load, store, broadcast, fma, reduction), and every op that registers
an ``emit`` attribute (the targets' own ops, level 4).

Conventions of the generated code:

* A buffer (a static, row-major ``memref``) is a bare pointer to its first
  element; arguments that are buffers are ``noalias``.  Element ``(i, j, k)`` of
  ``memref<AxBxCxT>`` is ``getelementptr inbounds T, ptr %m, i64 ((i*B)+j)*C+k``:
  GEP addressing, never ``ptrtoint`` arithmetic, so that LLVM can vectorize.
  ``index`` is ``i64``; ``i1`` elements are stored as one byte (numpy's bool).
* ``loop.for`` is a canonical loop (header with a phi, ``icmp slt``); a loop
  marked ``parallel`` still runs sequentially here.  ``vector_width`` and
  ``unroll`` become ``llvm.loop`` hints for LLVM's vectorizer and unroller.
* Floating point: ``fadd``/``fsub``/``fmul``/``fneg`` carry ``reassoc contract
  afn``, ``fdiv`` ``contract`` (not ``arcp``: ``x * (1/s)`` moves a quotient near a
  rounding tie by one step, and quantisation rounds such quotients), and never ``nnan``/``ninf``/``nsz`` (unless the
  op asks for them with its own ``fastmath`` flags), so NaN and infinities keep
  their meaning.  ``arith.maximumf``/``minimumf`` propagate NaN (``llvm.maximum``
  /``llvm.minimum``); ``maxnumf``/``minnumf`` ignore it (``llvm.maxnum``).
  Functions LLVM has intrinsics for use them (``llvm.exp``, ``llvm.sqrt``, ...);
  the rest call libm (``tanhf``, ``erff``, ...), declared ``memory(none)``;
  ``rsqrt`` is ``1/sqrt``.  Given a :class:`VectorLibrary` (the JIT passes glibc's
  libmvec when the process has it), the functions it has are libm calls whose
  declarations name their vector variants, so that loops calling ``exp``,
  ``tanh`` or ``erf`` vectorize too; on ``vector<N x T>`` operands (level 4) they
  call the variant directly.  Each function has one variant, the widest, for every call
  (a scalar call is that variant on a splat): equal inputs give equal results wherever
  they sit in a tensor.
* ``memref.alloc`` of a small buffer is a stack slot in the entry block (its
  ``dealloc`` vanishes); a larger one is ``aligned_alloc(64, ...)`` and its
  ``dealloc`` is ``free``.  ``memref.global`` is an LLVM global (constant when
  the memref global is); a global larger than ``embed_limit`` bytes is left
  external, and its bytes are handed to the JIT (:attr:`Translation.external_data`),
  so weights never go through LLVM's text parser.
* Any other op is emitted by its registered ``emit`` attribute
  (:mod:`strati.registry`), ``emit(emitter, op)``, which builds with the
  emitter's ``b`` (an ``llvmlite.ir.IRBuilder``), reads operands with ``v(value)``
  and returns the result values (or None).  A target's ops are emitted this way
  (the CPU's tasks, an accelerator's calls into its runtime); ``emit`` takes
  precedence over the built-in rules, so a plug-in may also replace one.
* Every public function ``@f`` with a body gets a wrapper ``void @f_entry(ptr
  %args)``: ``args`` is an array of pointers, one per argument (the buffer for a
  memref, a pointer to the value for a scalar) and one per result (where the
  result is stored), so that the runtime calls every signature with one ctypes
  prototype; in a module with run-time checks, one more: the call's check record
  (:mod:`strati.codegen.checks`), a hidden last argument of every function with a body.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from strati import registry
from strati.dense import numpy_from_dense, to_dtype
from strati.diagnostics import StratiError
from strati.dialects.loop.ops import VIEW_OPS
from strati.functions import argument_names

I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)

FLOAT8 = {
    # type: (mantissa bits, exponent bias, largest finite encoding, encoding of an overflow, of NaN, fnuz)
    Float8E4M3FNType: (3, 7, 0x7E, 0x7F, 0x7F, False),
    Float8E4M3FNUZType: (3, 8, 0x7F, 0x80, 0x80, True),
    Float8E5M2Type: (2, 15, 0x7B, 0x7C, 0x7E, False),
    Float8E5M2FNUZType: (2, 16, 0x7F, 0x80, 0x80, True),
}
"""The float8 formats: a value lives in a float32 register, memory holds its 8-bit encoding,
decoded through a 256-entry table and encoded by bit arithmetic (round to nearest even,
overflow to infinity or NaN as ml_dtypes; saturation is a clamp before, at the graph level)."""
PTR = ir.PointerType()
VOID = ir.VoidType()

# Fast-math flags the generated code may use: never nnan/ninf/nsz (NaN, inf and -0 keep their meaning).
ADD_FLAGS = ("reassoc", "contract", "afn")
DIV_FLAGS = ("contract",)
FLAG_ORDER = ("fast", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")

STACK_BUFFER_LIMIT = 16 * 1024
"""A ``memref.alloc`` up to this many bytes becomes a stack slot."""
STACK_FUNCTION_LIMIT = 128 * 1024
"""... as long as a function's stack slots stay below this in total."""
DEFAULT_ALIGNMENT = 64
ENTRY_SUFFIX = "_entry"
TABLE_ENTRY_ARGUMENTS = 64
"""A public function of more arguments than this gets an entry wrapper that holds its body, each
argument loaded from the wrapper's table just before the first top-level op that uses it, instead
of a call of all of them (the function stays, internal, for calls within the module, and LLVM
drops it when there are none).  LLVM's instruction selection of one call of n arguments, or of a
block of n loads whose values live across calls, takes time quadratic in n (a call of 4,000
pointers: 2.45 s, of 2,000: 0.55 s)."""

SUPPORTED = "func, arith, math, memref, loop and vector ops, and ops that register an 'emit'"


class CodegenError(StratiError):
    """The input cannot be translated to LLVM IR (an unsupported op or type); names the op."""


@dataclass
class FunctionInfo:
    """What the runtime needs to call one function through its entry wrapper."""

    name: str
    entry_symbol: str | None
    arg_names: list[str]
    arg_types: list[Attribute]
    result_types: list[Attribute]
    num_outputs: int
    """The last ``num_outputs`` arguments are outputs (the function attribute ``strati.outputs``)."""
    check_record: bool = False
    """Whether the entry takes one more pointer, after the results: the call's check record
    (:mod:`strati.codegen.checks`), which every function of a module with run-time checks passes on."""


@dataclass(frozen=True)
class VectorLibrary:
    """Vector versions of libm functions (e.g. glibc's libmvec): ``tanhf`` -> ``((8, "_ZGVdN8v_tanhf"), ...)``.

    With one, the math functions it has are emitted as libm calls whose declaration names
    their vector variants (the ``vector-function-abi-variant`` attribute), so LLVM's loop
    vectorizer can call ``_ZGVdN8v_tanhf`` on 8 lanes; without one, ``exp``/``log``/...
    are LLVM intrinsics and ``tanh``/``erf``/... scalar libm calls."""

    name: str
    variants: dict[str, tuple[tuple[int, str], ...]]


@dataclass
class Translation:
    module: ir.Module
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    external_data: dict[str, np.ndarray] = field(default_factory=dict)
    """Symbol -> bytes (uint8, 64-byte aligned) of the globals left external (and ``profile-kernels``'
    counters, :mod:`strati.dialects.loop.profile`)."""


def translate_module(
    module: ModuleOp,
    *,
    embed_limit: int | None = None,
    symbol_prefix: str = "",
    vector_library: VectorLibrary | None = None,
) -> Translation:
    """Translate a level-3 module; ``embed_limit``: globals larger than this many bytes stay external
    (None: embed all); ``symbol_prefix`` names the external ones uniquely (the JIT binds them by name);
    ``vector_library``: vector variants of libm functions the vectorizer may call."""
    return ModuleTranslator(module, embed_limit, symbol_prefix, vector_library).translate()


def module_to_llvm_ir(module: ModuleOp) -> str:
    """The LLVM IR text of a level-3 module, every global embedded."""
    return str(translate_module(module).module)


# --- types ------------------------------------------------------------------------------------


def scalar_type(t: Attribute, op: Operation | None = None) -> ir.Type:
    """The LLVM type of a scalar or 1-D vector type (index is i64)."""
    match t:
        case Float32Type():
            return ir.FloatType()
        case Float64Type():
            return ir.DoubleType()
        case Float16Type():
            return ir.HalfType()
        case BFloat16Type():  # a float32 value that bf16 represents; memory holds its top 16 bits
            return ir.FloatType()
        case Float8E4M3FNType() | Float8E4M3FNUZType() | Float8E5M2Type() | Float8E5M2FNUZType():
            return ir.FloatType()  # likewise; memory holds its 8-bit encoding
        case IndexType():
            return I64
        case IntegerType():
            return ir.IntType(t.width.data)
        case VectorType():
            shape = t.get_shape()
            if len(shape) != 1 or shape[0] < 1 or t.get_num_scalable_dims():
                raise CodegenError(f"only fixed-size 1-D vectors are supported, not {t}", op)
            return ir.VectorType(scalar_type(t.get_element_type(), op), shape[0])
    raise CodegenError(f"type {t} is not supported by the LLVM code generator", op)


def value_type(t: Attribute, op: Operation | None = None) -> ir.Type:
    """The LLVM type of an SSA value: a pointer for a memref."""
    if isinstance(t, MemRefType):
        memref_shape(t, op, flat=True)
        return PTR
    return scalar_type(t, op)


def memref_shape(t: MemRefType, op: Operation | None = None, flat: bool = False) -> tuple[int, ...]:
    """The static shape of a row-major memref (with ``flat``, also ``(-1,)``: a 1-D buffer of
    any size, addressed by its index alone, as ``merge-kernels`` passes them), or a CodegenError."""
    shape = tuple(t.get_shape())
    if any(d < 0 for d in shape) and not (flat and len(shape) == 1):
        raise CodegenError(f"{t} has a dynamic shape; the LLVM code generator needs static shapes", op)
    if not isinstance(t.layout, NoneAttr):
        raise CodegenError(f"{t} has a layout; the LLVM code generator supports row-major memrefs only", op)
    storage_type(t.get_element_type(), op)
    return shape


def storage_type(t: Attribute, op: Operation | None = None) -> ir.Type:
    """How an element lies in memory: i1 as a byte, the rest as themselves."""
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return I8
        if width not in (8, 16, 32, 64):
            raise CodegenError(f"memref elements of type {t} are not supported (i1, i8, i16, i32, i64)", op)
    elif isinstance(t, BFloat16Type):
        return ir.IntType(16)
    elif type(t) in FLOAT8:
        return I8
    elif not isinstance(t, (Float16Type, Float32Type, Float64Type, IndexType)):
        raise CodegenError(f"memref elements of type {t} are not supported", op)
    return scalar_type(t, op)


def element_size(t: Attribute) -> int:
    if isinstance(t, IndexType):
        return 8
    if isinstance(t, IntegerType):
        return max(1, t.width.data // 8)
    if type(t) in FLOAT8:
        return 1
    return {Float16Type: 2, BFloat16Type: 2, Float32Type: 4, Float64Type: 8}[type(t)]


def mangle(t: ir.Type) -> str:
    """The suffix of an overloaded intrinsic's name (``f32``, ``v8f32``, ``i64``)."""
    if isinstance(t, ir.VectorType):
        return f"v{t.count}{mangle(t.element)}"
    if isinstance(t, ir.FloatType):
        return "f32"
    if isinstance(t, ir.DoubleType):
        return "f64"
    if isinstance(t, ir.HalfType):
        return "f16"
    if isinstance(t, ir.IntType):
        return f"i{t.width}"
    if isinstance(t, ir.PointerType):
        return "p0"
    raise TypeError(f"cannot mangle {t}")


def element_of_type(t: Attribute) -> Attribute:
    """The element type of an xDSL vector type, else the type itself."""
    return t.get_element_type() if isinstance(t, VectorType) else t


def element_of(t: ir.Type) -> ir.Type:
    return t.element if isinstance(t, ir.VectorType) else t


def is_float_type(t: ir.Type) -> bool:
    return isinstance(element_of(t), (ir.FloatType, ir.DoubleType, ir.HalfType))


def int_constant(t: ir.IntType, value: int) -> ir.Constant:
    """An integer constant in LLVM's range (wrapped to the width; i1 as a bool)."""
    if t.width == 1:
        return ir.Constant(t, bool(value & 1))
    value &= (1 << t.width) - 1
    if value >= 1 << (t.width - 1):
        value -= 1 << t.width
    return ir.Constant(t, value)


def llvm_name(hint: str | None) -> str:
    """An SSA name hint as an LLVM value name: at most 64 characters (LLVM cuts local names at
    1,024, so that two long names could become one); llvmlite makes repeated names unique."""
    return (hint or "")[:64]


def splat(t: ir.Type, scalar: ir.Constant) -> ir.Constant:
    if isinstance(t, ir.VectorType):
        return ir.Constant(t, [scalar] * t.count)
    return scalar


def float_constant(t: ir.Type, value: float) -> ir.Constant:
    return splat(t, ir.Constant(element_of(t), value))


# --- the module -------------------------------------------------------------------------------


class ModuleTranslator:
    def __init__(self, module: ModuleOp, embed_limit: int | None, symbol_prefix: str, vector_library: VectorLibrary | None):
        self.source = module
        self.vector_library = vector_library
        self.kept_functions: list[ir.Function] = []
        self.embed_limit = embed_limit
        self.symbol_prefix = symbol_prefix
        self.module = ir.Module(name="strati")
        try:
            import llvmlite.binding as llvm

            self.module.triple = llvm.get_process_triple()
        except Exception:  # noqa: BLE001 - the triple is cosmetic here; the JIT sets its own
            pass
        self.translation = Translation(self.module)
        self.functions: dict[str, ir.Function] = {}
        self.globals: dict[str, tuple[ir.GlobalVariable, MemRefType]] = {}
        self.counters: dict[str, int] = {}
        # A module with run-time checks passes each call's check record to every function (a hidden last argument).
        self.checked = any(o.name == "cf.assert" for o in module.walk())

    def translate(self) -> Translation:
        from xdsl.dialects.memref import GlobalOp

        funcs: list[func.FuncOp] = []
        for op in self.source.ops:
            if isinstance(op, GlobalOp):
                self.emit_global(op)
            elif isinstance(op, func.FuncOp):
                self.declare_function(op)
                funcs.append(op)
            else:
                raise CodegenError(f"cannot be translated to LLVM IR at the top level of a module ({SUPPORTED})", op)
        for op in funcs:
            if op.body.blocks:
                FunctionEmitter(self, op, self.functions[op.sym_name.data]).emit()
        for op in funcs:
            public = op.sym_visibility is None or op.sym_visibility.data == "public"
            if op.body.blocks and public:
                self.emit_entry(op)
        if self.kept_functions:
            # Keep the vector variants declared until the vectorizer has had its chance to call them,
            # and the scalar functions naming them whole: a use that is not a call keeps dead-argument
            # elimination from dropping a constant argument (lrn's exponent of powf), which would
            # leave a signature the variant's name no longer describes.
            t = ir.ArrayType(PTR, len(self.kept_functions))
            used = ir.GlobalVariable(self.module, t, "llvm.compiler.used")
            used.linkage = "appending"
            used.section = "llvm.metadata"
            used.initializer = ir.Constant(t, [ir.FormattedConstant(PTR, f.get_reference()) for f in self.kept_functions])
        return self.translation

    # globals

    def emit_global(self, op) -> None:
        name = op.sym_name.data
        t = op.type
        shape = memref_shape(t, op)
        size = pymath.prod(shape) * element_size(t.get_element_type())
        if isinstance(op.initial_value, DenseResourceAttr):  # elided (strati.resources)
            raise CodegenError(f"the initial value of @{name} is elided: the module cannot be compiled", op)
        if isinstance(op.initial_value, DenseIntOrFPElementsAttr):
            try:
                values = numpy_from_dense(op.initial_value)
            except (TypeError, ValueError) as err:
                raise CodegenError(f"cannot read the initial value of @{name}: {err}", op) from None
            data = np.ascontiguousarray(values).astype(values.dtype.newbyteorder("<"), copy=False).reshape(-1).view(np.uint8)
            if data.size != size:
                raise CodegenError(f"the initial value of @{name} has {data.size} bytes, its type {t} needs {size}", op)
        else:
            data = None  # uninitialized: zeros
        constant = op.constant is not None
        align = op.alignment.value.data if op.alignment is not None else DEFAULT_ALIGNMENT
        array_type = ir.ArrayType(I8, size)
        if self.embed_limit is not None and size > self.embed_limit:
            symbol = self.symbol_prefix + name
            g = ir.GlobalVariable(self.module, array_type, symbol)
            g.linkage = "external"
            buffer = aligned_bytes(size, max(align, DEFAULT_ALIGNMENT))
            if data is not None:
                buffer[:] = data
            self.translation.external_data[symbol] = buffer
        else:
            g = ir.GlobalVariable(self.module, array_type, name)
            private = op.sym_visibility is not None and op.sym_visibility.data == "private"
            g.linkage = "internal" if private else ""
            g.initializer = ir.Constant(array_type, bytearray(data.tobytes()) if data is not None else None)
        g.global_constant = constant
        g.type = PTR  # references print as 'ptr' (llvmlite would type them [n x i8]*)
        g.align = align
        self.globals[name] = (g, t)

    # functions

    def declare_function(self, op: func.FuncOp) -> None:
        name = op.sym_name.data
        inputs, outputs = op.function_type.inputs.data, op.function_type.outputs.data
        private = op.sym_visibility is not None and op.sym_visibility.data == "private"
        for t in inputs:  # the flat buffers of any size of merge-kernels: between functions of the module only
            if isinstance(t, MemRefType) and not private:
                memref_shape(t, op)
        arg_types = [value_type(t, op) for t in inputs]
        if len(outputs) > 1 or any(isinstance(t, MemRefType) for t in outputs):
            raise CodegenError(
                f"@{name} returns {', '.join(map(str, outputs))}: the LLVM code generator takes functions in "
                "destination-passing style (outputs as memref arguments) that return at most one scalar",
                op,
            )
        ret = scalar_type(outputs[0], op) if outputs else VOID
        record = [PTR] if self.checked and op.body.blocks else []
        fn = ir.Function(self.module, ir.FunctionType(ret, arg_types + record), name)
        if private and op.body.blocks:
            fn.linkage = "internal"
        if op.body.blocks:
            fn.attributes.add("nounwind")
            if "strati.kernel" in op.attributes:  # outline-kernels: each kernel optimised once, apart
                fn.attributes.add("noinline")
            arg_attrs = op.arg_attrs.data if op.arg_attrs is not None else [None] * len(inputs)
            for arg, t, attrs in zip(fn.args, inputs, arg_attrs):
                if isinstance(t, MemRefType) and (attrs is None or "strati.may_alias" not in attrs.data):
                    arg.add_attribute("noalias")
        self.functions[name] = fn
        num_outputs = 0
        if (attr := op.attributes.get("strati.outputs")) is not None:
            if not isinstance(attr, IntegerAttr) or not 0 <= attr.value.data <= len(inputs):
                raise CodegenError(f"'strati.outputs' must be an integer from 0 to {len(inputs)}, got {attr}", op)
            num_outputs = attr.value.data
            bad = [t for t in inputs[len(inputs) - num_outputs :] if not isinstance(t, MemRefType)]
            if bad:
                raise CodegenError(f"the last {num_outputs} arguments are outputs and must be memrefs, not {bad[0]}", op)
        names = argument_names(op) if op.body.blocks else [f"arg{i}" for i in range(len(inputs))]
        self.translation.functions[name] = FunctionInfo(name, None, names, list(inputs), list(outputs), num_outputs, bool(record))

    def emit_entry(self, op: func.FuncOp) -> None:
        name = op.sym_name.data
        info = self.translation.functions[name]
        symbol = name + ENTRY_SUFFIX
        while symbol in self.module.globals:
            symbol += "_"
        target = self.functions[name]
        wrapper = ir.Function(self.module, ir.FunctionType(VOID, [PTR]), symbol)
        wrapper.attributes.add("nounwind")
        wrapper.args[0].name = "args"
        info.entry_symbol = symbol
        if len(info.arg_types) > TABLE_ENTRY_ARGUMENTS:
            target.linkage = "internal"
            TableEntryEmitter(self, op, wrapper, info).emit()
            return
        b = ir.IRBuilder(wrapper.append_basic_block("entry"))
        args = []
        for i, (t, lt) in enumerate(zip(info.arg_types, target.function_type.args)):
            slot = b.gep(wrapper.args[0], [ir.Constant(I64, i)], inbounds=True, source_etype=PTR)
            p = b.load(slot, name=llvm_name(info.arg_names[i]), typ=PTR, align=8)
            args.append(p if isinstance(t, MemRefType) else b.load(p, typ=lt, align=element_size_ir(lt)))
        n_args = len(args)
        if info.check_record:
            slot = b.gep(wrapper.args[0], [ir.Constant(I64, n_args + len(info.result_types))], inbounds=True, source_etype=PTR)
            args.append(b.load(slot, name="check.record", typ=PTR, align=8))
        result = b.call(target, args)
        if info.result_types:
            slot = b.gep(wrapper.args[0], [ir.Constant(I64, n_args)], inbounds=True, source_etype=PTR)
            p = b.load(slot, typ=PTR, align=8)
            b.store(result, p, align=element_size_ir(result.type))
        b.ret_void()

    def declare_libm(self, name: str, t: ir.Type, arity: int) -> ir.Function:
        """A libm function of ``arity`` arguments of type ``t``: no side effects (no errno).

        With a vector library that has the function, every call computes it with one variant,
        the widest (:meth:`vector_variant`): a scalar call is ``strati.<name>``, defined here as
        that variant on a splat (and named by its ``vector-function-abi-variant`` attribute, so
        the loop vectorizer calls the variant directly).  Equal inputs then give equal results
        in every lane and the scalar tail, which a libm next to libmvec does not promise (an
        argmax over ties of ``acos`` broke them differently)."""
        variant = self.vector_variant(name)
        scalar_name = name if variant is None else f"strati.{name}"
        existing = self.module.globals.get(scalar_name)
        if existing is not None:
            return existing
        fn = ir.Function(self.module, ir.FunctionType(t, [t] * arity), scalar_name)
        fn.attributes.add("nounwind")
        set.add(fn.attributes, "memory(none)")  # llvmlite does not know LLVM's memory(...) attribute
        if variant is None:
            return fn
        lanes, symbol = variant
        vt = ir.VectorType(t, lanes)
        vector_fn = self.declare_vector_variant(symbol, vt, arity)
        set.add(fn.attributes, f'"vector-function-abi-variant"="_ZGV_LLVM_N{lanes}{"v" * arity}_{scalar_name}({symbol})"')
        fn.attributes.add("noinline")  # inlined, the loop vectorizer would see a vector call it cannot widen
        fn.linkage = "internal"
        self.kept_functions.append(fn)
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        splats = [b.shuffle_vector(b.insert_element(ir.Constant(vt, ir.Undefined), x, ir.Constant(I32, 0)),
                                   ir.Constant(vt, ir.Undefined), ir.Constant(ir.VectorType(I32, lanes), [0] * lanes))
                  for x in fn.args]
        b.ret(b.extract_element(b.call(vector_fn, splats), ir.Constant(I32, 0)))
        return fn

    def vector_variant(self, name: str) -> tuple[int, str] | None:
        """The vector library's widest variant of ``name`` (lanes, symbol), or None."""
        variants = self.vector_library.variants.get(name, ()) if self.vector_library is not None else ()
        return max(variants) if variants else None

    def declare_vector_variant(self, symbol: str, vt: ir.VectorType, arity: int) -> ir.Function:
        """A vector library function, as pure as its scalar one, kept until the vectorizer has run."""
        fn = self.declare(symbol, vt, [vt] * arity)
        if fn not in self.kept_functions:
            fn.attributes.add("nounwind")
            set.add(fn.attributes, "memory(none)")
            self.kept_functions.append(fn)
        return fn

    def has_vector_variant(self, name: str) -> bool:
        return self.vector_variant(name) is not None

    def unique_name(self, base: str) -> str:
        """``base`` followed by a number not used before with it (outlined functions, tasks)."""
        n = self.counters[base] = self.counters.get(base, 0) + 1
        return f"{base}{n}"

    def float8_table(self, t: Attribute) -> ir.GlobalVariable:
        """The 256 float32 values of a float8 type's encodings (from ml_dtypes), one constant global."""
        name = f"strati.{str(t).lower()}.values"
        if name in self.module.globals:
            return self.module.globals[name]
        values = np.arange(256, dtype=np.uint8).view(to_dtype(t)).astype(np.float32)
        table_type = ir.ArrayType(ir.FloatType(), 256)
        g = ir.GlobalVariable(self.module, table_type, name)
        g.initializer = ir.Constant(table_type, [ir.Constant(ir.FloatType(), float(v)) for v in values])
        g.global_constant = True
        g.linkage = "internal"
        return g

    def declare(self, name: str, ret: ir.Type, args: Sequence[ir.Type]) -> ir.Function:
        """An external function or intrinsic, declared once."""
        existing = self.module.globals.get(name)
        if existing is not None:
            return existing
        return ir.Function(self.module, ir.FunctionType(ret, list(args)), name)


def element_size_ir(t: ir.Type) -> int:
    if isinstance(t, ir.IntType):
        return max(1, t.width // 8)
    if isinstance(t, ir.VectorType):
        return element_size_ir(t.element)
    return {ir.FloatType: 4, ir.DoubleType: 8, ir.HalfType: 2}.get(type(t), 8)


def aligned_bytes(size: int, align: int) -> np.ndarray:
    """A zeroed uint8 array of ``size`` bytes whose data starts on an ``align``-byte boundary."""
    raw = np.zeros(size + align, np.uint8)
    offset = (-raw.ctypes.data) % align
    return raw[offset : offset + size]


# --- the body of a function -------------------------------------------------------------------

FLOAT_BINARY = {"arith.addf": "fadd", "arith.subf": "fsub", "arith.mulf": "fmul", "arith.divf": "fdiv", "arith.remf": "frem"}
INT_BINARY = {
    "arith.addi": "add",
    "arith.subi": "sub",
    "arith.muli": "mul",
    "arith.divsi": "sdiv",
    "arith.divui": "udiv",
    "arith.remsi": "srem",
    "arith.remui": "urem",
    "arith.andi": "and_",
    "arith.ori": "or_",
    "arith.xori": "xor",
    "arith.shli": "shl",
    "arith.shrsi": "ashr",
    "arith.shrui": "lshr",
}
BINARY_INTRINSICS = {
    "arith.maximumf": "llvm.maximum",
    "arith.minimumf": "llvm.minimum",
    "arith.maxnumf": "llvm.maxnum",
    "arith.minnumf": "llvm.minnum",
    "arith.maxsi": "llvm.smax",
    "arith.minsi": "llvm.smin",
    "arith.maxui": "llvm.umax",
    "arith.minui": "llvm.umin",
    "math.powf": "llvm.pow",
    "math.copysign": "llvm.copysign",
}
UNARY_INTRINSICS = {
    "math.exp": "llvm.exp",
    "math.exp2": "llvm.exp2",
    "math.log": "llvm.log",
    "math.log2": "llvm.log2",
    "math.log10": "llvm.log10",
    "math.sqrt": "llvm.sqrt",
    "math.sin": "llvm.sin",
    "math.cos": "llvm.cos",
    "math.absf": "llvm.fabs",
    "math.floor": "llvm.floor",
    "math.ceil": "llvm.ceil",
    "math.trunc": "llvm.trunc",
    "math.round": "llvm.round",
    "math.roundeven": "llvm.roundeven",
    "math.ctpop": "llvm.ctpop",
}
LIBM_UNARY = {
    "math.tanh": "tanh",
    "math.erf": "erf",
    "math.tan": "tan",
    "math.atan": "atan",
    "math.asin": "asin",
    "math.acos": "acos",
    "math.sinh": "sinh",
    "math.cosh": "cosh",
    "math.asinh": "asinh",
    "math.acosh": "acosh",
    "math.atanh": "atanh",
    "math.expm1": "expm1",
    "math.log1p": "log1p",
    "math.cbrt": "cbrt",
}
LIBM_BINARY = {"math.atan2": "atan2"}
LIBM_EQUIVALENT = {
    "math.exp": "exp",
    "math.exp2": "exp2",
    "math.log": "log",
    "math.log2": "log2",
    "math.log10": "log10",
    "math.sin": "sin",
    "math.cos": "cos",
    "math.powf": "pow",
}
"""Math ops that are LLVM intrinsics but become libm calls when the vector library has them."""
CASTS = {
    "arith.extf": "fpext",
    "arith.truncf": "fptrunc",
    "arith.extsi": "sext",
    "arith.extui": "zext",
    "arith.trunci": "trunc",
    "arith.sitofp": "sitofp",
    "arith.uitofp": "uitofp",
    "arith.fptosi": "fptosi",
    "arith.fptoui": "fptoui",
}
FCMP = {
    "oeq": (True, "=="), "ogt": (True, ">"), "oge": (True, ">="), "olt": (True, "<"), "ole": (True, "<="),
    "one": (True, "!="), "ord": (True, "ord"), "ueq": (False, "=="), "ugt": (False, ">"), "uge": (False, ">="),
    "ult": (False, "<"), "ule": (False, "<="), "une": (False, "!="), "uno": (False, "uno"),
}  # fmt: skip
ICMP = {
    "eq": (True, "=="), "ne": (True, "!="), "slt": (True, "<"), "sle": (True, "<="), "sgt": (True, ">"),
    "sge": (True, ">="), "ult": (False, "<"), "ule": (False, "<="), "ugt": (False, ">"), "uge": (False, ">="),
}  # fmt: skip


class FunctionEmitter:
    def __init__(self, translator: ModuleTranslator, op: func.FuncOp, fn: ir.Function):
        self.tr = translator
        self.op = op
        self.fn = fn
        self.values: dict[SSAValue, ir.Value] = {}
        self.heap: set[SSAValue] = set()
        self.stack: set[SSAValue] = set()
        self.stack_bytes = 0
        self.depth = 0  # of loop nesting, to name induction variables without a name
        self.entry = fn.append_basic_block("entry")
        self.body = fn.append_basic_block("body")
        self.allocas = ir.IRBuilder(self.entry)
        self.b = ir.IRBuilder(self.body)
        # The call's check record (strati.codegen.checks): the hidden last argument of a checked module's functions.
        self.check_record: ir.Value | None = fn.args[-1] if translator.checked and op.body.blocks else None
        self.handlers: dict[str, Callable[[Operation], object]] = {
            "arith.constant": self.constant,
            "arith.cmpf": self.cmpf,
            "arith.cmpi": self.cmpi,
            "arith.select": self.select,
            "arith.negf": self.negf,
            "arith.index_cast": self.index_cast,
            "arith.index_castui": self.index_cast,
            "arith.bitcast": self.bitcast,
            "arith.ceildivsi": self.ceildivsi,
            "arith.floordivsi": self.floordivsi,
            "math.rsqrt": self.rsqrt,
            "math.fma": self.fma,
            "math.absi": self.absi,
            "math.ctlz": self.count_zeros,
            "math.cttz": self.count_zeros,
            "math.fpowi": self.fpowi,
            "memref.load": self.load,
            "memref.store": self.store,
            "memref.alloc": self.alloc,
            "memref.alloca": self.alloc,
            "memref.dealloc": self.dealloc,
            "memref.get_global": self.get_global,
            "memref.copy": self.copy,
            "loop.for": self.loop_for,
            "loop.arena_view": self.arena_view,
            "loop.yield": lambda op: None,
            "func.return": self.ret,
            "func.call": self.call,
            "vector.load": self.vector_load,
            "vector.store": self.vector_store,
            "vector.broadcast": self.broadcast,
            "vector.shuffle": self.shuffle,
            "vector.fma": self.fma,
            "vector.reduction": self.reduction,
        }

    # driver

    def emit(self) -> None:
        if len(self.op.body.blocks) != 1:
            raise CodegenError("functions with more than one block are not supported", self.op)
        block = self.op.body.block
        for arg, llarg in zip(block.args, self.fn.args):
            llarg.name = llvm_name(arg.name_hint)
            self.values[arg] = llarg
        if self.check_record is not None:
            self.check_record.name = "check.record"
        self.emit_block(block)
        if not self.b.block.is_terminated:
            self.b.ret_void() if isinstance(self.fn.function_type.return_type, ir.VoidType) else self.b.unreachable()
        self.allocas.branch(self.body)

    def emit_block(self, block: Block) -> None:
        for op in block.ops:
            self.emit_op(op)

    def emit_op(self, op: Operation) -> None:
        emit = registry.get_op_attr(op.name, "emit")
        handler = self.handlers.get(op.name)
        if emit is not None:
            out = emit(self, op)
        elif handler is not None:
            out = handler(op)
        elif op.name in FLOAT_BINARY:
            out = self.float_binary(op)
        elif op.name in INT_BINARY:
            out = self.int_binary(op)
        elif op.name in LIBM_EQUIVALENT and self.tr.has_vector_variant(self.libm_name(LIBM_EQUIVALENT[op.name], op)):
            out = self.libm_call(LIBM_EQUIVALENT[op.name], [self.v(x) for x in op.operands], op)
        elif op.name in BINARY_INTRINSICS:
            out = self.intrinsic_call(BINARY_INTRINSICS[op.name], [self.v(x) for x in op.operands], op)
        elif op.name in UNARY_INTRINSICS:
            out = self.intrinsic_call(UNARY_INTRINSICS[op.name], [self.v(op.operands[0])], op)
        elif op.name in LIBM_UNARY or op.name in LIBM_BINARY:
            out = self.libm_call(LIBM_UNARY.get(op.name) or LIBM_BINARY[op.name], [self.v(x) for x in op.operands], op)
        elif op.name in CASTS:
            out = self.cast(op)
        elif op.name in VIEW_OPS:
            out = self.view(op)
        else:
            raise CodegenError(f"cannot be translated to LLVM IR (the code generator supports {SUPPORTED})", op)
        if out is None:
            return
        outs = out if isinstance(out, (list, tuple)) else [out]
        for result, value in zip(op.results, outs):
            self.values[result] = value

    def v(self, value: SSAValue) -> ir.Value:
        return self.values[value]

    def name(self, op: Operation) -> str:
        return llvm_name(op.results[0].name_hint) if op.results else ""

    def result_type(self, op: Operation) -> ir.Type:
        return scalar_type(op.results[0].type, op)

    # arith

    def constant(self, op: Operation) -> ir.Value:
        value = op.properties["value"]
        t = op.results[0].type
        if isinstance(t, MemRefType):
            raise CodegenError("memref constants are not supported (use memref.global)", op)
        lt = scalar_type(t, op)
        if isinstance(value, IntegerAttr):
            return splat(lt, int_constant(element_of(lt), value.value.data))
        if isinstance(value, FloatAttr):
            return float_constant(lt, float(value.value.data))
        if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(lt, ir.VectorType):
            values = np.broadcast_to(numpy_from_dense(value), (lt.count,))
            el = lt.element
            if isinstance(el, ir.IntType):
                return ir.Constant(lt, [int_constant(el, int(x)) for x in values])
            return ir.Constant(lt, [ir.Constant(el, float(x)) for x in values])
        raise CodegenError(f"constant {value} is not supported", op)

    def float_flags(self, op: Operation, policy: tuple[str, ...]) -> tuple[str, ...]:
        flags = set(policy)
        fm = op.properties.get("fastmath")
        if fm is not None:
            flags |= {str(f.value) for f in fm.data}
        if {"reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"} <= flags:
            return ("fast",)
        return tuple(f for f in FLAG_ORDER if f in flags)

    def float_binary(self, op: Operation) -> ir.Value:
        opcode = FLOAT_BINARY[op.name]
        policy = DIV_FLAGS if opcode == "fdiv" else () if opcode == "frem" else ADD_FLAGS
        lhs, rhs = self.v(op.operands[0]), self.v(op.operands[1])
        return getattr(self.b, opcode)(lhs, rhs, name=self.name(op), flags=self.float_flags(op, policy))

    def int_binary(self, op: Operation) -> ir.Value:
        opcode = INT_BINARY[op.name]
        flags: set[str] = set()
        if opcode in ("add", "sub", "mul", "shl"):
            of = op.properties.get("overflowFlags")
            if of is not None:
                flags |= {str(f.value) for f in of.data}
            if isinstance(op.results[0].type, IndexType) and opcode != "shl":
                flags.add("nsw")  # index arithmetic addresses memory: it does not overflow
        lhs, rhs = self.v(op.operands[0]), self.v(op.operands[1])
        if opcode in ("sdiv", "udiv", "srem", "urem"):
            return self.divide(opcode, lhs, rhs, name=self.name(op))
        fn = getattr(self.b, opcode)
        if flags:
            return fn(lhs, rhs, name=self.name(op), flags=tuple(sorted(flags, key=["nuw", "nsw"].index)))
        return fn(lhs, rhs, name=self.name(op))

    def divide(self, opcode: str, a: ir.Value, b: ir.Value, name: str = "") -> ir.Value:
        """``sdiv``/``udiv``/``srem``/``urem`` without LLVM's undefined cases (a SIGFPE on x86):
        ``x / 0`` and ``x % 0`` are 0, ``INT_MIN / -1`` wraps to INT_MIN (remainder 0), as in
        the interpreters.  A constant divisor folds the guard away."""
        el = element_of(a.type)
        zero, one = splat(a.type, int_constant(el, 0)), splat(a.type, int_constant(el, 1))
        by_zero = self.b.icmp_unsigned("==", b, zero)
        bad = by_zero
        if opcode in ("sdiv", "srem"):
            low = splat(a.type, int_constant(el, -(1 << (el.width - 1))))
            overflow = self.b.and_(self.b.icmp_signed("==", a, low), self.b.icmp_signed("==", b, splat(a.type, int_constant(el, -1))))
            bad = self.b.or_(bad, overflow)
        result = getattr(self.b, opcode)(a, self.b.select(bad, one, b), name=name)
        return self.b.select(by_zero, zero, result) if opcode in ("sdiv", "udiv") else result

    def negf(self, op: Operation) -> ir.Value:
        return self.b.fneg(self.v(op.operands[0]), name=self.name(op), flags=self.float_flags(op, ADD_FLAGS))

    def cmpf(self, op: Operation) -> ir.Value:
        from xdsl.dialects.arith import CMPF_COMPARISON_OPERATIONS

        predicate = CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        lhs, rhs = self.v(op.operands[0]), self.v(op.operands[1])
        if predicate in ("false", "true"):
            return splat(self.result_type(op), ir.Constant(I1, predicate == "true"))
        ordered, cmpop = FCMP[predicate]
        fn = self.b.fcmp_ordered if ordered else self.b.fcmp_unordered
        return fn(cmpop, lhs, rhs, name=self.name(op))

    def cmpi(self, op: Operation) -> ir.Value:
        from xdsl.dialects.arith import CMPI_COMPARISON_OPERATIONS

        signed, cmpop = ICMP[CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]]
        fn = self.b.icmp_signed if signed else self.b.icmp_unsigned
        return fn(cmpop, self.v(op.operands[0]), self.v(op.operands[1]), name=self.name(op))

    def select(self, op: Operation) -> ir.Value:
        c, a, b = (self.v(x) for x in op.operands)
        return self.b.select(c, a, b, name=self.name(op))

    def bf16_to_f32(self, bits: ir.Value) -> ir.Value:
        """bf16 bits (i16, or a vector of them) as the float32 they are the top half of."""
        wide = ir.VectorType(I32, bits.type.count) if isinstance(bits.type, ir.VectorType) else I32
        ft = ir.VectorType(ir.FloatType(), bits.type.count) if isinstance(bits.type, ir.VectorType) else ir.FloatType()
        return self.b.bitcast(self.b.shl(self.b.zext(bits, wide), splat(wide, ir.Constant(I32, 16))), ft)

    def f32_to_bf16(self, x: ir.Value) -> ir.Value:
        """float32 to bf16 bits, rounded to nearest even (ml_dtypes' and onnx's rounding); a NaN stays
        a quiet NaN with its sign."""
        vec = isinstance(x.type, ir.VectorType)
        wide = ir.VectorType(I32, x.type.count) if vec else I32
        half = ir.VectorType(ir.IntType(16), x.type.count) if vec else ir.IntType(16)

        def c(v: int) -> ir.Constant:
            return splat(wide, ir.Constant(I32, v))

        bits = self.b.bitcast(x, wide)
        top = self.b.lshr(bits, c(16))
        rounded = self.b.lshr(self.b.add(self.b.add(bits, c(0x7FFF)), self.b.and_(top, c(1))), c(16))
        nan = self.b.fcmp_unordered("uno", x, x)
        return self.b.trunc(self.b.select(nan, self.b.or_(top, c(0x40)), rounded), half)

    def f8_to_f32(self, code: ir.Value, t: Attribute) -> ir.Value:
        """float8 encodings (i8, or a vector of them) as float32, through the type's table."""
        table = self.tr.float8_table(t)
        if isinstance(code.type, ir.VectorType):
            out = ir.Constant(ir.VectorType(ir.FloatType(), code.type.count), ir.Undefined)
            for lane in range(code.type.count):
                one = self.f8_to_f32(self.b.extract_element(code, ir.Constant(I32, lane)), t)
                out = self.b.insert_element(out, one, ir.Constant(I32, lane))
            return out
        ptr = self.b.gep(table, [ir.Constant(I64, 0), self.b.zext(code, I64)], inbounds=True, source_etype=table.value_type)
        return self.b.load(ptr, typ=ir.FloatType(), align=4)

    def f32_to_f8(self, x: ir.Value, t: Attribute) -> ir.Value:
        """float32 to a float8 encoding, rounded to nearest even: below the smallest normal, the
        multiple of the smallest subnormal (roundeven of a power-of-two scaling); above, float32's
        bits rounded at the mantissa's last bit and the exponent rebiased; beyond the largest
        finite value the type's overflow (infinity or NaN); NaN its NaN; the sign on top (fnuz
        types have no negative zero)."""
        m, bias, largest, overflow, nan_code, fnuz = FLOAT8[type(t)]
        vec = isinstance(x.type, ir.VectorType)
        wide = ir.VectorType(I32, x.type.count) if vec else I32
        narrow = ir.VectorType(I8, x.type.count) if vec else I8

        def c(v: int) -> ir.Constant:
            return splat(wide, ir.Constant(I32, v))

        emin = 1 - bias
        bits = self.b.bitcast(x, wide)
        sign = self.b.lshr(bits, c(31))
        a = self.b.and_(bits, c(0x7FFFFFFF))
        ax = self.b.bitcast(a, x.type)
        scaled = self.b.fmul(ax, float_constant(x.type, 2.0 ** (m - emin)))
        roundeven = self.intrinsic("llvm.roundeven", x.type)
        sub = self.b.fptoui(self.b.call(roundeven, [scaled]), wide)
        shift = 23 - m
        rounded = self.b.lshr(self.b.add(self.b.add(a, c((1 << (shift - 1)) - 1)), self.b.and_(self.b.lshr(a, c(shift)), c(1))), c(shift))
        normal = self.b.sub(rounded, c((127 - bias) << m))
        small = self.b.fcmp_ordered("<", ax, float_constant(x.type, 2.0**emin))
        enc = self.b.select(small, sub, normal)
        over = self.b.icmp_unsigned(">", enc, c(largest))
        nan = self.b.fcmp_unordered("uno", x, x)
        if fnuz:
            signed = self.b.select(self.b.icmp_unsigned("==", enc, c(0)), enc, self.b.or_(enc, self.b.shl(sign, c(7))))
            out = self.b.select(self.b.or_(over, nan), c(0x80), signed)
        else:
            out = self.b.select(nan, c(nan_code), self.b.select(over, c(overflow), enc))
            out = self.b.or_(out, self.b.shl(sign, c(7)))
        return self.b.trunc(out, narrow)

    def round_to_f8(self, x: ir.Value, t: Attribute) -> ir.Value:
        return self.f8_to_f32(self.f32_to_f8(x, t), t)

    def round_to_bf16(self, x: ir.Value) -> ir.Value:
        return self.bf16_to_f32(self.f32_to_bf16(x))

    def cast(self, op: Operation) -> ir.Value:
        x, to = self.v(op.operands[0]), self.result_type(op)
        src, dst = element_of_type(op.operands[0].type), element_of_type(op.results[0].type)
        if isinstance(src, BFloat16Type) or isinstance(dst, BFloat16Type) or type(src) in FLOAT8 or type(dst) in FLOAT8:
            return self.bf16_cast(op, x, to, src, dst)
        if op.name == "arith.truncf" and isinstance(element_of(x.type), ir.DoubleType) and isinstance(
            element_of(to), ir.HalfType
        ):
            return self.truncate_f64_to_f16(x, to, self.name(op))
        return getattr(self.b, CASTS[op.name])(x, to, name=self.name(op))

    def bf16_cast(self, op: Operation, x: ir.Value, to: ir.Type, src: Attribute, dst: Attribute) -> ir.Value:
        """A cast from or to bf16 or float8, whose values are float32 ones: to them through float32
        (rounded to odd from f64, so that the one rounding to nearest even is correct)."""
        f32t = ir.VectorType(ir.FloatType(), to.count) if isinstance(to, ir.VectorType) else ir.FloatType()
        if isinstance(dst, BFloat16Type) or type(dst) in FLOAT8:
            if op.name in ("arith.sitofp", "arith.uitofp"):
                y = getattr(self.b, CASTS[op.name])(x, f32t)
            elif src == dst:
                return x
            elif isinstance(element_of(x.type), ir.DoubleType):
                y = self.f64_to_f32_odd(x)
            elif isinstance(element_of(x.type), ir.HalfType):
                y = self.b.fpext(x, f32t)
            else:
                y = x
            return self.round_to_bf16(y) if isinstance(dst, BFloat16Type) else self.round_to_f8(y, dst)
        # from bf16 or float8 (a float32 value)
        if op.name in ("arith.fptosi", "arith.fptoui"):
            return getattr(self.b, CASTS[op.name])(x, to, name=self.name(op))
        if isinstance(element_of(to), ir.DoubleType):
            return self.b.fpext(x, to, name=self.name(op))
        if isinstance(element_of(to), ir.HalfType):
            return self.b.fptrunc(x, to, name=self.name(op))
        return x

    def truncate_f64_to_f16(self, x: ir.Value, to: ir.Type, name: str) -> ir.Value:
        """f64 -> f16 through f32 rounded to odd, which makes the second rounding exact.

        x86 has no f64 -> f16 instruction; LLVM would call ``__truncdfhf2``, which the JIT's
        process does not define (a null call).  Rounding to odd keeps the sticky bit that the
        final round-to-nearest-even needs, since f32 has more than 2 bits beyond f16's."""
        return self.b.fptrunc(self.f64_to_f32_odd(x), to, name=name)

    def f64_to_f32_odd(self, x: ir.Value) -> ir.Value:
        """f64 -> f32 rounded to odd: a later round to nearest even to a narrower type (f16, bf16,
        float8) is then the correct rounding of the f64 value."""
        lanes = x.type.count if isinstance(x.type, ir.VectorType) else None
        f32 = ir.VectorType(ir.FloatType(), lanes) if lanes else ir.FloatType()
        i32 = ir.VectorType(ir.IntType(32), lanes) if lanes else ir.IntType(32)
        nearest = self.b.fptrunc(x, f32)
        back = self.b.fpext(nearest, x.type)
        fabs = self.intrinsic("llvm.fabs", x.type)
        away = self.b.fcmp_ordered(">", self.b.call(fabs, [back]), self.b.call(fabs, [x]))
        inexact = self.b.fcmp_ordered("!=", back, x)
        bits = self.b.bitcast(nearest, i32)
        one = splat(i32, int_constant(ir.IntType(32), 1)) if lanes else int_constant(ir.IntType(32), 1)
        toward_zero = self.b.select(away, self.b.sub(bits, one), bits)
        odd = self.b.select(inexact, self.b.or_(toward_zero, one), toward_zero)
        return self.b.bitcast(odd, f32)

    def index_cast(self, op: Operation) -> ir.Value:
        x = self.v(op.operands[0])
        to = self.result_type(op)
        src_width, dst_width = element_of(x.type).width, element_of(to).width
        if src_width == dst_width:
            return x
        if src_width > dst_width:
            return self.b.trunc(x, to, name=self.name(op))
        if op.name == "arith.index_castui" or src_width == 1:
            return self.b.zext(x, to, name=self.name(op))
        return self.b.sext(x, to, name=self.name(op))

    def bitcast(self, op: Operation) -> ir.Value:
        x = self.v(op.operands[0])
        to = self.result_type(op)
        return x if x.type == to else self.b.bitcast(x, to, name=self.name(op))

    def ceildivsi(self, op: Operation) -> ir.Value:
        """``ceil(a / b)`` for signed ints: the truncated quotient, plus one when the exact quotient is positive and inexact."""
        a, b = self.v(op.operands[0]), self.v(op.operands[1])
        q, r = self.divide("sdiv", a, b), self.divide("srem", a, b)
        zero, one = splat(a.type, int_constant(element_of(a.type), 0)), splat(a.type, int_constant(element_of(a.type), 1))
        inexact = self.b.icmp_signed("!=", r, zero)
        same_sign = self.b.icmp_signed("==", self.b.icmp_signed("<", a, zero), self.b.icmp_signed("<", b, zero))
        return self.b.add(q, self.b.select(self.b.and_(inexact, same_sign), one, zero), name=self.name(op))

    def floordivsi(self, op: Operation) -> ir.Value:
        a, b = self.v(op.operands[0]), self.v(op.operands[1])
        q, r = self.divide("sdiv", a, b), self.divide("srem", a, b)
        zero, one = splat(a.type, int_constant(element_of(a.type), 0)), splat(a.type, int_constant(element_of(a.type), 1))
        inexact = self.b.icmp_signed("!=", r, zero)
        signs_differ = self.b.icmp_signed("!=", self.b.icmp_signed("<", a, zero), self.b.icmp_signed("<", b, zero))
        return self.b.sub(q, self.b.select(self.b.and_(inexact, signs_differ), one, zero), name=self.name(op))

    # math

    def intrinsic(self, base: str, t: ir.Type, arg_types: Sequence[ir.Type] | None = None, ret: ir.Type | None = None) -> ir.Function:
        return self.tr.declare(f"{base}.{mangle(t)}", ret or t, arg_types if arg_types is not None else [t])

    def intrinsic_call(self, base: str, args: list[ir.Value], op: Operation) -> ir.Value:
        t = args[0].type
        fn = self.intrinsic(base, t, [t] * len(args))
        flags: tuple[str, ...] = ()
        if is_float_type(t):
            # maximum/minimum get no flags of ours: they exist for their NaN semantics.
            policy = () if base in ("llvm.maximum", "llvm.minimum") else ("contract", "afn")
            flags = self.float_flags(op, policy)
        return self.b.call(fn, args, name=self.name(op), fastmath=flags)

    def libm_name(self, base: str, op: Operation) -> str:
        """``tanhf`` for f32 (and f16, computed in f32), ``tanh`` for f64."""
        t = op.operands[0].type
        el = t.get_element_type() if isinstance(t, VectorType) else t
        return base if isinstance(el, Float64Type) else base + "f"

    def libm_call(self, base: str, args: list[ir.Value], op: Operation) -> ir.Value:
        """A libm function, lane by lane on vectors; f16 is computed in f32."""
        t = args[0].type
        el = element_of(t)
        if not isinstance(el, (ir.FloatType, ir.DoubleType, ir.HalfType)):
            raise CodegenError(f"{op.name} needs a float type, not {op.operands[0].type}", op)
        compute = ir.DoubleType() if isinstance(el, ir.DoubleType) else ir.FloatType()

        def scalar(xs: list[ir.Value], name: str = "") -> ir.Value:
            fn = self.tr.declare_libm(self.libm_name(base, op), compute, len(args))
            if isinstance(el, ir.HalfType):
                xs = [self.b.fpext(x, compute) for x in xs]
                return self.b.fptrunc(self.b.call(fn, xs), el, name=name)
            return self.b.call(fn, xs, name=name)

        if not isinstance(t, ir.VectorType):
            return scalar(args, self.name(op))
        if not isinstance(el, ir.HalfType):
            vectorized = self.vector_variant_call(self.libm_name(base, op), args, op)
            if vectorized is not None:
                return vectorized
        out = ir.Constant(t, ir.Undefined)
        for lane in range(t.count):
            k = ir.Constant(I32, lane)
            out = self.b.insert_element(out, scalar([self.b.extract_element(x, k) for x in args]), k)
        return out

    def vector_variant_call(self, name: str, args: list[ir.Value], op: Operation) -> ir.Value | None:
        """A libm function on a vector through the vector library's widest variant (the one every
        call of it uses): in pieces when the vector is wider, on repeated lanes when it is narrower
        or not a multiple; None when the library does not have the function."""
        variant = self.tr.vector_variant(name)
        if variant is None:
            return None
        lanes, symbol = variant
        t = args[0].type
        fn = self.tr.declare_vector_variant(symbol, ir.VectorType(t.element, lanes), len(args))
        if lanes == t.count:
            return self.b.call(fn, args, name=self.name(op))
        undef = ir.Constant(t, ir.Undefined)
        pieces = []
        for start in range(0, t.count, lanes):
            mask = ir.Constant(ir.VectorType(I32, lanes), [i if i < t.count else i % t.count for i in range(start, start + lanes)])
            pieces.append(self.b.call(fn, [self.b.shuffle_vector(x, undef, mask) for x in args]))
        while len(pieces) > 1:  # concatenate pairwise (an odd last piece pairs with itself)
            if len(pieces) % 2:
                pieces.append(pieces[-1])
            n = pieces[0].type.count
            mask = ir.Constant(ir.VectorType(I32, 2 * n), list(range(2 * n)))
            pieces = [self.b.shuffle_vector(a, b, mask) for a, b in zip(pieces[0::2], pieces[1::2])]
        if pieces[0].type.count == t.count:
            pieces[0].name = self.name(op)
            return pieces[0]
        return self.b.shuffle_vector(pieces[0], pieces[0], ir.Constant(ir.VectorType(I32, t.count), list(range(t.count))), name=self.name(op))

    def rsqrt(self, op: Operation) -> ir.Value:
        x = self.v(op.operands[0])
        s = self.b.call(self.intrinsic("llvm.sqrt", x.type), [x])
        return self.b.fdiv(float_constant(x.type, 1.0), s, name=self.name(op), flags=self.float_flags(op, ("contract",)))

    def fma(self, op: Operation) -> ir.Value:
        args = [self.v(x) for x in op.operands]
        return self.b.call(self.intrinsic("llvm.fma", args[0].type, [args[0].type] * 3), args, name=self.name(op))

    def absi(self, op: Operation) -> ir.Value:
        x = self.v(op.operands[0])
        fn = self.intrinsic("llvm.abs", x.type, [x.type, I1])
        return self.b.call(fn, [x, ir.Constant(I1, False)], name=self.name(op))

    def count_zeros(self, op: Operation) -> ir.Value:
        x = self.v(op.operands[0])
        fn = self.intrinsic("llvm.ctlz" if op.name == "math.ctlz" else "llvm.cttz", x.type, [x.type, I1])
        return self.b.call(fn, [x, ir.Constant(I1, False)], name=self.name(op))

    def fpowi(self, op: Operation) -> ir.Value:
        x, n = self.v(op.operands[0]), self.v(op.operands[1])
        fn = self.tr.declare(f"llvm.powi.{mangle(x.type)}.{mangle(n.type)}", x.type, [x.type, n.type])
        return self.b.call(fn, [x, n], name=self.name(op))

    # memory

    def address(self, memref: SSAValue, indices: Sequence[SSAValue], op: Operation) -> ir.Value:
        """``getelementptr inbounds`` to the element at ``indices`` (row-major)."""
        t = memref.type
        assert isinstance(t, MemRefType)
        shape = memref_shape(t, op, flat=True)
        base = self.v(memref)
        if len(indices) != len(shape):
            raise CodegenError(f"{len(indices)} indices for {t}", op)
        if not shape:
            return base
        linear = self.v(indices[0])
        for dim, index in zip(shape[1:], indices[1:]):
            linear = self.b.mul(linear, ir.Constant(I64, dim), flags=("nuw", "nsw"))
            linear = self.b.add(linear, self.v(index), flags=("nuw", "nsw"))
        return self.b.gep(base, [linear], inbounds=True, source_etype=storage_type(t.get_element_type(), op))

    def load(self, op: Operation) -> ir.Value:
        memref = op.operands[0]
        el = memref.type.get_element_type()
        ptr = self.address(memref, op.operands[1:], op)
        st = storage_type(el, op)
        x = self.b.load(ptr, name=self.name(op), typ=st, align=element_size(el))
        if isinstance(el, BFloat16Type):
            return self.bf16_to_f32(x)
        if type(el) in FLOAT8:
            return self.f8_to_f32(x, el)
        return self.b.trunc(x, I1) if is_bool(el) else x

    def store(self, op: Operation) -> None:
        value, memref = op.operands[0], op.operands[1]
        el = memref.type.get_element_type()
        ptr = self.address(memref, op.operands[2:], op)
        x = self.v(value)
        if is_bool(el):
            x = self.b.zext(x, I8)
        if isinstance(el, BFloat16Type):
            x = self.f32_to_bf16(x)
        if type(el) in FLOAT8:
            x = self.f32_to_f8(x, el)
        self.b.store(x, ptr, align=element_size(el))

    def vector_load(self, op: Operation) -> ir.Value:
        memref = op.operands[0]
        el = memref.type.get_element_type()
        vt = self.result_type(op)
        ptr = self.address(memref, op.operands[1:], op)
        if is_bool(el):
            x = self.b.load(ptr, typ=ir.VectorType(I8, vt.count), align=1)
            return self.b.trunc(x, vt, name=self.name(op))
        if isinstance(el, BFloat16Type):
            return self.bf16_to_f32(self.b.load(ptr, typ=ir.VectorType(ir.IntType(16), vt.count), align=2))
        if type(el) in FLOAT8:
            return self.f8_to_f32(self.b.load(ptr, typ=ir.VectorType(I8, vt.count), align=1), el)
        return self.b.load(ptr, name=self.name(op), typ=vt, align=element_size(el))

    def vector_store(self, op: Operation) -> None:
        value, memref = op.operands[0], op.operands[1]
        el = memref.type.get_element_type()
        ptr = self.address(memref, op.operands[2:], op)
        x = self.v(value)
        if is_bool(el):
            x = self.b.zext(x, ir.VectorType(I8, x.type.count))
        if isinstance(el, BFloat16Type):
            x = self.f32_to_bf16(x)
        if type(el) in FLOAT8:
            x = self.f32_to_f8(x, el)
        self.b.store(x, ptr, align=element_size(el))

    def alloc(self, op: Operation) -> ir.Value:
        if op.operands:
            raise CodegenError("dynamically sized buffers are not supported", op)
        t = op.results[0].type
        shape = memref_shape(t, op)
        size = pymath.prod(shape) * element_size(t.get_element_type())
        alignment = op.properties.get("alignment")
        align = max(alignment.value.data if alignment is not None else DEFAULT_ALIGNMENT, element_size(t.get_element_type()))
        small = size <= STACK_BUFFER_LIMIT and self.stack_bytes + size <= STACK_FUNCTION_LIMIT
        if op.name == "memref.alloca" or small:
            slot = self.allocas.alloca(ir.ArrayType(I8, size), name=self.name(op))
            slot.align = align
            slot.type = PTR  # llvmlite types it [n x i8]*; the IR is in opaque pointers
            self.stack_bytes += size
            self.stack.add(op.results[0])
            return slot
        fn = self.tr.declare("aligned_alloc", PTR, [I64, I64])
        rounded = -(-size // align) * align
        self.heap.add(op.results[0])
        return self.b.call(fn, [ir.Constant(I64, align), ir.Constant(I64, max(rounded, align))], name=self.name(op))

    def dealloc(self, op: Operation) -> None:
        root = op.operands[0]
        while root.owner is not None and isinstance(root.owner, Operation) and root.owner.name in VIEW_OPS:
            root = root.owner.operands[0]
        if root in self.stack:
            return
        if root not in self.heap:
            raise CodegenError("deallocates a buffer that no memref.alloc of this function created", op)
        self.b.call(self.tr.declare("free", VOID, [PTR]), [self.v(root)])

    def get_global(self, op: Operation) -> ir.Value:
        name = op.name_.root_reference.data
        if name not in self.tr.globals:
            raise CodegenError(f"refers to @{name}, which is not a memref.global of this module", op)
        g, t = self.tr.globals[name]
        if memref_shape(t, op) != memref_shape(op.results[0].type, op) or t.get_element_type() != op.results[0].type.get_element_type():
            raise CodegenError(f"reads @{name} of type {t} as {op.results[0].type}", op)
        return g

    def copy(self, op: Operation) -> None:
        src, dst = op.operands
        shape = memref_shape(src.type, op)
        if shape != memref_shape(dst.type, op) or src.type.get_element_type() != dst.type.get_element_type():
            raise CodegenError(f"copies {src.type} to {dst.type}", op)
        size = pymath.prod(shape) * element_size(src.type.get_element_type())
        fn = self.tr.declare("llvm.memcpy.p0.p0.i64", VOID, [PTR, PTR, I64, I1])
        self.b.call(fn, [self.v(dst), self.v(src), ir.Constant(I64, size), ir.Constant(I1, False)])

    def view(self, op: Operation) -> ir.Value:
        src, result = op.operands[0], op.results[0]
        a, b = memref_shape(src.type, op, flat=True), memref_shape(result.type, op, flat=True)
        if src.type.get_element_type() != result.type.get_element_type():
            raise CodegenError(f"views {src.type} as {result.type}, which has another element type", op)
        if all(d >= 0 for d in (*a, *b)) and pymath.prod(a) != pymath.prod(b):
            raise CodegenError(f"views {src.type} as {result.type}, which has another number of elements", op)
        return self.v(src)

    def arena_view(self, op: Operation) -> ir.Value:
        """``loop.arena_view``: the arena's pointer advanced by the byte offset (opaque pointers: no cast)."""
        memref_shape(op.results[0].type, op)
        offset = op.properties["offset"].value.data
        base = self.v(op.operands[0])
        if offset == 0:
            return base
        return self.b.gep(base, [ir.Constant(I64, offset)], inbounds=True, source_etype=I8, name=self.name(op))

    # control flow

    def loop_for(self, op: Operation) -> None:
        lb, ub, step = (self.v(x) for x in op.operands)
        iv_value = op.body.block.args[0]
        label = llvm_name(iv_value.name_hint) or f"i{self.depth}"
        before = self.b.block
        header = self.fn.append_basic_block(f"{label}.header")
        body = self.fn.append_basic_block(f"{label}.body")
        exit_block = ir.Block(parent=self.fn, name=f"{label}.exit")  # placed after the body's blocks
        self.b.branch(header)
        self.b.position_at_end(header)
        iv = self.b.phi(I64, name=label)
        iv.add_incoming(lb, before)
        self.b.cbranch(self.b.icmp_signed("<", iv, ub), body, exit_block)
        self.b.position_at_end(body)
        self.values[iv_value] = iv
        self.depth += 1
        self.emit_block(op.body.block)
        self.depth -= 1
        following = self.b.add(iv, step, name=f"{label}.next", flags=("nsw",))
        latch = self.b.branch(header)
        iv.add_incoming(following, self.b.block)
        hints = self.loop_hints(op)
        if hints is not None:
            latch.set_metadata("llvm.loop", hints)
        self.fn.blocks.append(exit_block)
        self.b.position_at_end(exit_block)

    def loop_hints(self, op: Operation):
        width = op.properties["vector_width"].value.data
        unroll = op.properties["unroll"].value.data
        entries = []
        m = self.tr.module
        if width > 1:
            entries.append(m.add_metadata([ir.MetaDataString(m, "llvm.loop.vectorize.width"), ir.Constant(I32, width)]))
            entries.append(m.add_metadata([ir.MetaDataString(m, "llvm.loop.vectorize.enable"), ir.Constant(I1, True)]))
        if unroll > 1:
            entries.append(m.add_metadata([ir.MetaDataString(m, "llvm.loop.unroll.count"), ir.Constant(I32, unroll)]))
        if not entries:
            return None
        # A loop ID refers to itself, which makes it unique (llvmlite has no 'distinct').
        node = m.add_metadata([ir.MetaDataString(m, f"strati.loop.{len(m.metadata)}"), *entries])
        node.operands = (node, *entries)
        return node

    def ret(self, op: Operation) -> None:
        if op.operands:
            self.b.ret(self.v(op.operands[0]))
        else:
            self.b.ret_void()

    def call(self, op: Operation) -> ir.Value | None:
        callee = op.callee.root_reference.data
        fn = self.tr.functions.get(callee)
        if fn is None:
            raise CodegenError(f"calls @{callee}, which is not a function of this module", op)
        record = [self.check_record] if self.check_record is not None and len(fn.args) == len(op.operands) + 1 else []
        result = self.b.call(fn, [self.v(x) for x in op.operands] + record, name=self.name(op))
        return result if op.results else None

    # vectors

    def broadcast(self, op: Operation) -> ir.Value:
        x = self.v(op.operands[0])
        vt = self.result_type(op)
        if x.type == vt:
            return x
        if x.type != vt.element:
            raise CodegenError(f"broadcasts {op.operands[0].type} to {op.results[0].type}", op)
        one = self.b.insert_element(ir.Constant(vt, ir.Undefined), x, ir.Constant(I32, 0))
        mask = ir.Constant(ir.VectorType(I32, vt.count), [0] * vt.count)
        return self.b.shuffle_vector(one, ir.Constant(vt, ir.Undefined), mask, name=self.name(op))

    def shuffle(self, op: Operation) -> ir.Value:
        mask = op.mask.get_values()
        return self.b.shuffle_vector(self.v(op.operands[0]), self.v(op.operands[1]),
                                     ir.Constant(ir.VectorType(I32, len(mask)), list(mask)), name=self.name(op))

    def reduction(self, op: Operation) -> ir.Value:
        kind = str(op.kind.data.value)
        vec = self.v(op.operands[0])
        acc = self.v(op.operands[1]) if len(op.operands) > 1 else None
        vt = vec.type
        el = vt.element
        name = self.name(op)
        flags = self.float_flags(op, ADD_FLAGS) if is_float_type(vt) else ()
        if kind in ("add", "mul") and is_float_type(vt):
            start = acc if acc is not None else ir.Constant(el, -0.0 if kind == "add" else 1.0)
            fn = self.intrinsic(f"llvm.vector.reduce.f{kind}", vt, [el, vt], el)
            return self.b.call(fn, [start, vec], name=name, fastmath=flags)
        base = {
            "add": "add", "mul": "mul", "and": "and", "or": "or", "xor": "xor", "maxsi": "smax", "minsi": "smin",
            "maxui": "umax", "minui": "umin", "maximumf": "fmaximum", "minimumf": "fminimum", "maxnumf": "fmax",
            "minnumf": "fmin",
        }[kind]  # fmt: skip
        r = self.b.call(self.intrinsic(f"llvm.vector.reduce.{base}", vt, [vt], el), [vec])
        if acc is None:
            r.name = name
            return r
        if kind in ("add", "mul", "and", "or", "xor"):
            return getattr(self.b, {"and": "and_", "or": "or_"}.get(kind, kind))(r, acc, name=name)
        scalar_op = {"maxsi": "llvm.smax", "minsi": "llvm.smin", "maxui": "llvm.umax", "minui": "llvm.umin",
                     "maximumf": "llvm.maximum", "minimumf": "llvm.minimum", "maxnumf": "llvm.maxnum",
                     "minnumf": "llvm.minnum"}[kind]  # fmt: skip
        return self.b.call(self.intrinsic(scalar_op, el, [el, el]), [r, acc], name=name)


def is_bool(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


class TableEntryEmitter(FunctionEmitter):
    """A function's body emitted into its entry wrapper ``void @f_entry(ptr %args)``: each argument
    is loaded from the table just before the first top-level op that uses it (so that no value
    lives long and no call takes them all), a scalar result is stored to its slot (see
    :data:`TABLE_ENTRY_ARGUMENTS`)."""

    def __init__(self, translator: ModuleTranslator, op: func.FuncOp, wrapper: ir.Function, info: FunctionInfo):
        super().__init__(translator, op, wrapper)
        self.info = info
        self.table = wrapper.args[0]
        self.check_record = None

    def slot(self, i: int, name: str = "") -> ir.Value:
        at = self.b.gep(self.table, [ir.Constant(I64, i)], inbounds=True, source_etype=PTR)
        return self.b.load(at, name=name, typ=PTR, align=8)

    def argument(self, i: int, arg: BlockArgument) -> None:
        p = self.slot(i, llvm_name(self.info.arg_names[i]))
        t = self.info.arg_types[i]
        if not isinstance(t, MemRefType):
            lt = value_type(t)
            p = self.b.load(p, typ=lt, align=element_size_ir(lt))
        self.values[arg] = p

    def emit(self) -> None:
        if len(self.op.body.blocks) != 1:
            raise CodegenError("functions with more than one block are not supported", self.op)
        block = self.op.body.block
        n_args = len(self.info.arg_types)
        if self.info.check_record:
            self.check_record = self.slot(n_args + len(self.info.result_types), "check.record")
        number = {arg: i for i, arg in enumerate(block.args)}
        for op in block.ops:
            for inner in op.walk():
                for value in inner.operands:
                    if isinstance(value, BlockArgument) and value in number and value not in self.values:
                        self.argument(number[value], value)
            self.emit_op(op)
        if not self.b.block.is_terminated:
            self.b.ret_void()
        self.allocas.branch(self.body)

    def ret(self, op: Operation) -> None:
        if op.operands:
            value = self.v(op.operands[0])
            self.b.store(value, self.slot(len(self.info.arg_types)), align=element_size_ir(value.type))
        self.b.ret_void()


__all__ = [
    "CodegenError",
    "FunctionInfo",
    "Translation",
    "VectorLibrary",
    "module_to_llvm_ir",
    "translate_module",
]
