"""ONNX models to the graph dialect, in memory.

``import_model(model)`` turns an ONNX ``ModelProto`` (or a path to one) into a
module with one ``func.func`` in the ``graph`` dialect:

- the arguments are the graph inputs that have no initializer, in order, each
  named after its ONNX name (sanitised into an SSA name; the original name is kept
  as the argument attribute ``strati.name``, and each output's as a result
  attribute, so that inputs are matched by their ONNX names, the SSA names being
  aliases); a ``dim_param`` or unnamed dimension is ``?``, compiled per concrete
  shape (:mod:`strati.specialize`);
- initializers become ``graph.constant`` built from their bytes; a graph input
  that also has an initializer is a constant with a default, as in ONNX's own
  backend test runner (which feeds only the inputs without initializers);
- each node becomes graph ops that follow the operator's semantics at the
  model's opset (6 to 21; later versions that only added element types, and
  earlier opsets where the operator has not changed since opset 6, are
  accepted), located at ``NameLoc(node name)`` so that diagnostics name the node;
  an ONNX operator the graph dialect lacks is built from an exact composition of
  graph ops (Elu, Selu, PRelu, Floor, 1-D/3-D convolution and pooling, ...);
- shape computations whose results are static (Shape, Size, Constant,
  ConstantOfShape, Range, and any op whose operands are all constants) are folded
  into ``graph.constant`` during import.

Before anything is built, every unsupported (op type, opset, attribute) of the
model is collected and reported in one ``UnsupportedModelError``; operators out
of scope (string tensors, training operators, sequence/optional/map types) are
reported the same way and flagged ``out_of_scope``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    NameLoc,
    StringAttr,
    TensorType,
    UnknownLoc,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.registry import DEFAULT_LEVEL, Registry
from strati.dense import call_reference, dense_from_numpy, from_dtype, to_dtype
from strati.diagnostics import StratiError, diagnostic_message, verify_module
from strati.dialects.graph import ops as gops
from strati.dialects.graph.ops import ConstantOp
from strati.frontends.onnx_checks import ModelCheckError, check_declared_shapes, check_model_limits, check_node_signatures, check_ranges, load_external_data
from strati.limits import LIMITS, LimitError, exceeded
from strati.dialects.graph.quant import QUANT_OPS
from strati.dialects.shapes import make_tensor, shape_of
from strati.dialects.uniform import group_by_defs
from strati.frontends import onnx_fold, onnx_functions
from strati.functions import argument_aliases, name_attrs, result_names

MIN_OPSET = 6
MAX_OPSET = 21
DEFAULT_DOMAINS = ("", "ai.onnx")
TRAINING_DOMAIN = "ai.onnx.preview.training"

# Ops whose operands are all constants fold during import when their results
# hold at most this many elements (larger results stay ops, for fold-constants).
FOLD_LIMIT = 1 << 22

__all__ = [
    "ModelLoadError",
    "Problem",
    "UnsupportedModelError",
    "bind_feeds",
    "check_model",
    "import_model",
    "input_names",
    "load_model",
    "output_names",
    "support_report",
    "supported_op_types",
]


# --- errors -----------------------------------------------------------------------------


class ModelLoadError(StratiError):
    """The file is not a readable ONNX model (missing, malformed, truncated)."""


@dataclass(frozen=True)
class Problem:
    """One unsupported feature: an op type at an opset, with what is not supported."""

    op_type: str
    opset: int | None
    detail: str = ""
    # "unsupported", or an out-of-scope category: "string tensors", "training operators",
    # "sequence/optional/map types".
    category: str = "unsupported"
    # Graph inputs that would make this supported if their values were fixed at import.
    needs_constant: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f" (opset {self.opset})" if self.opset is not None else ""
        detail = f" {self.detail}" if self.detail else ""
        return f"{self.op_type}{where}{detail}"

    @property
    def out_of_scope(self) -> bool:
        return self.category != "unsupported"


class UnsupportedModelError(StratiError):
    """Everything in a model that strati cannot import, listed at once."""

    def __init__(self, problems: Sequence[Problem]):
        unique: list[Problem] = []
        for p in problems:
            if p not in unique:
                unique.append(p)
        self.problems = unique
        super().__init__("unsupported: " + "; ".join(str(p) for p in unique))

    @property
    def out_of_scope(self) -> bool:
        """Every problem is out of scope (strings, training, sequences), none a gap in strati."""
        return all(p.out_of_scope for p in self.problems)

    @property
    def categories(self) -> list[str]:
        return sorted({p.category for p in self.problems})

    @property
    def needs_constant(self) -> tuple[str, ...]:
        """Graph inputs whose values, fixed at import, would remove every problem (else empty)."""
        if not self.problems or not all(p.needs_constant for p in self.problems):
            return ()
        names: list[str] = []
        for p in self.problems:
            names += [n for n in p.needs_constant if n not in names]
        return tuple(names)


class NodeError(Exception):
    """A node that cannot be converted (raised while building; names the node)."""


# --- loading ----------------------------------------------------------------------------


def load_model(model: str | Path | onnx.ModelProto | bytes) -> onnx.ModelProto:
    """A ModelProto from a path, bytes or a ModelProto; a ModelLoadError in one line otherwise."""
    if isinstance(model, onnx.ModelProto):
        proto = model
        label = "the model"
    elif isinstance(model, (bytes, bytearray)):
        proto = _parse_bytes(bytes(model), "the model")
        label = "the model"
    else:
        path = Path(model)
        label = f"'{model}'"
        from strati.tools.common import ToolError, read_bytes

        try:
            data = read_bytes(str(path))
        except ToolError as err:
            raise ModelLoadError(str(err)) from None
        proto = _parse_bytes(data, label)
    if not proto.HasField("graph"):
        raise ModelLoadError(f"{label} is not an ONNX model: it has no graph")
    if not proto.opset_import and proto.ir_version >= 3:
        raise ModelLoadError(f"{label} is not a valid ONNX model: it imports no opset")
    directory = Path(model).parent if isinstance(model, (str, Path)) else None
    try:  # external data only from inside the model's directory; no negative declared dimension
        check_model_limits(proto, label)
        load_external_data(proto, directory, label)
        check_declared_shapes(proto, label)
        check_ranges(proto, label)
        check_node_signatures(proto, label)
    except (ModelCheckError, LimitError) as err:
        raise ModelLoadError(err.message) from None
    return proto


def _parse_bytes(data: bytes, label: str) -> onnx.ModelProto:
    if not data:
        raise ModelLoadError(f"{label} is empty, not an ONNX model")
    proto = onnx.ModelProto()
    try:
        proto.ParseFromString(data)
    except Exception as err:  # noqa: BLE001 - protobuf's DecodeError and friends
        raise ModelLoadError(f"{label} is not a valid ONNX model (truncated or corrupt): {_first_line(err)}") from None
    return proto


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


# --- names ------------------------------------------------------------------------------


def text(name: str | bytes) -> str:
    """A string field of the model as text: protobuf hands over one that is not UTF-8 as bytes."""
    return name.decode("utf-8", "replace") if isinstance(name, bytes) else name


def name_loc(name: str | bytes) -> NameLoc:
    """The location an ONNX name gives the ops it defines (as text, whatever protobuf handed over)."""
    return NameLoc(StringAttr(text(name)), UnknownLoc())


def sanitize(name: str | bytes, taken: set[str] | None = None) -> str:
    """An SSA name for an ONNX name: [A-Za-z0-9_$.-], not starting with a digit, and not
    ending in ``_<digits>`` (which xDSL strips); unique within ``taken``."""
    s = re.sub(r"[^A-Za-z0-9_$.-]", "_", text(name))
    if not s or not re.match(r"[A-Za-z_$.-]", s[0]):
        s = "v" + s
    if re.search(r"_\d+$", s):
        s += "_"
    if taken is not None:
        base, k = s, 1
        while s in taken:
            s = f"{base}.{k}"
            k += 1
        taken.add(s)
    return s


def symbol_name(name: str | bytes) -> str:
    s = re.sub(r"[^A-Za-z0-9_$.]", "_", text(name))
    if not s or s[0].isdigit():
        s = "main" if not s else "g" + s
    return s


def input_names(fn: func.FuncOp) -> list[str]:
    """The ONNX names of an imported function's arguments (their ``strati.name``; the SSA names if not imported)."""
    return [a[0] for a in argument_aliases(fn)]


def output_names(fn: func.FuncOp) -> list[str]:
    """The ONNX names of an imported function's results (``output<i>`` if not imported)."""
    return result_names(fn)


def bind_feeds(fn: func.FuncOp, feeds: Sequence[np.ndarray] | Mapping[str, np.ndarray]) -> list[np.ndarray]:
    """Inputs by ONNX name or SSA name (or by position) as the function's positional arguments."""
    if not isinstance(feeds, Mapping):
        return list(feeds)
    from strati.runtime.interpreter import order_inputs

    return [np.asarray(x) for x in order_inputs(argument_aliases(fn), feeds)]


# --- element types ----------------------------------------------------------------------

_NUMPY_TYPES = {
    TensorProto.FLOAT: np.float32,
    TensorProto.DOUBLE: np.float64,
    TensorProto.FLOAT16: np.float16,
    TensorProto.INT8: np.int8,
    TensorProto.INT16: np.int16,
    TensorProto.INT32: np.int32,
    TensorProto.INT64: np.int64,
    TensorProto.UINT8: np.uint8,
    TensorProto.UINT16: np.uint16,
    TensorProto.UINT32: np.uint32,
    TensorProto.UINT64: np.uint64,
    TensorProto.BOOL: np.bool_,
    TensorProto.BFLOAT16: ml_dtypes.bfloat16,
    TensorProto.FLOAT8E4M3FN: ml_dtypes.float8_e4m3fn,
    TensorProto.FLOAT8E4M3FNUZ: ml_dtypes.float8_e4m3fnuz,
    TensorProto.FLOAT8E5M2: ml_dtypes.float8_e5m2,
    TensorProto.FLOAT8E5M2FNUZ: ml_dtypes.float8_e5m2fnuz,
}


def elem_dtype(elem_type: int) -> np.dtype | None:
    t = _NUMPY_TYPES.get(elem_type)
    return None if t is None else np.dtype(t)


def elem_name(elem_type: int) -> str:
    try:
        return TensorProto.DataType.Name(elem_type).lower()
    except ValueError:
        return f"element type {elem_type}"


def type_problem(tp: onnx.TypeProto) -> tuple[str, str] | None:
    """(category, detail) when a value type is outside what strati imports."""
    kind = tp.WhichOneof("value")
    if kind in ("sequence_type", "optional_type", "map_type"):
        return "sequence/optional/map types", kind.removesuffix("_type") + " type"
    if kind == "sparse_tensor_type":
        return "unsupported", "sparse tensors"
    if kind == "tensor_type":
        et = tp.tensor_type.elem_type
        if et == TensorProto.STRING:
            return "string tensors", "string tensors"
        if et != TensorProto.UNDEFINED and elem_dtype(et) is None:
            return "unsupported", f"element type {elem_name(et)}"
    return None


# --- op versions ------------------------------------------------------------------------


# Attributes added after MAX_OPSET that only matter for element types strati does not
# import (Cast's round_mode is for float8e8m0), or whose default keeps the old meaning
# (checked by the op's converter: SpaceToDepth's mode, Range's stash_type), or that the
# converter honours (QuantizeLinear's precision, DequantizeLinear's output_dtype).
_TOLERATED_NEW_ATTRS = {
    "Cast": {"round_mode"},
    "CastLike": {"round_mode"},
    "SpaceToDepth": {"mode"},
    "Range": {"stash_type"},
    "QuantizeLinear": {"precision"},
    "DequantizeLinear": {"output_dtype"},
}


def _interface(schema) -> tuple:
    ignored = _TOLERATED_NEW_ATTRS.get(schema.name, set())
    return (
        [(i.name, i.option) for i in schema.inputs],
        [(o.name, o.option) for o in schema.outputs],
        sorted((a.name, str(a.default_value)) for a in schema.attributes.values() if a.name not in ignored),
    )


def op_version(op_type: str, opset: int, domain: str = "") -> tuple[int | None, str]:
    """The version of an operator at an opset, mapped to the last version at or below
    MAX_OPSET when the later versions only added element types; (None, why) otherwise."""
    try:
        schema = onnx.defs.get_schema(op_type, opset, domain)
    except Exception:  # noqa: BLE001 - SchemaError: not an operator at this opset
        return None, "is not an operator of this opset"
    if schema.deprecated:
        return None, "is deprecated at this opset"
    version = schema.since_version
    while version > MAX_OPSET:
        try:
            prev = onnx.defs.get_schema(op_type, version - 1, domain)
        except Exception:  # noqa: BLE001 - an operator new after MAX_OPSET: its first version
            return version, ""
        if _interface(prev) != _interface(schema):
            return None, f"version {version} changed its inputs or attributes"
        schema, version = prev, prev.since_version
    return version, ""


def default_opset(model: onnx.ModelProto) -> int:
    for o in model.opset_import:
        if o.domain in DEFAULT_DOMAINS:
            return o.version
    return 1


# --- attributes -------------------------------------------------------------------------


def attributes(node: onnx.NodeProto) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for a in node.attribute:
        if a.ref_attr_name:
            out[a.name] = _REF
            continue
        value = helper.get_attribute_value(a)
        if isinstance(value, bytes):
            value = value.decode("utf-8", "replace")
        elif isinstance(value, list) and value and isinstance(value[0], bytes):
            value = [v.decode("utf-8", "replace") for v in value]
        out[a.name] = value
    return out


_REF = object()


# --- the support table: what each op type accepts ----------------------------------------


@dataclass
class NodeInfo:
    """What the pre-import check knows about a node (no IR is built yet)."""

    node: onnx.NodeProto
    version: int
    opset: int
    attrs: dict[str, Any]
    static: Callable[[str], bool]
    shape: Callable[[str], tuple | None]  # from ONNX shape inference, None when unknown
    elem: Callable[[str], int | None]

    def has(self, i: int) -> bool:
        return i < len(self.node.input) and bool(self.node.input[i])

    def is_static(self, i: int) -> bool:
        return not self.has(i) or self.static(self.node.input[i])

    def rank(self, i: int) -> int | None:
        s = self.shape(self.node.input[i]) if self.has(i) else None
        return None if s is None else len(s)

    def wants(self, i: int) -> bool:
        return i < len(self.node.output) and bool(self.node.output[i])

    def a(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)


Check = Callable[[NodeInfo], list[str]]
Converter = Callable[["Node"], Any]


@dataclass
class OpSpec:
    convert: Converter
    check: Check | None = None
    # Input positions that must be static (their values become properties), by version.
    static_inputs: Callable[[int], Sequence[int]] = lambda v: ()


OPS = Registry("ONNX converter")
"""ONNX op type -> its OpSpec (the registry convention: origin, levels, conflicts, listing)."""


def op(
    *op_types: str,
    check: Check | None = None,
    static: Callable[[int], Sequence[int]] | Sequence[int] = (),
    level: int = DEFAULT_LEVEL,
):
    """Register a converter for op types; ``static``: the input positions that must be
    constants (as a function of the op version, or fixed).  A plug-in registers its own the
    same way (a higher ``level`` replaces one of ours)."""

    def decorator(fn: Converter) -> Converter:
        static_fn = static if callable(static) else (lambda v, s=tuple(static): s)
        for t in op_types:
            OPS.register(t, OpSpec(fn, check, static_fn), level=level, origin=fn.__module__)
        return fn

    return decorator


def supported_op_types() -> list[str]:
    return OPS.names()


OUT_OF_SCOPE_OPS = {
    **{
        name: "sequence/optional/map types"
        for name in (
            "SequenceConstruct", "SequenceEmpty", "SequenceInsert", "SequenceErase", "SequenceAt",
            "SequenceLength", "SequenceMap", "SplitToSequence", "ConcatFromSequence", "Optional",
            "OptionalHasElement", "OptionalGetElement",
        )
    },
    **{
        name: "string tensors"
        for name in ("StringNormalizer", "StringConcat", "StringSplit", "RegexFullMatch", "TfIdfVectorizer")
    },
}  # fmt: skip


# --- the pre-import check ---------------------------------------------------------------


def _inline_functions(model: onnx.ModelProto) -> onnx.ModelProto:
    if not model.functions:
        return model
    try:
        from onnx import inliner

        return inliner.inline_local_functions(model)
    except Exception:  # noqa: BLE001 - leave them as unknown ops
        return model


DATA_PROP_ELEMENTS = 1 << 16
"""onnx's data propagation makes a dimension of each element of a rank-0/1 integer tensor (3 s for
2**24 into an Unsqueeze); shapes are short, so it runs only when every such tensor is at most this long."""


def _short_integer_vectors(graph: onnx.GraphProto) -> bool:
    for vi in [*graph.input, *graph.value_info, *graph.output]:
        t = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else 1 for d in t.shape.dim]
        if t.elem_type in _INTEGER_TYPES and len(dims) <= 1 and math.prod(dims) > DATA_PROP_ELEMENTS:
            return False
    if any(len(i.dims) <= 1 and math.prod(i.dims) > DATA_PROP_ELEMENTS for i in graph.initializer if i.data_type in _INTEGER_TYPES):
        return False
    return all(_short_integer_vectors(a.g) for n in graph.node for a in n.attribute if a.HasField("g"))


_INTEGER_TYPES = {TensorProto.INT8, TensorProto.INT16, TensorProto.INT32, TensorProto.INT64,
                  TensorProto.UINT8, TensorProto.UINT16, TensorProto.UINT32, TensorProto.UINT64}  # fmt: skip


def _shape_inference(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    types: dict[str, onnx.TypeProto] = {}
    graph = model.graph
    try:  # without data propagation first: the shapes tell whether it would take long
        graph = onnx.shape_inference.infer_shapes(model, strict_mode=False).graph
        if _short_integer_vectors(graph):
            graph = onnx.shape_inference.infer_shapes(model, strict_mode=False, data_prop=True).graph
    except Exception:  # noqa: BLE001 - inference is only a help
        pass
    for vi in list(graph.value_info) + list(graph.input) + list(graph.output):
        types[vi.name] = vi.type
    return types


def _tp_shape(tp: onnx.TypeProto | None) -> tuple | None:
    if tp is None or tp.WhichOneof("value") != "tensor_type" or not tp.tensor_type.HasField("shape"):
        return None
    return tuple(d.dim_value if d.HasField("dim_value") else None for d in tp.tensor_type.shape.dim)


@dataclass(frozen=True)
class NeedsStatic:
    """What a converter's ``check`` reports when a problem goes away once input ``index`` is
    known at import (the analysis names the graph inputs that flow into it)."""

    detail: str
    index: int


@dataclass
class Analysis:
    model: onnx.ModelProto
    opset: int
    problems: list[Problem]
    versions: list[int | None]  # per node
    types: dict[str, onnx.TypeProto]
    report: dict[tuple[str, str], dict] = field(default_factory=dict)
    evaluated: set[int] = field(default_factory=set)  # nodes folded by ONNX's reference (onnx_fold)
    failing: dict[int, list[Problem]] = field(default_factory=dict)  # refused nodes -> their problems


def analyse(model: onnx.ModelProto, constant_inputs: Iterable[str] = ()) -> Analysis:
    """Every unsupported feature of the model, and the op version of each node."""
    graph = model.graph
    opset = default_opset(model)
    problems: list[Problem] = []
    types = _shape_inference(model)
    constant_inputs = set(constant_inputs)
    report: dict[tuple[str, str], dict] = {}
    evaluated: set[int] = set()
    failing: dict[int, list[Problem]] = {}

    # Values: inputs, outputs, initializers.
    init_names = {t.name for t in graph.initializer}
    for vi in list(graph.input) + list(graph.output):
        found = type_problem(vi.type)
        if found is not None:
            category, detail = found
            problems.append(Problem(f"graph {'input' if vi in graph.input else 'output'} '{vi.name}'", None, detail, category))
    for t in graph.initializer:
        if t.data_type == TensorProto.STRING:
            problems.append(Problem(f"initializer '{t.name}'", None, "string tensors", "string tensors"))
        elif elem_dtype(t.data_type) is None:
            problems.append(Problem(f"initializer '{t.name}'", None, f"element type {elem_name(t.data_type)}"))
    if graph.sparse_initializer:
        problems.append(Problem("model", None, "sparse initializers"))

    static: set[str] = set(init_names) | constant_inputs
    input_names_ = {vi.name for vi in graph.input}
    deps: dict[str, frozenset[str]] = {
        vi.name: frozenset([vi.name]) for vi in graph.input if vi.name not in static
    }
    known_shape: dict[str, tuple | None] = {}
    for vi in graph.input:
        known_shape[vi.name] = _tp_shape(vi.type)
    for t in graph.initializer:
        known_shape[t.name] = tuple(t.dims)

    def shape(name: str) -> tuple | None:
        if name in known_shape and known_shape[name] is not None:
            return known_shape[name]
        return _tp_shape(types.get(name))

    def elem(name: str) -> int | None:
        tp = types.get(name)
        if tp is not None and tp.WhichOneof("value") == "tensor_type":
            return tp.tensor_type.elem_type
        return None

    versions: list[int | None] = []
    for index, node in enumerate(graph.node):
        domain = node.domain or ""
        op_type = node.op_type
        key = (domain or "ai.onnx", op_type)
        entry = report.setdefault(key, {"opset": None, "count": 0, "problems": []})
        entry["count"] += 1
        node_problems: list[Problem] = []
        version: int | None = None
        if domain == TRAINING_DOMAIN:
            dom_opset = next((o.version for o in model.opset_import if o.domain == domain), None)
            node_problems.append(Problem(op_type, dom_opset, "", "training operators"))
        elif domain not in DEFAULT_DOMAINS:
            dom_opset = next((o.version for o in model.opset_import if o.domain == domain), None)
            node_problems.append(Problem(f"{domain}.{op_type}", dom_opset, "(operator domain not supported)"))
        else:
            entry["opset"] = opset
            if op_type in OUT_OF_SCOPE_OPS:
                node_problems.append(Problem(op_type, opset, "", OUT_OF_SCOPE_OPS[op_type]))
            elif op_type not in OPS:
                node_problems.append(Problem(op_type, opset))
            else:
                version, why = op_version(op_type, max(opset, MIN_OPSET))
                if version is None:
                    node_problems.append(Problem(op_type, opset, why))
                elif opset < MIN_OPSET:
                    # Before opset 6: accepted where the operator is unchanged since.
                    old_version, _ = op_version(op_type, opset)
                    if old_version != version:
                        node_problems.append(Problem(op_type, opset, f"(version {old_version}; strati follows opsets {MIN_OPSET} to {MAX_OPSET} and later)"))
        # String tensors flowing through any node are out of scope.
        if not node_problems:
            for name in list(node.input) + list(node.output):
                if name and elem(name) == TensorProto.STRING:
                    node_problems.append(Problem(op_type, opset, "", "string tensors"))
                    break
            for a in node.attribute:
                if a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) and op_type not in ("If", "Loop", "Scan"):
                    node_problems.append(Problem(op_type, opset, "(subgraphs)"))
                    break
        if not node_problems and version is not None:
            info = NodeInfo(node, version, opset, attributes(node), lambda n: n in static, shape, elem)
            spec = OPS[op_type]
            if any(v is _REF for v in info.attrs.values()):
                node_problems.append(Problem(op_type, opset, "(attribute references)"))
            if spec.check is not None:
                for detail in spec.check(info):
                    if isinstance(detail, NeedsStatic):  # the graph inputs that flow into that input
                        needs = tuple(sorted(deps.get(node.input[detail.index], ()))) if info.has(detail.index) else ()
                        node_problems.append(Problem(op_type, opset, detail.detail, needs_constant=needs))
                    else:
                        node_problems.append(Problem(op_type, opset, detail))
            for i in spec.static_inputs(version):
                if info.has(i) and not info.is_static(i):
                    needs = tuple(sorted(deps.get(node.input[i], ())))
                    schema_inputs = _input_names(op_type, version)
                    what = schema_inputs[i] if i < len(schema_inputs) else f"input {i}"
                    node_problems.append(Problem(op_type, opset, f"{what} input is not a constant", needs_constant=needs))
        if (
            node_problems
            and domain in DEFAULT_DOMAINS
            and not any(p.out_of_scope for p in node_problems)
            and onnx_fold.foldable(node, static.__contains__, shape, FOLD_LIMIT)
        ):
            evaluated.add(index)  # only constants in: evaluated at import, whatever the op
            node_problems = []
        problems += node_problems
        if node_problems:
            failing[index] = node_problems
        entry["problems"] += [p for p in node_problems if p not in entry["problems"]]
        versions.append(version)
        # Static values for the following nodes (as the import will fold them).  This is
        # optimistic past unsupported nodes, so that only the root causes are reported.
        if domain in DEFAULT_DOMAINS:
            if op_type in ("Shape", "Size"):
                # Static unless the input is a graph input with a dynamic dimension
                # (deeper down, the import finds out from the types it builds).
                s = known_shape.get(node.input[0]) if node.input and node.input[0] in input_names_ else None
                if s is None or None not in s:
                    static.update(o for o in node.output if o)
            elif op_type == "CastLike" and node.input and node.input[0] in static:
                static.update(o for o in node.output if o)  # the second input gives only a type
            elif op_type == "Constant" or all(not n or n in static for n in node.input):
                static.update(o for o in node.output if o)
            else:
                # The graph inputs whose values flow into the outputs.
                used = node.input[:1] if op_type == "CastLike" else node.input
                flow = frozenset().union(*(deps.get(n, frozenset()) for n in used if n and n not in static))
                deps.update((o, flow) for o in node.output if o)
            for o in node.output:
                if o and o not in known_shape:
                    known_shape[o] = _tp_shape(types.get(o))
    return Analysis(model, opset, problems, versions, types, report, evaluated, failing)


def _input_names(op_type: str, version: int) -> list[str]:
    try:
        return [i.name for i in onnx.defs.get_schema(op_type, version).inputs]
    except Exception:  # noqa: BLE001
        return []


def expanded_analysis(proto: onnx.ModelProto, constant_inputs: Iterable[str] = ()) -> tuple[onnx.ModelProto, Analysis]:
    """The model with refused nodes replaced by their ONNX function bodies (onnx_functions), analysed."""
    constant_inputs = tuple(constant_inputs)
    return onnx_functions.expand_functions(proto, lambda m: analyse(m, constant_inputs))


def check_model(model: str | Path | onnx.ModelProto, constant_inputs: Iterable[str] = ()) -> list[Problem]:
    """Every unsupported feature of a model (empty when it imports)."""
    proto = _inline_functions(load_model(model))
    return expanded_analysis(proto, constant_inputs)[1].problems


def support_report(model: str | Path | onnx.ModelProto) -> str:
    """One line per op type in the model: supported, or what is not."""
    source = _inline_functions(load_model(model))
    proto, analysis = expanded_analysis(source)
    # The model's own op types; one whose nodes were all expanded is supported through its body.
    report = analysis.report if proto is source else analyse(source).report
    rows = []
    for (domain, op_type), entry in sorted(report.items(), key=lambda kv: (kv[0][0] != "ai.onnx", kv[0][1])):
        name = op_type if domain == "ai.onnx" else f"{domain}.{op_type}"
        opset = "" if entry["opset"] is None else str(entry["opset"])
        expanded = (domain, op_type) not in analysis.report
        entry = entry if expanded else {**analysis.report[(domain, op_type)], "count": entry["count"]}
        if expanded:
            status = "supported (through its ONNX function body)"
        elif not entry["problems"]:
            status = "supported"
        else:
            reasons = []
            for p in entry["problems"]:
                if p.out_of_scope:
                    reasons.append(f"out of scope ({p.category})")
                else:
                    reasons.append(p.detail or "operator not supported")
            status = "unsupported: " + "; ".join(dict.fromkeys(reasons))
        rows.append((name, opset, str(entry["count"]), status))
    other = [p for p in analysis.problems if p.op_type.startswith(("graph ", "initializer", "model"))]
    header = ("op type", "opset", "nodes", "status")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(3)]
    lines = [f"{header[0]:<{widths[0]}}  {header[1]:>{widths[1]}}  {header[2]:>{widths[2]}}  {header[3]}"]
    for r in rows:
        lines.append(f"{r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]}")
    for p in other:
        lines.append(f"{p}: {'out of scope (' + p.category + ')' if p.out_of_scope else 'unsupported'}")
    n_bad = sum(1 for r in rows if r[3].startswith("unsupported"))
    verdict = "the model imports" if not analysis.problems else f"the model does not import ({n_bad} of {len(rows)} op types unsupported)"
    lines.append(f"{len(rows)} op types, {sum(e['count'] for e in report.values())} nodes: {verdict}")
    return "\n".join(lines) + "\n"


# --- the importer -----------------------------------------------------------------------

_OP_CLASSES: dict[str, type[Operation]] = {cls.name: cls for cls in [*gops.ALL_OPS, *QUANT_OPS]}


def _prop(value: Any) -> Attribute:
    if isinstance(value, Attribute):
        return value
    if isinstance(value, (bool, np.bool_)):
        return IntegerAttr(int(value), i1)
    if isinstance(value, (int, np.integer)):
        return IntegerAttr(int(value), i64)
    if isinstance(value, (float, np.floating)):
        return FloatAttr(float(value), f64)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, (tuple, list, np.ndarray)):
        return DenseArrayBase.from_list(i64, [int(v) for v in value])
    raise TypeError(f"cannot make a property of {value!r}")


class Importer:
    """Builds the function: values by ONNX name, static values folded as they go."""

    def __init__(self, model: onnx.ModelProto, analysis: Analysis, constant_inputs: Mapping[str, np.ndarray]):
        self.model = model
        self.graph = model.graph
        self.analysis = analysis
        self.opset = analysis.opset
        self.constant_inputs = dict(constant_inputs)
        self.values: dict[str, SSAValue] = {}
        self.known: dict[SSAValue, np.ndarray] = {}
        self.static: dict[str, np.ndarray] = {}  # ONNX values known at import, not yet materialized
        self.block = Block()
        self.loc: Attribute = UnknownLoc()
        self.node_label = ""
        self.taken: set[str] = set()
        self._const_cache: dict[tuple, SSAValue] = {}
        self._init_locs: dict[str, Attribute] = {}  # where static values were defined

    # -- values

    def set_loc(self, name: str | bytes) -> None:
        self.loc = name_loc(name)

    def value(self, name: str) -> SSAValue:
        if name not in self.values:
            if name not in self.static:
                raise NodeError(f"value '{name}' is not defined before its use")
            saved = self.loc
            if name in self._init_locs:
                self.loc = self._init_locs[name]
            v = self.constant(self.static[name], cache=False)
            v.name_hint = sanitize(name)
            self.loc = saved
            self.values[name] = v
        return self.values[name]

    def static_value(self, name: str) -> np.ndarray | None:
        if name in self.static:
            return self.static[name]
        v = self.values.get(name)
        return None if v is None else self.known.get(v)

    def constant(self, array: np.ndarray, cache: bool = True) -> SSAValue:
        array = np.asarray(array)
        key = None
        if cache and array.size <= 16:
            key = (array.dtype.str, array.shape, array.tobytes(), str(self.loc))
            if key in self._const_cache:
                return self._const_cache[key]
        c = ConstantOp(dense_from_numpy(array))
        c.location = self.loc
        self.block.add_op(c)
        self.known[c.result] = array
        if key is not None:
            self._const_cache[key] = c.result
        return c.result

    def scalar(self, value: Any, dtype: np.dtype) -> SSAValue:
        dtype = np.dtype(dtype)
        if dtype.kind in "iu" and not isinstance(value, (bool, np.bool_)):
            info = np.iinfo(dtype)
            if not (math.isfinite(float(value)) and info.min <= float(value) <= info.max):
                raise NodeError(f"{value} is not a value of {dtype}")
        return self.constant(np.array(value, dtype=dtype))

    # -- ops

    def op(
        self,
        name: str,
        operands: Sequence[SSAValue],
        props: Mapping[str, Any] | None = None,
        result_type: Attribute | Sequence[Attribute] | None = None,
        results: int = 1,
    ) -> Any:
        """Build one graph op; its result types from its ``infer_type`` (``result_type``
        gives the target of reshape, broadcast_to, resize and cast).  An op whose operands
        are all constants is folded into constants.  Returns the result (or the list of them)."""
        cls = _OP_CLASSES[name]
        properties = {k: _prop(v) for k, v in (props or {}).items() if v is not None}
        if result_type is None:
            placeholder = [operands[0].type] * results
        elif isinstance(result_type, Attribute):
            placeholder = [result_type]
        else:
            placeholder = list(result_type)
        op_def = cls.get_irdl_definition()
        try:
            grouped_operands = group_by_defs(op_def.operands, list(operands), "operand")
            grouped_results = group_by_defs(op_def.results, placeholder, "result")
        except VerifyException as err:
            raise NodeError(f"{name}: {err}") from None
        probe = cls.build(operands=grouped_operands, result_types=grouped_results, properties=properties)
        infer = registry.get_op_attr(name, "infer_type")
        final = probe
        if infer is not None:
            try:
                types = list(infer(probe))
            except VerifyException as err:
                probe.drop_all_references()
                raise NodeError(f"{name}: {diagnostic_message(err)}") from None
            if types != placeholder:
                probe.drop_all_references()
                final = cls.build(
                    operands=grouped_operands,
                    result_types=group_by_defs(op_def.results, types, "result"),
                    properties=properties,
                )
        final.location = self.loc
        folded = self._fold(final)
        if folded is not None:
            final.drop_all_references()
            outs = folded
        else:
            self.block.add_op(final)
            outs = list(final.results)
        return outs[0] if results == 1 and len(outs) == 1 else outs

    def _fold(self, op: Operation) -> list[SSAValue] | None:
        if not op.operands or not all(v in self.known for v in op.operands):
            return None
        total = 0
        for r in op.results:
            shape = shape_of(r.type)
            if None in shape:
                return None
            total += math.prod(shape)
        if total > FOLD_LIMIT:
            return None
        reference = registry.get_op_attr(op.name, "reference")
        if reference is None:
            return None
        try:
            outs = call_reference(reference, op, *[self.known[v] for v in op.operands])
        except StratiError as err:
            raise NodeError(err.message) from None
        outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
        values = []
        for r, o in zip(op.results, outs):
            o = np.asarray(o).astype(to_dtype(r.type.get_element_type()), copy=False)
            values.append(self.constant(o, cache=False))
        return values

    # -- common compositions

    def reshape(self, x: SSAValue, shape: Sequence[int | None]) -> SSAValue:
        if tuple(shape_of(x.type)) == tuple(shape):
            return x
        return self.op("graph.reshape", [x], result_type=make_tensor(shape, x.type.get_element_type()))

    def transpose(self, x: SSAValue, perm: Sequence[int]) -> SSAValue:
        if list(perm) == list(range(len(perm))):
            return x
        return self.op("graph.transpose", [x], {"perm": tuple(perm)})

    def cast(self, x: SSAValue, dtype: np.dtype, saturate: bool = True) -> SSAValue:
        element = from_dtype(dtype)
        props = {} if saturate else {"saturate": False}
        return self.op("graph.cast", [x], props, result_type=make_tensor(shape_of(x.type), element))

    def broadcast_to(self, x: SSAValue, shape: Sequence[int]) -> SSAValue:
        if tuple(shape_of(x.type)) == tuple(shape):
            return x
        return self.op("graph.broadcast_to", [x], result_type=make_tensor(shape, x.type.get_element_type()))

    def pad(self, x: SSAValue, pads: Sequence[int], value: float = 0.0, mode: str = "constant") -> SSAValue:
        if not any(pads):
            return x
        return self.op("graph.pad", [x], {"pads": tuple(pads), "mode": mode, "value": float(value)})

    def unary(self, name: str, x: SSAValue) -> SSAValue:
        return self.op(f"graph.{name}", [x])

    def binary(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op(f"graph.{name}", [a, b])

    # -- nodes

    def convert(self, node: onnx.NodeProto, label: str, version: int | None, evaluated: bool = False) -> None:
        """Build one node (or fold it, ``evaluated``) and record its outputs by ONNX name."""
        self.set_loc(label)
        self.node_label = f"node '{label}' ({node.op_type}, opset {self.opset})"
        n = Node(self, node, version)
        try:
            outs = _evaluate(n) if evaluated else OPS[node.op_type].convert(n)
        except NodeError as err:
            raise StratiError(f"{self.node_label}: {err}") from None
        if not isinstance(outs, (list, tuple)):
            outs = [outs]
        for name, v in zip(node.output, outs):
            if not name or v is None:
                continue
            if isinstance(v, np.ndarray):
                self.static[name] = v
                self._init_locs[name] = self.loc
                continue
            if v.name_hint is None and v.owner is not None and not isinstance(v.owner, Block):
                v.name_hint = sanitize(name)
            self.values[name] = v

    # -- the whole graph

    def run(self) -> ModuleOp:
        graph = self.graph
        init_names = {t.name for t in graph.initializer}
        for t in graph.initializer:
            self.static[t.name] = _tensor_array(t)
            self._init_locs[t.name] = name_loc(t.name)
        args: list[tuple[str, TensorType]] = []
        for vi in graph.input:
            if vi.name in init_names:
                continue
            if vi.name in self.constant_inputs:
                self.static[vi.name] = np.asarray(self.constant_inputs[vi.name])
                self._init_locs[vi.name] = name_loc(vi.name)
                continue
            args.append((vi.name, _value_type(vi)))
        self.block = Block(arg_types=[t for _, t in args])
        for (name, _), arg in zip(args, self.block.args):
            arg.name_hint = sanitize(name, self.taken)
            self.values[name] = arg

        for index, node in enumerate(graph.node):
            version = self.analysis.versions[index]
            assert version is not None or index in self.analysis.evaluated
            self.convert(node, node.name or f"{node.op_type}_{index}", version, index in self.analysis.evaluated)

        self.set_loc("outputs")
        results = []
        for vi in graph.output:
            try:
                results.append(self.value(vi.name))
            except NodeError as err:
                raise StratiError(f"graph output '{vi.name}': {err}") from None
        ret = func.ReturnOp(*results)
        ret.location = UnknownLoc()
        self.block.add_op(ret)
        _erase_dead(self.block)
        fn = func.FuncOp(
            symbol_name(graph.name or "main"),
            FunctionType.from_lists([t for _, t in args], [r.type for r in results]),
            Region(self.block),
        )
        fn.arg_attrs = name_attrs([text(n) for n, _ in args])
        fn.res_attrs = name_attrs([text(vi.name) for vi in graph.output])
        module = ModuleOp([fn])
        diag = verify_module(module)
        if diag is not None:
            raise StratiError(f"the imported module does not verify (a bug in the importer): {diag}")
        return module


def _evaluate(n: Node) -> list[np.ndarray]:
    """A node the check found foldable, by ONNX's reference evaluator (see onnx_fold)."""
    inputs = []
    for i in range(n.n_inputs):
        value = n.const(i)
        if n.has(i) and value is None:
            raise NodeError(f"input '{n.proto.input[i]}' is not a constant at import (needed to fold the node)")
        inputs.append(value)
    try:
        return onnx_fold.evaluate(n.proto, inputs, n.b.opset, FOLD_LIMIT)
    except onnx_fold.FoldError as err:
        raise NodeError(str(err)) from None


def _erase_dead(block: Block) -> None:
    for op_ in reversed(list(block.ops)):
        if op_.name.startswith("graph.") and not any(r.uses for r in op_.results):
            block.erase_op(op_)


def _tensor_array(t: TensorProto) -> np.ndarray:
    if t.data_location == TensorProto.EXTERNAL:  # load_model has read every one it may read
        raise StratiError(f"tensor '{t.name}' has external data that was not loaded (give the model by its path)")
    try:
        array = numpy_helper.to_array(t)
    except ValueError as err:  # data that does not fill its dims
        raise StratiError(f"tensor '{t.name}' does not hold the data its dims {list(t.dims)} declare ({err})") from None
    dtype = elem_dtype(t.data_type)
    if dtype is not None and array.dtype != dtype:
        array = array.astype(dtype)
    return array if array.flags.c_contiguous else array.copy(order="C")  # (ascontiguousarray makes 0-d 1-d)


def _value_type(vi: onnx.ValueInfoProto) -> TensorType:
    tt = vi.type.tensor_type
    dtype = elem_dtype(tt.elem_type)
    if dtype is None:
        raise StratiError(f"graph input '{vi.name}' has element type {elem_name(tt.elem_type)}")
    if not tt.HasField("shape"):
        raise StratiError(f"graph input '{vi.name}' has no shape (strati needs the rank at least)")
    shape = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
    return make_tensor(shape, from_dtype(dtype))


class Node:
    """One ONNX node being converted: its inputs, attributes and the builder."""

    def __init__(self, imp: Importer, proto: onnx.NodeProto, version: int):
        self.b = imp
        self.proto = proto
        self.op_type = proto.op_type
        self.v = version
        self.attrs = attributes(proto)

    # inputs
    def has(self, i: int) -> bool:
        return i < len(self.proto.input) and bool(self.proto.input[i])

    @property
    def n_inputs(self) -> int:
        return len(self.proto.input)

    def x(self, i: int) -> SSAValue:
        if not self.has(i):
            raise NodeError(f"input {i} is missing")
        return self.b.value(self.proto.input[i])

    def inputs(self) -> list[SSAValue]:
        return [self.x(i) for i in range(self.n_inputs) if self.has(i)]

    def const(self, i: int) -> np.ndarray | None:
        if not self.has(i):
            return None
        return self.b.static_value(self.proto.input[i])

    def need_const(self, i: int, what: str) -> np.ndarray:
        value = self.const(i)
        if value is None:
            raise NodeError(f"{what} (input {i}) must be a constant")
        return value

    def shape(self, i: int) -> tuple:
        name = self.proto.input[i]
        s = self.b.static_value(name)
        if s is not None:
            return s.shape
        return shape_of(self.x(i).type)

    def static_shape(self, i: int) -> tuple[int, ...]:
        s = self.shape(i)
        if None in s:
            raise NodeError(f"input {i} needs a static shape, got {list(s)}")
        return tuple(s)

    def dtype(self, i: int) -> np.dtype:
        s = self.b.static_value(self.proto.input[i])
        if s is not None:
            return s.dtype
        return to_dtype(self.x(i).type.get_element_type())

    def rank(self, i: int) -> int:
        return len(self.shape(i))

    # outputs and attributes
    def wants(self, i: int) -> bool:
        return i < len(self.proto.output) and bool(self.proto.output[i])

    @property
    def n_outputs(self) -> int:
        return len(self.proto.output)

    def a(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)

    def ints(self, name: str, default: Sequence[int] | None = None) -> list[int] | None:
        value = self.attrs.get(name)
        return list(default) if value is None and default is not None else (None if value is None else [int(v) for v in value])


# --- converters ---------------------------------------------------------------------------


def _unsupported_attr(info: NodeInfo, name: str, allowed: Iterable[Any], default: Any) -> list[str]:
    value = info.a(name, default)
    return [] if value in allowed else [f"{name}={value}"]


# Elementwise unary ops that the graph dialect has.
_UNARY = {
    "Relu": "relu", "Sigmoid": "sigmoid", "Tanh": "tanh", "Exp": "exp", "Log": "log", "Sqrt": "sqrt",
    "Abs": "abs", "Neg": "neg", "Erf": "erf",
}  # fmt: skip


@op(*_UNARY)
def _unary(n: Node):
    return n.b.unary(_UNARY[n.op_type], n.x(0))


@op("Identity")
def _identity(n: Node):
    value = n.const(0)
    return value if value is not None else n.x(0)


@op("Reciprocal")
def _reciprocal(n: Node):
    return n.b.binary("div", n.b.scalar(1, n.dtype(0)), n.x(0))


def _legacy_broadcast(n: Node, a: SSAValue, b: SSAValue) -> tuple[SSAValue, SSAValue]:
    """Before opset 7, ``broadcast=1`` broadcasts b to a, aligned at ``axis`` when given."""
    if n.v >= 7 or not n.a("broadcast", 0):
        return a, b
    axis = n.a("axis")
    ra, rb = len(shape_of(a.type)), len(shape_of(b.type))
    if axis is None or rb == 0:
        return a, b
    if not -ra <= axis < ra:
        raise NodeError(f"broadcast axis {axis} is out of range for a of rank {ra}")
    axis = axis + ra if axis < 0 else axis
    trailing = ra - axis - rb
    if trailing < 0:
        raise NodeError(f"broadcast axis {n.a('axis')} does not fit b of rank {rb} into a of rank {ra}")
    return a, n.b.reshape(b, tuple(shape_of(b.type)) + (1,) * trailing)


_BINARY = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Pow": "pow"}


@op(*_BINARY)
def _binary(n: Node):
    a, b = _legacy_broadcast(n, n.x(0), n.x(1))
    return n.b.binary(_BINARY[n.op_type], a, b)


@op("Max", "Min", "Sum", "Mean")
def _variadic(n: Node):
    name = {"Max": "maximum", "Min": "minimum", "Sum": "add", "Mean": "add"}[n.op_type]
    xs = n.inputs()
    if not xs:
        raise NodeError("needs at least one input")
    y = xs[0]
    for x in xs[1:]:
        y = n.b.binary(name, y, x)
    if n.op_type == "Mean" and len(xs) > 1:
        y = n.b.binary("div", y, n.b.scalar(len(xs), n.dtype(0)))
    elif len(xs) == 1:
        y = n.b.op("graph.identity", [y])
    return y


_COMPARE = {"Equal": "equal", "Less": "less", "Greater": "greater"}


@op(*_COMPARE)
def _compare(n: Node):
    a, b = _legacy_broadcast(n, n.x(0), n.x(1))
    return n.b.binary(_COMPARE[n.op_type], a, b)


def _true(n: Node) -> SSAValue:
    return n.b.scalar(True, np.bool_)


def _false(n: Node) -> SSAValue:
    return n.b.scalar(False, np.bool_)


def _not(n: Node, x: SSAValue) -> SSAValue:
    return n.b.binary("equal", x, _false(n))


@op("LessOrEqual", "GreaterOrEqual")
def _compare_or_equal(n: Node):
    a, b = n.x(0), n.x(1)
    strict = n.b.binary("less" if n.op_type == "LessOrEqual" else "greater", a, b)
    equal = n.b.binary("equal", a, b)
    return n.b.op("graph.where", [strict, _true(n), equal])


@op("Not")
def _logical_not(n: Node):
    return _not(n, n.x(0))


@op("And", "Or", "Xor")
def _logical(n: Node):
    a, b = _legacy_broadcast(n, n.x(0), n.x(1))
    if n.op_type == "And":
        return n.b.op("graph.where", [a, b, _false(n)])
    if n.op_type == "Or":
        return n.b.op("graph.where", [a, _true(n), b])
    return _not(n, n.b.binary("equal", a, b))


@op("Where")
def _where(n: Node):
    return n.b.op("graph.where", [n.x(0), n.x(1), n.x(2)])


@op("IsNaN")
def _isnan(n: Node):
    x = n.x(0)
    return _not(n, n.b.binary("equal", x, x))


@op("IsInf")
def _isinf(n: Node):
    x = n.x(0)
    dtype = n.dtype(0)
    pos, neg = n.a("detect_positive", 1), n.a("detect_negative", 1)
    if pos and neg:
        return n.b.binary("equal", n.b.unary("abs", x), n.b.scalar(np.inf, dtype))
    if pos:
        return n.b.binary("equal", x, n.b.scalar(np.inf, dtype))
    if neg:
        return n.b.binary("equal", x, n.b.scalar(-np.inf, dtype))
    return n.b.broadcast_to(_false(n), n.static_shape(0))


@op("Clip")
def _clip(n: Node):
    x = n.x(0)
    dtype = n.dtype(0)
    if n.v < 11:
        if dtype.kind not in "f":
            raise NodeError(f"Clip before opset 11 takes floats, not {dtype}")
        lo, hi = n.a("min"), n.a("max")
        lo_v = None if lo is None else n.b.scalar(lo, dtype)
        hi_v = None if hi is None else n.b.scalar(hi, dtype)
    else:
        lo_c, hi_c = n.const(1), n.const(2)
        lo = None if lo_c is None else lo_c.reshape(-1)[0].item()
        hi = None if hi_c is None else hi_c.reshape(-1)[0].item()
        if (n.has(1) and lo_c is None) or (n.has(2) and hi_c is None) or dtype.kind in "iu":
            # Bounds known only at run time (or integers beyond a double's precision):
            # min(max(x, lo), hi), which is also ONNX's rule when lo > hi.
            y = x
            if n.has(1):
                y = n.b.binary("maximum", y, n.x(1))
            if n.has(2):
                y = n.b.binary("minimum", y, n.x(2))
            return y if (n.has(1) or n.has(2)) else n.b.op("graph.identity", [x])
        lo_v = hi_v = None
    if lo is not None and hi is not None and lo > hi:
        # ONNX: every value becomes max.
        return n.b.binary("minimum", n.b.binary("maximum", x, lo_v or n.b.scalar(lo, dtype)), hi_v or n.b.scalar(hi, dtype))
    return n.b.op("graph.clip", [x], {"min": None if lo is None else float(lo), "max": None if hi is None else float(hi)})


# -- activations (the graph op, or an exact composition of graph ops)


@op("LeakyRelu")
def _leaky_relu(n: Node):
    return n.b.op("graph.leaky_relu", [n.x(0)], {"alpha": float(n.a("alpha", 0.01))})


@op("Gelu", check=lambda info: _unsupported_attr(info, "approximate", ("none", "tanh"), "none"))
def _gelu(n: Node):
    return n.b.op("graph.gelu", [n.x(0)], {"approximate": n.a("approximate", "none")})


def _positive(n: Node, x: SSAValue) -> SSAValue:
    return n.b.binary("greater", x, n.b.scalar(0, n.dtype(0)))


@op("Elu")
def _elu(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    alpha = n.b.scalar(n.a("alpha", 1.0), dtype)
    neg = n.b.binary("mul", alpha, n.b.binary("sub", n.b.unary("exp", x), n.b.scalar(1, dtype)))
    return n.b.op("graph.where", [n.b.binary("less", x, n.b.scalar(0, dtype)), neg, x])


@op("Selu")
def _selu(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    alpha = n.b.scalar(n.a("alpha", 1.67326319217681884765625), dtype)
    gamma = n.b.scalar(n.a("gamma", 1.05070102214813232421875), dtype)
    neg = n.b.binary("sub", n.b.binary("mul", alpha, n.b.unary("exp", x)), alpha)
    y = n.b.op("graph.where", [_positive(n, x), x, neg])
    return n.b.binary("mul", gamma, y)


@op("Celu")
def _celu(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    alpha = n.b.scalar(n.a("alpha", 1.0), dtype)
    zero = n.b.scalar(0, dtype)
    e = n.b.binary("sub", n.b.unary("exp", n.b.binary("div", x, alpha)), n.b.scalar(1, dtype))
    return n.b.binary("add", n.b.binary("maximum", x, zero), n.b.binary("minimum", zero, n.b.binary("mul", alpha, e)))


@op("ThresholdedRelu")
def _thresholded_relu(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    return n.b.op("graph.where", [n.b.binary("greater", x, n.b.scalar(n.a("alpha", 1.0), dtype)), x, n.b.scalar(0, dtype)])


def _hard_sigmoid(n: Node, x: SSAValue, alpha: float, beta: float) -> SSAValue:
    dtype = n.dtype(0)
    y = n.b.binary("add", n.b.binary("mul", x, n.b.scalar(alpha, dtype)), n.b.scalar(beta, dtype))
    return n.b.op("graph.clip", [y], {"min": 0.0, "max": 1.0})


@op("HardSigmoid")
def _hardsigmoid(n: Node):
    return _hard_sigmoid(n, n.x(0), n.a("alpha", 0.2), n.a("beta", 0.5))


@op("HardSwish")
def _hardswish(n: Node):
    x = n.x(0)
    return n.b.binary("mul", x, _hard_sigmoid(n, x, 1 / 6, 0.5))


def _softplus(n: Node, x: SSAValue) -> SSAValue:
    return n.b.unary("log", n.b.binary("add", n.b.unary("exp", x), n.b.scalar(1, n.dtype(0))))


@op("Softplus")
def _softplus_op(n: Node):
    return _softplus(n, n.x(0))


@op("Softsign")
def _softsign(n: Node):
    x = n.x(0)
    return n.b.binary("div", x, n.b.binary("add", n.b.unary("abs", x), n.b.scalar(1, n.dtype(0))))


@op("Mish")
def _mish(n: Node):
    x = n.x(0)
    return n.b.binary("mul", x, n.b.unary("tanh", _softplus(n, x)))


@op("PRelu")
def _prelu(n: Node):
    x, slope = n.x(0), n.x(1)
    xs, ss = n.shape(0), n.shape(1)
    if n.v < 7 and len(ss) == 1 and len(xs) > 2 and ss[0] == xs[1] and ss[0] != 1:
        slope = n.b.reshape(slope, (ss[0],) + (1,) * (len(xs) - 2))  # per channel, before opset 7
    neg = n.b.binary("mul", x, slope)
    return n.b.op("graph.where", [n.b.binary("less", x, n.b.scalar(0, n.dtype(0))), neg, x])


@op("Shrink")
def _shrink(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    lambd, bias = n.a("lambd", 0.5), n.a("bias", 0.0)
    lo_t, hi_t = -lambd, lambd
    if dtype.kind in "iu":  # beyond the type's range a comparison is constant: clamp the threshold
        info = np.iinfo(dtype)
        lo_t, hi_t = (min(max(t, info.min), info.max) for t in (lo_t, hi_t))
    lo = n.b.binary("less", x, n.b.scalar(lo_t, dtype))
    hi = n.b.binary("greater", x, n.b.scalar(hi_t, dtype))
    b = n.b.scalar(bias, dtype)
    inner = n.b.op("graph.where", [hi, n.b.binary("sub", x, b), n.b.scalar(0, dtype)])
    return n.b.op("graph.where", [lo, n.b.binary("add", x, b), inner])


@op("Sign")
def _sign(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    zero = n.b.scalar(0, dtype)
    neg = n.b.op("graph.where", [n.b.binary("less", x, zero), n.b.scalar(-1 if dtype.kind != "u" else 0, dtype), zero])
    y = n.b.op("graph.where", [n.b.binary("greater", x, zero), n.b.scalar(1, dtype), neg])
    if dtype.kind == "f":
        y = n.b.op("graph.where", [n.b.binary("equal", x, x), y, x])  # NaN stays NaN
    return y


def _float_bits(dtype: np.dtype) -> int:
    return {2: 10, 4: 23, 8: 52}[dtype.itemsize]


@op("Floor", "Ceil")
def _floor_ceil(n: Node):
    """Through a cast to i64 where |x| < 2**mantissa bits (beyond, every float is an
    integer already; NaN and inf fail the test and pass through): exact up to the sign of zero."""
    x, dtype = n.x(0), n.dtype(0)
    if dtype.kind != "f":
        return n.b.op("graph.identity", [x])
    t = n.b.cast(n.b.cast(x, np.dtype(np.int64)), dtype)
    one = n.b.scalar(1, dtype)
    if n.op_type == "Floor":
        fixed = n.b.op("graph.where", [n.b.binary("greater", t, x), n.b.binary("sub", t, one), t])
    else:
        fixed = n.b.op("graph.where", [n.b.binary("less", t, x), n.b.binary("add", t, one), t])
    small = n.b.binary("less", n.b.unary("abs", x), n.b.scalar(2.0 ** _float_bits(dtype), dtype))
    return n.b.op("graph.where", [small, fixed, x])


def _int_floor_parts(n: Node, x: SSAValue, dtype: np.dtype) -> tuple[SSAValue, SSAValue]:
    """floor(x) as a float and as an i64, for |x| < 2**mantissa bits."""
    i = n.b.cast(x, np.dtype(np.int64))
    t = n.b.cast(i, dtype)
    above = n.b.binary("greater", t, x)
    f = n.b.op("graph.where", [above, n.b.binary("sub", t, n.b.scalar(1, dtype)), t])
    fi = n.b.op("graph.where", [above, n.b.binary("sub", i, n.b.scalar(1, np.int64)), i])
    return f, fi


@op("Round")
def _round(n: Node):
    """Half to even, from floor(x) and the parity of floor(x); |x| >= 2**mantissa bits,
    NaN and inf pass through (they are integral already)."""
    x, dtype = n.x(0), n.dtype(0)
    if dtype.kind != "f":
        return n.b.op("graph.identity", [x])
    return round_half_even(n, x, dtype)


def round_half_even(n: Node, x: SSAValue, dtype: np.dtype) -> SSAValue:
    """``x`` (floating point) rounded half to even, as numpy's rint."""
    f, fi = _int_floor_parts(n, x, dtype)
    up = n.b.binary("add", f, n.b.scalar(1, dtype))
    frac = n.b.binary("sub", x, f)
    half = n.b.scalar(0.5, dtype)
    two = n.b.scalar(2, np.int64)
    even = n.b.binary("equal", n.b.binary("sub", fi, n.b.binary("mul", n.b.binary("div", fi, two), two)), n.b.scalar(0, np.int64))
    tie = n.b.op("graph.where", [even, f, up])
    r = n.b.op("graph.where", [n.b.binary("less", frac, half), f, tie])
    r = n.b.op("graph.where", [n.b.binary("greater", frac, half), up, r])
    small = n.b.binary("less", n.b.unary("abs", x), n.b.scalar(2.0 ** _float_bits(dtype), dtype))
    return n.b.op("graph.where", [small, r, x])


@op("Mod")
def _mod(n: Node):
    return n.b.op("graph.mod", [n.x(0), n.x(1)], {"fmod": bool(n.a("fmod", 0))})


@op("Trilu", static=(1,))
def _trilu(n: Node):
    shape = n.static_shape(0)
    k = 0 if not n.has(1) else int(n.need_const(1, "k").reshape(-1)[0])
    rows, cols = shape[-2], shape[-1]
    diff = np.arange(cols)[None, :] - np.arange(rows)[:, None]
    mask = diff >= k if n.a("upper", 1) else diff <= k
    x = n.x(0)
    return n.b.op("graph.where", [n.b.constant(mask), x, n.b.scalar(0, n.dtype(0))])


@op("EyeLike")
def _eye_like(n: Node):
    rows, cols = n.static_shape(0)
    dtype = n.dtype(0) if n.a("dtype") is None else elem_dtype(int(n.a("dtype")))
    if dtype is None:
        raise NodeError(f"dtype {elem_name(n.a('dtype'))} is not supported")
    return np.eye(rows, cols, k=int(n.a("k", 0)), dtype=dtype)


@op("Swish")
def _swish(n: Node):
    x = n.x(0)
    scaled = n.b.binary("mul", x, n.b.scalar(n.a("alpha", 1.0), n.dtype(0)))
    return n.b.binary("mul", x, n.b.unary("sigmoid", scaled))


# -- softmax family


def _coerced_2d(n: Node, name: str, x: SSAValue, axis: int) -> SSAValue:
    """Before opset 13: the input as 2-D at ``axis``, the op over the last dimension, back."""
    shape = n.static_shape(0)
    rank = len(shape)
    axis = axis + rank if axis < 0 else axis
    flat = n.b.reshape(x, (math.prod(shape[:axis]), math.prod(shape[axis:])))
    return n.b.reshape(n.b.op(name, [flat], {"axis": -1}), shape)


@op("Softmax", "LogSoftmax")
def _softmax(n: Node):
    name = "graph.softmax" if n.op_type == "Softmax" else "graph.log_softmax"
    if n.v < 13:
        return _coerced_2d(n, name, n.x(0), n.a("axis", 1))
    return n.b.op(name, [n.x(0)], {"axis": n.a("axis", -1)})


@op("Hardmax")
def _hardmax(n: Node):
    x = n.x(0)
    shape = n.static_shape(0)
    rank = len(shape)
    if n.v < 13:
        axis = n.a("axis", 1)
        axis = axis + rank if axis < 0 else axis
        flat_shape = (math.prod(shape[:axis]), math.prod(shape[axis:]))
        y = _hardmax_axis(n, n.b.reshape(x, flat_shape), flat_shape, 1)
        return n.b.reshape(y, shape)
    axis = n.a("axis", -1)
    return _hardmax_axis(n, x, shape, axis + rank if axis < 0 else axis)


def _hardmax_axis(n: Node, x: SSAValue, shape: Sequence[int], axis: int) -> SSAValue:
    index = n.b.op("graph.argmax", [x], {"axis": axis, "keepdims": True})
    iota = np.arange(shape[axis], dtype=np.int64).reshape([-1 if i == axis else 1 for i in range(len(shape))])
    hot = n.b.binary("equal", n.b.constant(iota), index)
    return n.b.cast(hot, n.dtype(0))


# -- linear algebra


@op("MatMul")
def _matmul(n: Node):
    return n.b.binary("matmul", n.x(0), n.x(1))


@op("Gemm")
def _gemm(n: Node):
    operands = [n.x(0), n.x(1)] + ([n.x(2)] if n.has(2) else [])
    props = {
        "alpha": float(n.a("alpha", 1.0)),
        "beta": float(n.a("beta", 1.0)),
        "trans_a": bool(n.a("transA", 0)),
        "trans_b": bool(n.a("transB", 0)),
    }
    return n.b.op("graph.gemm", operands, props)


# -- convolution and pooling: geometry


def _auto_pads(
    auto_pad: str, sizes: Sequence[int | None], kernel: Sequence[int], strides: Sequence[int], dilations: Sequence[int]
) -> tuple[list[int], list[int]]:
    begins, ends = [], []
    for size, k, s, d in zip(sizes, kernel, strides, dilations):
        if auto_pad == "VALID":
            begins.append(0)
            ends.append(0)
            continue
        if size is None:
            raise NodeError(f"auto_pad={auto_pad} needs static spatial dimensions")
        out = -(-size // s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
        small, large = total // 2, total - total // 2
        if auto_pad == "SAME_UPPER":
            begins.append(small)
            ends.append(large)
        else:
            begins.append(large)
            ends.append(small)
    return begins, ends


def _window_geometry(n: Node, sizes: Sequence[int | None], kernel: Sequence[int]):
    nsp = len(kernel)
    strides = n.ints("strides", [1] * nsp)
    dilations = n.ints("dilations", [1] * nsp)
    pads = n.ints("pads", [0] * (2 * nsp))
    for name, values, count in (("strides", strides, nsp), ("dilations", dilations, nsp), ("pads", pads, 2 * nsp)):
        if len(values) != count:
            raise NodeError(f"'{name}' has {len(values)} values, {count} expected for a kernel of {nsp} dimensions")
    auto_pad = n.a("auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER", "VALID"):
        begins, ends = _auto_pads(auto_pad, sizes, kernel, strides, dilations)
    else:
        begins, ends = pads[:nsp], pads[nsp:]
    return strides, dilations, begins, ends


def _check_auto_pad(info: NodeInfo) -> list[str]:
    return _unsupported_attr(info, "auto_pad", ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID", ""), "NOTSET")


def _check_spatial(info: NodeInfo, max_dims: int, index: int = 0) -> list[str]:
    rank = info.rank(index)
    kernel = info.a("kernel_shape")
    nsp = len(kernel) if kernel is not None else (rank - 2 if rank is not None else None)
    if nsp is not None and not 1 <= nsp <= max_dims:
        return [f"with {nsp} spatial dimensions"]
    return []


def _check_conv(info: NodeInfo) -> list[str]:
    out = _check_auto_pad(info)
    w = info.shape(info.node.input[1]) if info.has(1) else None
    rank = info.rank(0) if info.rank(0) is not None else (len(w) if w is not None else None)
    if rank is not None and not 3 <= rank <= 5:
        out.append(f"with {rank - 2} spatial dimensions")
    return out


@op("Conv", check=_check_conv)
def _conv(n: Node):
    x, w = n.x(0), n.x(1)
    bias = n.x(2) if n.has(2) else None
    xs = n.shape(0)
    ws = n.static_shape(1)
    nsp = len(ws) - 2
    if len(xs) != nsp + 2:
        raise NodeError(f"input of rank {len(xs)} and weight of rank {len(ws)} differ")
    kernel = ws[2:]
    if n.a("kernel_shape") is not None and list(n.a("kernel_shape")) != list(kernel):
        raise NodeError(f"kernel_shape {list(n.a('kernel_shape'))} differs from the weight's {list(kernel)}")
    strides, dilations, begins, ends = _window_geometry(n, xs[2:], kernel)
    groups = n.a("group", 1)
    if nsp == 2:
        return _conv2d(n, x, w, bias, strides, begins + ends, dilations, groups)
    if nsp == 1:
        x2 = n.b.op("graph.unsqueeze", [x], {"axes": (2,)})
        w2 = n.b.op("graph.unsqueeze", [w], {"axes": (2,)})
        y = _conv2d(n, x2, w2, bias, [1, strides[0]], [0, begins[0], 0, ends[0]], [1, dilations[0]], groups)
        return n.b.op("graph.squeeze", [y], {"axes": (2,)})
    if nsp == 3:
        return _conv3d(n, x, w, bias, strides, begins, ends, dilations, groups)
    raise NodeError(f"convolution with {nsp} spatial dimensions is not supported")


def _conv2d(n: Node, x, w, bias, strides, pads, dilations, groups) -> SSAValue:
    operands = [x, w] + ([bias] if bias is not None else [])
    props = {"strides": tuple(strides), "pads": tuple(pads), "dilations": tuple(dilations), "groups": groups}
    return n.b.op("graph.conv2d", operands, props)


def _depth_windows(n: Node, x: SSAValue, out_d: int, kernel: int, stride: int, dilation: int) -> SSAValue:
    """(N, C, D, H, W) -> (N, C, OD, KD, H, W): the depth taps of every output depth."""
    idx = np.arange(out_d, dtype=np.int64)[:, None] * stride + np.arange(kernel, dtype=np.int64)[None, :] * dilation
    return n.b.op("graph.gather", [x, n.b.constant(idx)], {"axis": 2})


def _conv3d(n: Node, x, w, bias, strides, begins, ends, dilations, groups) -> SSAValue:
    """3-D convolution as one 2-D convolution: the depth taps of each output depth become
    channels, (N, C, OD, KD, H, W) -> (N*OD, C*KD, H, W), with the weight (O, C/g*KD, KH, KW)."""
    xs = n.static_shape(0)
    ws = n.static_shape(1)
    N, C, D, H, W = xs
    O, Cg, KD, KH, KW = ws
    x = n.b.pad(x, [0, 0, begins[0], 0, 0, 0, 0, ends[0], 0, 0])
    padded = D + begins[0] + ends[0]
    out_d = (padded - (dilations[0] * (KD - 1) + 1)) // strides[0] + 1
    if out_d < 1:
        raise NodeError(f"the dilated kernel depth exceeds the padded input depth {padded}")
    g = _depth_windows(n, x, out_d, KD, strides[0], dilations[0])  # N, C, OD, KD, H, W
    g = n.b.transpose(g, (0, 2, 1, 3, 4, 5))
    g = n.b.reshape(g, (N * out_d, C * KD, H, W))
    w2 = n.b.reshape(w, (O, Cg * KD, KH, KW))
    y = _conv2d(n, g, w2, bias, strides[1:], [begins[1], begins[2], ends[1], ends[2]], dilations[1:], groups)
    _, _, oh, ow = shape_of(y.type)
    y = n.b.reshape(y, (N, out_d, O, oh, ow))
    return n.b.transpose(y, (0, 2, 1, 3, 4))


def _check_conv_transpose(info: NodeInfo) -> list[str]:
    out = _check_auto_pad(info)
    rank = info.rank(0)
    if rank is None and info.has(1):
        w = info.shape(info.node.input[1])
        rank = None if w is None else len(w)
    if rank is not None and rank not in (3, 4):
        out.append(f"with {rank - 2} spatial dimensions")
    return out


def _window_ints(n: Node, name: str, default: list[int] | None, counts: tuple[int, ...], nsp: int) -> list[int] | None:
    """An int-list attribute of a window op, refused in one line unless it has one of ``counts`` values."""
    values = n.ints(name, default)
    if values is not None and len(values) not in counts:
        expected = " or ".join(str(c) for c in counts)
        raise NodeError(f"'{name}' has {len(values)} values, {expected} expected for a kernel of {nsp} dimensions")
    return values


@op("ConvTranspose", check=_check_conv_transpose)
def _conv_transpose(n: Node):
    """As a convolution of the input spread out by the strides (zeros between), padded by
    dilation * (kernel - 1) - pads, with the weight flipped and its channel roles swapped."""
    x, w = n.x(0), n.x(1)
    bias = n.x(2) if n.has(2) else None
    xs = n.static_shape(0)
    ws = n.static_shape(1)
    nsp = len(ws) - 2
    if nsp == 1:
        x = n.b.op("graph.unsqueeze", [x], {"axes": (2,)})
        w = n.b.op("graph.unsqueeze", [w], {"axes": (2,)})
        xs, ws = xs[:2] + (1,) + xs[2:], ws[:2] + (1,) + ws[2:]
    elif nsp != 2:
        raise NodeError(f"transposed convolution with {nsp} spatial dimensions is not supported")

    def spatial(name: str, default: int, lowest: int) -> list[int]:
        values = _window_ints(n, name, [default] * nsp, (nsp,), nsp)
        if any(v < lowest for v in values):
            raise NodeError(f"'{name}' {values} must be at least {lowest}")
        return ([default] + values) if nsp == 1 else values

    strides, dilations = spatial("strides", 1, 1), spatial("dilations", 1, 1)
    output_padding = spatial("output_padding", 0, 0)
    if any(p >= max(s, d) for p, s, d in zip(output_padding, strides, dilations)):
        raise NodeError(f"'output_padding' {output_padding[-nsp:]} must be less than the stride or the dilation")
    groups = n.a("group", 1)
    if xs[1] != ws[0]:
        raise NodeError(f"input of {xs[1]} channels and a weight for {ws[0]}")
    if groups < 1 or ws[0] % groups:
        raise NodeError(f"group {groups} does not divide the {ws[0]} input channels")
    if n.a("kernel_shape") is not None and list(n.a("kernel_shape")) != list(ws[-nsp:]):
        raise NodeError(f"kernel_shape {list(n.a('kernel_shape'))} differs from the weight's {list(ws[-nsp:])}")
    kernel = list(ws[2:])
    in_sizes = list(xs[2:])
    natural = [s * (i - 1) + op_ + (k - 1) * d + 1 for s, i, op_, k, d in zip(strides, in_sizes, output_padding, kernel, dilations)]
    auto_pad = n.a("auto_pad", "NOTSET")
    output_shape = _window_ints(n, "output_shape", None, (nsp, nsp + 2), nsp)
    if output_shape is not None and any(t < 1 for t in output_shape[-nsp:]):
        raise NodeError(f"'output_shape' {output_shape} must be positive")
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        if output_shape is None:
            targets = [i * s for i, s in zip(in_sizes, strides)]
        else:
            targets = ([1] + list(output_shape[-1:])) if nsp == 1 else list(output_shape[-2:])
        total = [nat - t for nat, t in zip(natural, targets)]
        if auto_pad == "SAME_UPPER":
            begins = [t // 2 for t in total]
            ends = [t - t // 2 for t in total]
        else:
            begins = [t - t // 2 for t in total]
            ends = [t // 2 for t in total]
    elif auto_pad == "VALID":
        begins, ends = [0, 0], [0, 0]
    else:
        pads = _window_ints(n, "pads", [0] * (2 * nsp), (2 * nsp,), nsp)
        if nsp == 1:
            begins, ends = [0, pads[0]], [0, pads[1]]
        else:
            begins, ends = pads[:2], pads[2:]
    N, C, H, W = xs
    sh, sw = strides
    # Spread: (N, C, H, 1, W, 1) padded to (N, C, H, sh, W, sw), then (N, C, H*sh, W*sw).
    if sh > 1 or sw > 1:
        x = n.b.reshape(x, (N, C, H, 1, W, 1))
        x = n.b.pad(x, [0] * 6 + [0, 0, 0, sh - 1, 0, sw - 1])
        x = n.b.reshape(x, (N, C, H * sh, W * sw))
    # Pads of the equivalent convolution; the spread left s - 1 zeros too many at the end.
    conv_begin = [d * (k - 1) - b for d, k, b in zip(dilations, kernel, begins)]
    conv_end = [d * (k - 1) - e + op_ - (s - 1) for d, k, e, op_, s in zip(dilations, kernel, ends, output_padding, strides)]
    # Negative amounts crop; graph.pad does both (conv2d pads must not be negative).
    x = n.b.pad(x, [0, 0, conv_begin[0], conv_begin[1], 0, 0, conv_end[0], conv_end[1]])
    Cin, Og, KH, KW = ws
    g = groups
    wt = n.b.reshape(w, (g, Cin // g, Og, KH, KW))
    wt = n.b.transpose(wt, (0, 2, 1, 3, 4))
    wt = n.b.reshape(wt, (g * Og, Cin // g, KH, KW))
    big = -(1 << 62)
    wt = n.b.op("graph.slice", [wt], {"starts": (-1, -1), "ends": (big, big), "axes": (2, 3), "steps": (-1, -1)})
    y = _conv2d(n, x, wt, bias, [1, 1], [0, 0, 0, 0], dilations, g)
    if nsp == 1:
        y = n.b.op("graph.squeeze", [y], {"axes": (2,)})
    return y


def _check_pool(info: NodeInfo) -> list[str]:
    out = _check_auto_pad(info) + _check_spatial(info, 3)
    if info.node.op_type == "MaxPool" and info.wants(1):
        out.append("with the Indices output")
    return out


def _pool_out(size: int, k: int, s: int, b: int, e: int, d: int, ceil_mode: bool) -> int:
    span = size + b + e - (d * (k - 1) + 1)
    if not ceil_mode:
        return span // s + 1
    out = -(-span // s) + 1
    if (out - 1) * s >= size + b:
        out -= 1
    return out


@op("MaxPool", "AveragePool", check=_check_pool)
def _pool(n: Node):
    x = n.x(0)
    xs = n.shape(0)
    if n.dtype(0).kind not in "fiu":
        raise NodeError(f"{n.op_type} takes numbers, not {n.dtype(0)}")
    kernel = n.ints("kernel_shape")
    if kernel is None:
        raise NodeError("kernel_shape must be given")
    nsp = len(kernel)
    if len(xs) != nsp + 2:
        raise NodeError(f"input of rank {len(xs)} for a kernel of {nsp} dimensions")
    strides, dilations, begins, ends = _window_geometry(n, xs[2:], kernel)
    ceil_mode = bool(n.a("ceil_mode", 0))
    name = "graph.max_pool2d" if n.op_type == "MaxPool" else "graph.avg_pool2d"
    extra = {} if n.op_type == "MaxPool" else {"count_include_pad": bool(n.a("count_include_pad", 0))}

    def pool2d(v, k, s, pads, d):
        props = {"kernel": tuple(k), "strides": tuple(s), "pads": tuple(pads), "dilations": tuple(d), "ceil_mode": ceil_mode, **extra}
        return n.b.op(name, [v], props)

    if nsp == 2:
        return pool2d(x, kernel, strides, begins + ends, dilations)
    if nsp == 1:
        x2 = n.b.op("graph.unsqueeze", [x], {"axes": (2,)})
        y = pool2d(x2, [1, kernel[0]], [1, strides[0]], [0, begins[0], 0, ends[0]], [1, dilations[0]])
        return n.b.op("graph.squeeze", [y], {"axes": (2,)})
    return _pool3d(n, x, kernel, strides, begins, ends, dilations, ceil_mode, pool2d)


def _pool3d(n: Node, x, kernel, strides, begins, ends, dilations, ceil_mode, pool2d) -> SSAValue:
    """3-D pooling as 2-D pooling of every depth tap of every output depth, then a
    reduction over the taps: (N, C, OD, KD, H, W) -> (N, C*OD*KD, H, W) -> pool -> reduce."""
    N, C, D, H, W = n.static_shape(0)
    KD, sd, dd = kernel[0], strides[0], dilations[0]
    out_d = _pool_out(D, KD, sd, begins[0], ends[0], dd, ceil_mode)
    reach = (out_d - 1) * sd + dd * (KD - 1) + 1  # padded depth the windows read
    end_pad = max(ends[0], reach - D - begins[0])
    dtype = n.dtype(0)
    is_max = n.op_type == "MaxPool"
    fill = 0.0
    if is_max:
        fill = float("-inf") if dtype.kind == "f" else float(np.iinfo(dtype).min)
    x = n.b.pad(x, [0, 0, begins[0], 0, 0, 0, 0, end_pad, 0, 0], value=fill)
    g = _depth_windows(n, x, out_d, KD, sd, dd)  # N, C, OD, KD, H, W
    g = n.b.reshape(g, (N, C * out_d * KD, H, W))
    y = pool2d(g, kernel[1:], strides[1:], [begins[1], begins[2], ends[1], ends[2]], dilations[1:])
    _, _, oh, ow = shape_of(y.type)
    y = n.b.reshape(y, (N, C, out_d, KD, oh, ow))
    if is_max:
        return n.b.op("graph.reduce_max", [y], {"axes": (3,), "keepdims": False})
    total = n.b.op("graph.reduce_sum", [y], {"axes": (3,), "keepdims": False})
    # Each 2-D average divided by its own count; the depth taps count separately.
    taps = np.arange(out_d)[:, None] * sd - begins[0] + np.arange(KD)[None, :] * dd
    lo, hi = (-begins[0], D + ends[0]) if n.a("count_include_pad", 0) else (0, D)
    counts = ((taps >= lo) & (taps < hi)).sum(axis=1).astype(dtype).reshape(out_d, 1, 1)
    return n.b.binary("div", total, n.b.constant(counts))


@op("GlobalAveragePool", "GlobalMaxPool")
def _global_pool(n: Node):
    x = n.x(0)
    rank = n.rank(0)
    if n.op_type == "GlobalAveragePool" and rank == 4:
        return n.b.op("graph.global_avg_pool2d", [x])
    name = "graph.reduce_mean" if n.op_type == "GlobalAveragePool" else "graph.reduce_max"
    return n.b.op(name, [x], {"axes": tuple(range(2, rank)), "keepdims": True})


# -- normalization


def _check_batch_norm(info: NodeInfo) -> list[str]:
    out = []
    if info.version < 9 and info.a("spatial", 1) != 1:
        out.append("spatial=0")
    if info.version >= 14 and info.a("training_mode", 0):
        out.append("training_mode=1")
    if any(info.wants(i) for i in range(1, 5)):
        out.append("with training outputs")
    return out


@op("BatchNormalization", check=_check_batch_norm)
def _batch_norm(n: Node):
    operands = [n.x(i) for i in range(5)]
    return n.b.op("graph.batch_norm", operands, {"epsilon": float(n.a("epsilon", 1e-5))})


@op("InstanceNormalization")
def _instance_norm(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    rank = n.rank(0)
    axes = tuple(range(2, rank))
    mean = n.b.op("graph.reduce_mean", [x], {"axes": axes, "keepdims": True})
    centered = n.b.binary("sub", x, mean)
    var = n.b.op("graph.reduce_mean", [n.b.binary("mul", centered, centered)], {"axes": axes, "keepdims": True})
    eps = n.b.scalar(n.a("epsilon", 1e-5), dtype)
    normed = n.b.binary("div", centered, n.b.unary("sqrt", n.b.binary("add", var, eps)))
    per_channel = (n.shape(1)[0],) + (1,) * (rank - 2)
    scale = n.b.reshape(n.x(1), per_channel)
    bias = n.b.reshape(n.x(2), per_channel)
    return n.b.binary("add", n.b.binary("mul", normed, scale), bias)


@op("LayerNormalization")
def _layer_norm(n: Node):
    x = n.x(0)
    axis = n.a("axis", -1)
    eps = float(n.a("epsilon", 1e-5))
    operands = [x, n.x(1)] + ([n.x(2)] if n.has(2) else [])
    y = n.b.op("graph.layer_norm", operands, {"axis": axis, "epsilon": eps})
    if not (n.wants(1) or n.wants(2)):
        return y
    rank = n.rank(0)
    axes = tuple(range(axis + rank if axis < 0 else axis, rank))
    mean = n.b.op("graph.reduce_mean", [x], {"axes": axes, "keepdims": True})
    centered = n.b.binary("sub", x, mean)
    var = n.b.op("graph.reduce_mean", [n.b.binary("mul", centered, centered)], {"axes": axes, "keepdims": True})
    dtype = n.dtype(0)
    inv = n.b.binary("div", n.b.scalar(1, dtype), n.b.unary("sqrt", n.b.binary("add", var, n.b.scalar(eps, dtype))))
    return [y, mean, inv]


def _check_lp_norm(info: NodeInfo) -> list[str]:
    return _unsupported_attr(info, "p", (1, 2), 2)


@op("LpNormalization", check=_check_lp_norm)
def _lp_norm(n: Node):
    x, dtype = n.x(0), n.dtype(0)
    axes = (n.a("axis", -1),)
    if n.a("p", 2) == 1:
        norm = n.b.op("graph.reduce_sum", [n.b.unary("abs", x)], {"axes": axes, "keepdims": True})
    else:
        norm = n.b.unary("sqrt", n.b.op("graph.reduce_sum", [n.b.binary("mul", x, x)], {"axes": axes, "keepdims": True}))
    zero = n.b.scalar(0, dtype)
    return n.b.op("graph.where", [n.b.binary("equal", norm, zero), zero, n.b.binary("div", x, norm)])


@op("MeanVarianceNormalization")
def _mvn(n: Node):
    """As ONNX's function body: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9)."""
    x, dtype = n.x(0), n.dtype(0)
    axes = tuple(n.ints("axes", [0, 2, 3]))
    mean = n.b.op("graph.reduce_mean", [x], {"axes": axes, "keepdims": True})
    mean_sq = n.b.op("graph.reduce_mean", [n.b.binary("mul", x, x)], {"axes": axes, "keepdims": True})
    std = n.b.unary("sqrt", n.b.binary("sub", mean_sq, n.b.binary("mul", mean, mean)))
    return n.b.binary("div", n.b.binary("sub", x, mean), n.b.binary("add", std, n.b.scalar(1e-9, dtype)))


def _stashed(n: Node, x: SSAValue, stash: bool) -> tuple[SSAValue, np.dtype]:
    dtype = n.dtype(0)
    if stash and dtype != np.float32:
        return n.b.cast(x, np.dtype(np.float32)), np.dtype(np.float32)
    return x, dtype


@op("RMSNormalization")
def _rms_norm(n: Node):
    x0 = n.x(0)
    rank = n.rank(0)
    axis = n.a("axis", -1)
    axes = tuple(range(axis + rank if axis < 0 else axis, rank))
    x, dtype = _stashed(n, x0, n.a("stash_type", 1) == 1)
    mean_sq = n.b.op("graph.reduce_mean", [n.b.binary("mul", x, x)], {"axes": axes, "keepdims": True})
    rms = n.b.unary("sqrt", n.b.binary("add", mean_sq, n.b.scalar(n.a("epsilon", 1e-5), dtype)))
    y = n.b.binary("div", x, rms)
    if dtype != n.dtype(0):
        y = n.b.cast(y, n.dtype(0))
    return n.b.binary("mul", y, n.x(1))


@op("GroupNormalization")
def _group_norm(n: Node):
    shape = n.static_shape(0)
    N, C = shape[0], shape[1]
    G = int(n.a("num_groups"))
    if C % G:
        raise NodeError(f"{C} channels do not split into {G} groups")
    x, dtype = _stashed(n, n.x(0), n.a("stash_type", 1) == 1)
    grouped = n.b.reshape(x, (N, G, math.prod(shape[1:]) // G))
    mean = n.b.op("graph.reduce_mean", [grouped], {"axes": (2,), "keepdims": True})
    centered = n.b.binary("sub", grouped, mean)
    var = n.b.op("graph.reduce_mean", [n.b.binary("mul", centered, centered)], {"axes": (2,), "keepdims": True})
    normed = n.b.binary("div", centered, n.b.unary("sqrt", n.b.binary("add", var, n.b.scalar(n.a("epsilon", 1e-5), dtype))))
    if dtype != n.dtype(0):
        normed = n.b.cast(normed, n.dtype(0))
    if n.v < 21:  # scale and bias per group
        scale = n.b.reshape(n.x(1), (G, 1))
        bias = n.b.reshape(n.x(2), (G, 1))
        return n.b.reshape(n.b.binary("add", n.b.binary("mul", normed, scale), bias), shape)
    per_channel = (C,) + (1,) * (len(shape) - 2)
    y = n.b.reshape(normed, shape)
    return n.b.binary("add", n.b.binary("mul", y, n.b.reshape(n.x(1), per_channel)), n.b.reshape(n.x(2), per_channel))


@op("LRN")
def _lrn(n: Node):
    props = {
        "size": int(n.a("size")),
        "alpha": float(n.a("alpha", 1e-4)),
        "beta": float(n.a("beta", 0.75)),
        "bias": float(n.a("bias", 1.0)),
    }
    return n.b.op("graph.lrn", [n.x(0)], props)


def _check_dropout(info: NodeInfo) -> list[str]:
    if info.version >= 12 and info.has(2):
        if not info.is_static(2):
            return ["training_mode input is not a constant"]
    return []


@op("Dropout", check=_check_dropout)
def _dropout(n: Node):
    x = n.x(0)
    ratio = n.a("ratio", 0.5)
    if n.v >= 12:
        training = n.const(2)
        if training is not None and bool(np.asarray(training).reshape(-1)[0]):
            raise NodeError("training_mode=true is not supported (strati runs inference)")
        r = n.const(1)
        ratio = 0.5 if r is None else float(np.asarray(r).reshape(-1)[0])
    y = n.b.op("graph.dropout", [x], {"ratio": float(ratio)})
    if not n.wants(1):
        return y
    mask_dtype = np.bool_ if n.v >= 10 else n.dtype(0)
    return [y, n.b.constant(np.ones(n.static_shape(0), dtype=mask_dtype))]


# -- reductions

_REDUCE = {
    "ReduceSum": "reduce_sum", "ReduceMean": "reduce_mean", "ReduceMax": "reduce_max",
    "ReduceMin": "reduce_min", "ReduceProd": "reduce_prod",
    "ReduceSumSquare": "reduce_sum", "ReduceL1": "reduce_sum", "ReduceL2": "reduce_sum",
    "ReduceLogSum": "reduce_sum", "ReduceLogSumExp": "reduce_sum",
}  # fmt: skip


def _axes_from_input(op_type: str, version: int) -> bool:
    return version >= 13 if op_type == "ReduceSum" else version >= 18


@op(*_REDUCE, static=lambda v: (1,))
def _reduce(n: Node):
    x = n.x(0)
    if _axes_from_input(n.op_type, n.v):
        axes_value = n.const(1) if n.has(1) else None
        if n.has(1) and axes_value is None:
            raise NodeError("axes (input 1) must be a constant")
        axes = None if axes_value is None else [int(a) for a in np.asarray(axes_value).reshape(-1)]
    else:
        axes = n.ints("axes")
    noop = bool(n.a("noop_with_empty_axes", 0))
    keepdims = bool(n.a("keepdims", 1))
    if not axes:
        axes = None
    dtype = n.dtype(0)
    t = n.op_type
    if t == "ReduceSumSquare" or t == "ReduceL2":
        x = n.b.binary("mul", x, x)
    elif t == "ReduceL1":
        x = n.b.unary("abs", x)
    elif t == "ReduceLogSumExp":
        x = n.b.unary("exp", x)
    if axes is None and noop:
        # No reduction, but the elementwise steps still apply (as ONNX's reference: an
        # empty reduction of x*x is x*x).
        y = n.b.op("graph.identity", [x])
    else:
        props = {"axes": None if axes is None else tuple(axes), "keepdims": keepdims}
        y = n.b.op(f"graph.{_REDUCE[t]}", [x], props)
    if t == "ReduceL2":
        y = n.b.unary("sqrt", y) if dtype.kind == "f" else n.b.cast(n.b.unary("sqrt", n.b.cast(y, np.dtype(np.float64))), dtype)
    elif t in ("ReduceLogSum", "ReduceLogSumExp"):
        y = n.b.unary("log", y)
    return y


@op("ArgMax", "ArgMin")
def _argmax(n: Node):
    x = n.x(0)
    if n.op_type == "ArgMin":
        # An order-reversing map that is exact: -x for floats, ~x = -x - 1 for signed
        # integers (wrapping), max - x for unsigned ones, not x for booleans.
        dtype = n.dtype(0)
        if dtype.kind == "f":
            x = n.b.unary("neg", x)
        elif dtype.kind == "i":
            x = n.b.binary("sub", n.b.unary("neg", x), n.b.scalar(1, dtype))
        elif dtype.kind == "u":
            x = n.b.binary("sub", n.b.scalar(np.iinfo(dtype).max, dtype), x)
        else:
            x = _not(n, x)
    props = {"axis": n.a("axis", 0), "keepdims": bool(n.a("keepdims", 1)), "select_last_index": bool(n.a("select_last_index", 0))}
    return n.b.op("graph.argmax", [x], props)


# -- data movement


def _reshape_target(shape: Sequence[int | None], target: Sequence[int], allowzero: bool) -> list[int | None]:
    out: list[int | None] = []
    for i, t in enumerate(target):
        if t == 0 and not allowzero:
            if i >= len(shape):
                raise NodeError(f"shape {list(target)} copies dimension {i} of an input of rank {len(shape)}")
            out.append(shape[i])
        else:
            out.append(int(t))
    if out.count(-1) > 1:
        raise NodeError(f"shape {list(target)} has more than one -1")
    if -1 in out:
        k = out.index(-1)
        rest = [d for j, d in enumerate(out) if j != k]
        total = None if None in shape else math.prod(shape)
        if total is None or None in rest:
            out[k] = None
        else:
            known = math.prod(rest)
            if known == 0 or total % known:
                raise NodeError(f"cannot reshape {list(shape)} into {list(target)}")
            out[k] = total // known
    if None not in shape and None not in out and (any(d < 0 for d in out) or math.prod(out) != math.prod(shape)):
        raise NodeError(f"cannot reshape {list(shape)} into {list(target)}")
    return out


@op("Reshape", static=lambda v: (1,) if v >= 5 else ())
def _reshape(n: Node):
    target = n.ints("shape") if n.v < 5 else [int(v) for v in n.need_const(1, "shape").reshape(-1)]
    shape = n.shape(0)
    out = _reshape_target(shape, target, bool(n.a("allowzero", 0)))
    value = n.const(0)
    if value is not None and None not in out:
        return value.reshape(out)
    return n.b.reshape(n.x(0), out)


@op("Flatten")
def _flatten(n: Node):
    return n.b.op("graph.flatten", [n.x(0)], {"axis": n.a("axis", 1)})


@op("Transpose")
def _transpose(n: Node):
    perm = n.ints("perm")
    return n.b.op("graph.transpose", [n.x(0)], {"perm": None if perm is None else tuple(perm)})


@op("Squeeze", static=lambda v: (1,) if v >= 13 else ())
def _squeeze(n: Node):
    if n.v >= 13:
        axes = None if not n.has(1) else [int(a) for a in n.need_const(1, "axes").reshape(-1)]
    else:
        axes = n.ints("axes")
    return n.b.op("graph.squeeze", [n.x(0)], {"axes": None if axes is None else tuple(axes)})


@op("Unsqueeze", static=lambda v: (1,) if v >= 13 else ())
def _unsqueeze(n: Node):
    axes = [int(a) for a in n.need_const(1, "axes").reshape(-1)] if n.v >= 13 else n.ints("axes")
    if axes is None:
        raise NodeError("axes must be given")
    return n.b.op("graph.unsqueeze", [n.x(0)], {"axes": tuple(axes)})


@op("Concat")
def _concat(n: Node):
    return n.b.op("graph.concat", n.inputs(), {"axis": n.a("axis", 1 if n.v < 4 else None)})


@op("Split", static=lambda v: (1,) if v >= 13 else ())
def _split(n: Node):
    shape = n.shape(0)
    axis = n.a("axis", 0)
    rank = len(shape)
    a = axis + rank if axis < 0 else axis
    if not 0 <= a < rank:
        raise NodeError(f"axis {axis} is out of range for an input of rank {rank}")
    count = n.n_outputs
    if n.v >= 13:
        sizes = None if not n.has(1) else [int(s) for s in n.need_const(1, "split").reshape(-1)]
    else:
        sizes = n.ints("split")
    if sizes is None:
        dim = shape[a]
        if dim is None:
            raise NodeError("split of a dynamic dimension needs explicit sizes")
        if n.v >= 18 and n.a("num_outputs") is not None:
            count = int(n.a("num_outputs"))
            chunk = -(-dim // count)
            sizes = [chunk] * (count - 1) + [dim - chunk * (count - 1)]
        else:
            if dim % count:
                raise NodeError(f"dimension {a} of size {dim} does not split into {count} equal parts")
            sizes = [dim // count] * count
    outs = n.b.op("graph.split", [n.x(0)], {"axis": axis, "sizes": tuple(sizes)}, results=len(sizes))
    return outs if isinstance(outs, list) else [outs]


_SAME_ELEMENTS = ("graph.unsqueeze", "graph.squeeze", "graph.reshape", "graph.flatten", "graph.identity")


def _offset_form(imp: Importer, v: SSAValue) -> tuple[SSAValue, int]:
    """``v`` as ``root + c`` elementwise (c an integer), looking through reshapes and through
    additions and subtractions of one-element integer constants (which keep the element order)."""
    c = 0
    while isinstance(v.owner, Operation):
        op = v.owner
        if op.name in _SAME_ELEMENTS:
            v = op.operands[0]
            continue
        if op.name not in ("graph.add", "graph.sub"):
            break
        for i in (1, 0) if op.name == "graph.add" else (1,):
            k = imp.known.get(op.operands[i])
            if k is not None and k.size == 1 and k.dtype.kind in "iu":
                c += int(k.reshape(-1)[0]) * (-1 if op.name == "graph.sub" else 1)
                v = op.operands[1 - i]
                break
        else:
            break
    return v, c


def _dynamic_slice(n: Node, axes: list[int] | None, steps: list[int] | None):
    """Slice with run-time starts or ends: graph.dynamic_slice when each sliced extent is known
    at import (ends = starts + a constant, or onnx's inferred output shape), refused otherwise."""
    shape = list(n.shape(0))
    rank = len(shape)
    length = n.shape(1)[0] if len(n.shape(1)) == 1 else None
    if length is None or n.shape(2) != (length,):
        raise NodeError(f"run-time starts and ends must be vectors of one static length, got {list(n.shape(1))} and {list(n.shape(2))}")
    axes = list(range(length)) if axes is None else axes
    steps = [1] * length if steps is None else steps
    if len(axes) != length or len(steps) != length or 0 in steps or not all(-rank <= a < rank for a in axes):
        raise NodeError(f"axes {axes} and steps {steps} do not fit {length} run-time starts for rank {rank}")
    inferred = _tp_shape(n.b.analysis.types.get(n.proto.output[0])) if n.b.analysis is not None else None
    (s_root, s_off), (e_root, e_off) = _offset_form(n.b, n.x(1)), _offset_form(n.b, n.x(2))
    out = list(shape)
    for a, step in zip(axes, steps):
        a %= rank
        if inferred is not None and len(inferred) == rank and inferred[a] is not None:
            out[a] = inferred[a]
        elif s_root is e_root and (shape[a] is None or -((s_off - e_off) // step) <= -(-shape[a] // abs(step))):
            out[a] = max(0, -((s_off - e_off) // step))  # (more than the dimension holds: "to the end", refused)
        else:
            raise NodeError(
                f"the output's extent along axis {a} depends on run-time starts and ends "
                "(strati needs it static: ends = starts + a constant, or a static output shape)"
            )
    props = {"axes": tuple(axes), "steps": None if all(s == 1 for s in steps) else tuple(steps)}
    result_type = make_tensor(out, n.x(0).type.get_element_type())
    return n.b.op("graph.dynamic_slice", [n.x(0), n.x(1), n.x(2)], props, result_type=result_type)


@op("Slice", static=lambda v: (3, 4) if v >= 10 else ())
def _slice(n: Node):
    if n.v < 10:
        starts, ends, axes, steps = n.ints("starts"), n.ints("ends"), n.ints("axes"), None
    else:
        def values(i: int, what: str):
            return None if not n.has(i) else [int(v) for v in n.need_const(i, what).reshape(-1)]

        axes, steps = values(3, "axes"), values(4, "steps")
        if n.has(1) and n.has(2) and (n.const(1) is None or n.const(2) is None):
            return _dynamic_slice(n, axes, steps)
        starts, ends = values(1, "starts"), values(2, "ends")
    if starts is None or ends is None:
        raise NodeError("starts and ends must be given")
    props = {"starts": tuple(starts), "ends": tuple(ends), "axes": None if axes is None else tuple(axes),
             "steps": None if steps is None else tuple(steps)}
    return n.b.op("graph.slice", [n.x(0)], props)


@op("Gather")
def _gather(n: Node):
    return n.b.op("graph.gather", [n.x(0), n.x(1)], {"axis": n.a("axis", 0)})


def _check_pad(info: NodeInfo) -> list[str]:
    return _unsupported_attr(info, "mode", ("constant", "reflect", "edge"), "constant")


@op("Pad", check=_check_pad, static=lambda v: (1, 2, 3) if v >= 11 else ())
def _pad(n: Node):
    rank = n.rank(0)
    mode = n.a("mode", "constant")
    if n.v < 11:
        pads = n.ints("pads") if n.a("pads") is not None else n.ints("paddings")
        value = float(n.a("value", 0.0))
    else:
        pads = [int(p) for p in n.need_const(1, "pads").reshape(-1)]
        c = n.const(2)
        value = 0.0 if c is None or c.size == 0 else float(np.asarray(c).reshape(-1)[0])
        if n.has(3):
            axes = [int(a) % rank for a in n.need_const(3, "axes").reshape(-1)]
            full = [0] * (2 * rank)
            for k, a in enumerate(axes):
                full[a] = pads[k]
                full[a + rank] = pads[k + len(axes)]
            pads = full
    if pads is None:
        raise NodeError("pads must be given")
    if not any(pads):
        return n.b.op("graph.identity", [n.x(0)])
    return n.b.op("graph.pad", [n.x(0)], {"pads": tuple(pads), "mode": mode, "value": value})


def _check_cast(info: NodeInfo) -> list[str]:
    to = info.a("to")
    if to is None:
        return []
    if to == TensorProto.STRING:
        return []  # out of scope, reported with the string tensors
    if elem_dtype(to) is None:
        return [f"to={elem_name(to)}"]
    return []


def _saturating_cast(n: Node, to: np.dtype) -> SSAValue:
    """graph.cast, with ``saturate = false`` when the node says so (opset 19+: to float8 only)."""
    return n.b.cast(n.x(0), to, saturate=bool(n.a("saturate", 1)))


@op("Cast", check=_check_cast)
def _cast(n: Node):
    to = elem_dtype(int(n.a("to")))
    if to is None:
        raise NodeError(f"cast to {elem_name(n.a('to'))} is not supported")
    return _saturating_cast(n, to)


@op("CastLike")
def _cast_like(n: Node):
    return _saturating_cast(n, n.dtype(1))


@op("Shape")
def _shape(n: Node):
    shape = list(n.shape(0))
    start, end = n.a("start", 0), n.a("end")
    part = shape[start:end] if end is not None else shape[start:]
    if None in part:
        raise NodeError(f"the input shape {['?' if d is None else d for d in shape]} is not static")
    return np.array(part, dtype=np.int64)


@op("Size")
def _size(n: Node):
    return np.array(math.prod(n.static_shape(0)), dtype=np.int64)


@op("ConstantOfShape", static=(0,))
def _constant_of_shape(n: Node):
    shape = [int(d) for d in n.need_const(0, "shape").reshape(-1)]
    value = n.a("value")
    fill = np.zeros(1, np.float32) if value is None else numpy_helper.to_array(value).reshape(-1)
    return np.full(shape, fill[0], dtype=fill.dtype)


def _check_constant(info: NodeInfo) -> list[str]:
    if "sparse_value" in info.attrs:
        return ["sparse_value"]
    if "value_string" in info.attrs or "value_strings" in info.attrs:
        return []
    value = info.attrs.get("value")
    if isinstance(value, TensorProto) and value.data_type != TensorProto.STRING and elem_dtype(value.data_type) is None:
        return [f"value of element type {elem_name(value.data_type)}"]
    return []


@op("Constant", check=_check_constant)
def _constant(n: Node):
    attrs = n.attrs
    if "value" in attrs:
        return _tensor_array(attrs["value"])
    if "value_float" in attrs:
        return np.array(attrs["value_float"], dtype=np.float32)
    if "value_floats" in attrs:
        return np.array(attrs["value_floats"], dtype=np.float32)
    if "value_int" in attrs:
        return np.array(attrs["value_int"], dtype=np.int64)
    if "value_ints" in attrs:
        return np.array(attrs["value_ints"], dtype=np.int64)
    raise NodeError(f"constant with attributes {sorted(attrs)} is not supported")


@op("Range", static=(0, 1, 2))
def _range(n: Node):
    start, limit, delta = (n.need_const(i, w).reshape(()) for i, w in enumerate(("start", "limit", "delta")))
    if not all(np.isfinite(float(v)) for v in (start, limit, delta)):
        raise NodeError(f"start, limit and delta must be finite, got {start}, {limit}, {delta}")
    if delta == 0:
        raise NodeError("delta is 0 (the range would never end)")
    count = max(int(math.ceil((float(limit) - float(start)) / float(delta))), 0)
    if count > LIMITS.constant_elements:
        raise NodeError(exceeded("constant_elements", "the range's number of elements", count).message)
    return (start + np.arange(count, dtype=start.dtype) * delta).astype(start.dtype)


@op("Expand", static=(1,))
def _expand(n: Node):
    target = [int(d) for d in n.need_const(1, "shape").reshape(-1)]
    shape = n.static_shape(0)
    rank = max(len(shape), len(target))
    a = (1,) * (rank - len(shape)) + tuple(shape)
    t = (1,) * (rank - len(target)) + tuple(target)
    out = []
    for i, (x, y) in enumerate(zip(a, t)):
        if x != y and 1 not in (x, y):
            raise NodeError(f"shape {list(target)} does not broadcast with the input {list(shape)}")
        out.append(x if y == 1 else y)
    if tuple(out) == tuple(shape):
        return n.b.op("graph.identity", [n.x(0)])
    return n.b.broadcast_to(n.x(0), out)


@op("Tile", static=(1,))
def _tile(n: Node):
    repeats = [int(r) for r in n.need_const(1, "repeats").reshape(-1)]
    shape = n.static_shape(0)
    if len(repeats) != len(shape):
        raise NodeError(f"repeats {repeats} has {len(repeats)} entries for rank {len(shape)}")
    x = n.x(0)
    if all(r == 1 for r in repeats):
        return n.b.op("graph.identity", [x])
    interleaved = [d for s in shape for d in (1, s)]
    expanded = [d for r, s in zip(repeats, shape) for d in (r, s)]
    y = n.b.broadcast_to(n.b.reshape(x, interleaved), expanded)
    return n.b.reshape(y, [r * s for r, s in zip(repeats, shape)])


@op("DepthToSpace")
def _depth_to_space(n: Node):
    N, C, H, W = n.static_shape(0)
    b = int(n.a("blocksize"))
    mode = n.a("mode", "DCR")
    x = n.x(0)
    if mode == "DCR":
        y = n.b.transpose(n.b.reshape(x, (N, b, b, C // (b * b), H, W)), (0, 3, 4, 1, 5, 2))
    else:
        y = n.b.transpose(n.b.reshape(x, (N, C // (b * b), b, b, H, W)), (0, 1, 4, 2, 5, 3))
    return n.b.reshape(y, (N, C // (b * b), H * b, W * b))


@op("SpaceToDepth", check=lambda info: _unsupported_attr(info, "mode", ("DCR", "CRD"), "DCR"))
def _space_to_depth(n: Node):
    N, C, H, W = n.static_shape(0)
    b = int(n.a("blocksize"))
    y = n.b.reshape(n.x(0), (N, C, H // b, b, W // b, b))
    y = n.b.transpose(y, (0, 3, 5, 1, 2, 4) if n.a("mode", "DCR") == "DCR" else (0, 1, 3, 5, 2, 4))
    return n.b.reshape(y, (N, C * b * b, H // b, W // b))


# -- resize


def _check_resize(info: NodeInfo) -> list[str]:
    out = []
    mode = info.a("mode", "nearest")
    if mode not in ("nearest", "linear", "cubic") or (mode == "cubic" and info.node.op_type != "Resize"):
        out.append(f"mode={mode}")
    if info.node.op_type == "Resize" and info.version >= 11:
        ctm = info.a("coordinate_transformation_mode", "half_pixel")
        allowed = ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel")
        if ctm not in allowed + (("tf_half_pixel_for_nn",) if mode == "nearest" else ()):
            out.append(f"coordinate_transformation_mode={ctm}")
        if mode != "nearest" and info.a("antialias", 0):
            out.append("antialias=1")
        nearest = info.a("nearest_mode", "round_prefer_floor")
        if nearest not in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"):
            out.append(f"nearest_mode={nearest}")
        if info.a("keep_aspect_ratio_policy", "stretch") != "stretch":
            out.append(f"keep_aspect_ratio_policy={info.a('keep_aspect_ratio_policy')}")
    return out


@op("Resize", check=_check_resize, static=lambda v: (1,) if v == 10 else (2, 3))
def _resize(n: Node):
    shape = n.static_shape(0)
    rank = len(shape)
    if n.v == 10:
        scales = [float(s) for s in n.need_const(1, "scales").reshape(-1)]
        return _resize_legacy(n, scales)
    scales_c = n.const(2) if n.has(2) else None
    sizes_c = n.const(3) if n.has(3) else None
    axes = n.ints("axes")
    axes = list(range(rank)) if axes is None else [a % rank for a in axes]
    scales = [1.0] * rank
    sizes = list(shape)
    if sizes_c is not None and sizes_c.size:
        for a, s in zip(axes, sizes_c.reshape(-1)):
            sizes[a] = int(s)
        scales_prop = None
    elif scales_c is not None and scales_c.size:
        for a, s in zip(axes, scales_c.reshape(-1)):
            scales[a] = float(s)
        _check_scales(scales)
        sizes = [int(np.floor(np.float32(d) * np.float32(s))) for d, s in zip(shape, scales)]
        scales_prop = scales
    else:
        raise NodeError("needs scales or sizes")
    props = {
        "mode": n.a("mode", "nearest"),
        "coordinate_transformation_mode": n.a("coordinate_transformation_mode", "half_pixel"),
        "nearest_mode": n.a("nearest_mode", "round_prefer_floor") if n.a("mode", "nearest") == "nearest" else None,
    }
    if n.a("mode") == "cubic":
        props.update(cubic_coeff_a=float(n.a("cubic_coeff_a", -0.75)), exclude_outside=bool(n.a("exclude_outside", 0)))
    if scales_prop is not None:
        props["scales"] = DenseArrayBase.from_list(f32, [float(s) for s in scales_prop])
    x = n.x(0)
    return n.b.op("graph.resize", [x], props, result_type=make_tensor(sizes, x.type.get_element_type()))


# -- grid sample

GRID_SAMPLE_MODES = {"bilinear": "linear", "bicubic": "cubic", "linear": "linear", "cubic": "cubic", "nearest": "nearest"}


def _check_grid_sample(info: NodeInfo) -> list[str]:
    out = []
    mode = info.a("mode", "bilinear" if info.version < 20 else "linear")
    names = ("bilinear", "nearest", "bicubic") if info.version < 20 else ("linear", "nearest", "cubic")
    if mode not in names:
        out.append(f"mode={mode}")
    if info.a("padding_mode", "zeros") not in ("zeros", "border", "reflection"):
        out.append(f"padding_mode={info.a('padding_mode')}")
    if info.version < 20 and info.rank(0) not in (None, 4):
        out.append(f"a rank-{info.rank(0)} input (GridSample {info.version} takes 4-D ones)")
    return out


@op("GridSample", check=_check_grid_sample)
def _grid_sample(n: Node):
    """GridSample 16 (4-D input; modes bilinear, nearest, bicubic) and 20/22 (N-D; linear,
    nearest, cubic): graph.grid_sample, whose modes are the later names."""
    x, grid = n.x(0), n.x(1)
    if n.v < 20 and n.rank(0) != 4:
        raise NodeError(f"GridSample {n.v} takes a 4-D input, got rank {n.rank(0)}")
    mode = GRID_SAMPLE_MODES[n.a("mode", "bilinear" if n.v < 20 else "linear")]
    props = {"mode": mode, "padding_mode": n.a("padding_mode", "zeros"), "align_corners": bool(n.a("align_corners", 0))}
    xs, gs = n.shape(0), n.shape(1)
    batch = xs[0] if xs[0] is not None else gs[0]
    return n.b.op("graph.grid_sample", [x, grid], props, result_type=make_tensor([batch, xs[1], *gs[1:-1]], x.type.get_element_type()))


def _check_scales(scales: Sequence[float]) -> None:
    if not all(math.isfinite(s) and s > 0 for s in scales):
        raise NodeError(f"scales must be finite and positive, got {list(scales)}")


def _resize_legacy(n: Node, scales: Sequence[float]) -> SSAValue:
    """Upsample (7-9) and Resize 10: asymmetric coordinates; mode nearest takes index
    floor(i / scale), as onnxruntime (it rounds up instead when downsampling)."""
    _check_scales(scales)
    shape = n.static_shape(0)
    if n.a("mode", "nearest") == "linear":
        sizes = [int(np.floor(np.float32(d) * np.float32(s))) for d, s in zip(shape, scales)]
        props = {"mode": "linear", "coordinate_transformation_mode": "asymmetric",
                 "scales": DenseArrayBase.from_list(f32, [float(s) for s in scales])}
        return n.b.op("graph.resize", [n.x(0)], props, result_type=make_tensor(sizes, n.x(0).type.get_element_type()))
    if all(s >= 1 for s in scales):
        nearest = "floor"
    elif all(s <= 1 for s in scales):
        nearest = "ceil"
    else:
        raise NodeError(f"scales {list(scales)} both up- and downsample")
    sizes = [int(np.floor(np.float32(d) * np.float32(s))) for d, s in zip(shape, scales)]
    props = {
        "coordinate_transformation_mode": "asymmetric",
        "nearest_mode": nearest,
        "scales": DenseArrayBase.from_list(f32, [float(s) for s in scales]),
    }
    x = n.x(0)
    return n.b.op("graph.resize", [x], props, result_type=make_tensor(sizes, x.type.get_element_type()))


@op("Upsample", check=_check_resize, static=lambda v: (1,) if v >= 9 else ())
def _upsample(n: Node):
    if n.v >= 9:
        scales = [float(s) for s in n.need_const(1, "scales").reshape(-1)]
    else:
        scales = [float(s) for s in n.a("scales")]
    return _resize_legacy(n, scales)


# --- entry point --------------------------------------------------------------------------


def import_model(
    model: str | Path | onnx.ModelProto,
    constant_inputs: Mapping[str, np.ndarray] | None = None,
) -> ModuleOp:
    """An ONNX model as a module with one graph-dialect function.

    ``constant_inputs`` fixes the values of some graph inputs at import (they
    become constants and leave the signature): a shape given as an input, for
    example.  Raises ``UnsupportedModelError`` listing everything unsupported
    before building anything, ``ModelLoadError`` for a file that is not a model,
    and ``StratiError`` naming the node for a node that cannot be converted.
    """
    proto = _inline_functions(load_model(model))
    constant_inputs = dict(constant_inputs or {})
    graph_inputs = {vi.name for vi in proto.graph.input}
    unknown = [k for k in constant_inputs if k not in graph_inputs]
    if unknown:
        raise StratiError(f"constant input '{unknown[0]}' is not a graph input")
    proto, analysis = expanded_analysis(proto, constant_inputs)
    if analysis.problems:
        raise UnsupportedModelError(analysis.problems)
    return Importer(proto, analysis, constant_inputs).run()


# Converters defined in modules of their own (they register through ``op`` above).
from strati.frontends import onnx_control, onnx_einsum, onnx_indexing, onnx_pool, onnx_quant, onnx_rnn  # noqa: E402,F401
