"""Default attributes of the tensor-level ops: ``infer_type`` (their verifier) and ``reference``
(for ``tensor.generic``, a vectorised numpy evaluation of its body)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.diagnostics import StratiError
from strati.dialects.shapes import make_tensor, normalize_axis, num_elements, shape_of
from strati.dialects.tensor.ops import PARALLEL, GenericOp, IndexOp, YieldOp
from strati.dialects.tensor.scalar import check_operands
from strati.registry import register_op_attr


def _shape(op: Operation, i: int):
    return shape_of(op.operands[i].type)


def _element(op: Operation, i: int):
    t = op.operands[i].type
    return t.get_element_type() if isinstance(t, TensorType) else t


def infer_fill(op: Operation) -> list[TensorType]:
    if _element(op, 1) != op.operands[0].type:
        raise VerifyException(f"fill value of type {op.operands[0].type} for a tensor of {_element(op, 1)}")
    return [op.operands[1].type]


def infer_reshape(op: Operation) -> list[TensorType]:
    declared = op.results[0].type
    a, b = num_elements(_shape(op, 0)), num_elements(shape_of(declared))
    if a != b:
        raise VerifyException(f"cannot reshape {op.operands[0].type} ({a} elements) to {declared} ({b} elements)")
    if _element(op, 0) != declared.get_element_type():
        raise VerifyException("reshape cannot change the element type")
    return [declared]


def infer_concat(op: Operation) -> list[TensorType]:
    if not op.operands:
        raise VerifyException("needs at least one operand")
    shapes = [_shape(op, i) for i in range(len(op.operands))]
    rank = len(shapes[0])
    dim = normalize_axis(op.param("dim"), rank, "dim")
    for i, s in enumerate(shapes):
        if len(s) != rank or any(a != b for k, (a, b) in enumerate(zip(s, shapes[0])) if k != dim):
            raise VerifyException(f"operand #{i} {op.operands[i].type} does not match operand #0 {op.operands[0].type} off dimension {dim}")
        if _element(op, i) != _element(op, 0):
            raise VerifyException("operands must share the element type")
    out = list(shapes[0])
    out[dim] = sum(s[dim] for s in shapes)
    return [make_tensor(out, _element(op, 0))]


def _check_slice(shape, offsets, sizes, strides, what: str) -> None:
    if not (len(offsets) == len(sizes) == len(strides) == len(shape)):
        raise VerifyException(f"offsets, sizes and strides must each have {len(shape)} values")
    for d, (n, o, s, st) in enumerate(zip(shape, offsets, sizes, strides)):
        if st == 0 or s < 0:
            raise VerifyException(f"dimension {d}: stride must be nonzero and size non-negative")
        if s and not (0 <= o < n and 0 <= o + (s - 1) * st < n):
            raise VerifyException(f"dimension {d}: {what} [{o}, {o + (s - 1) * st}] step {st} is outside 0..{n - 1}")


def infer_extract_slice(op: Operation) -> list[TensorType]:
    offsets, sizes, strides = op.param("offsets"), op.param("sizes"), op.param("strides")
    _check_slice(_shape(op, 0), offsets, sizes, strides, "slice")
    return [make_tensor(sizes, _element(op, 0))]


def infer_insert_slice(op: Operation) -> list[TensorType]:
    offsets, strides = op.param("offsets"), op.param("strides")
    if _element(op, 0) != _element(op, 1):
        raise VerifyException("source and dest must share the element type")
    _check_slice(_shape(op, 1), offsets, _shape(op, 0), strides, "insertion")
    return [op.operands[1].type]


def infer_pad(op: Operation) -> list[TensorType]:
    shape, low, high = _shape(op, 0), op.param("low"), op.param("high")
    if len(low) != len(shape) or len(high) != len(shape) or min((*low, *high), default=0) < 0:
        raise VerifyException(f"low and high must each have {len(shape)} non-negative values")
    if op.operands[1].type != _element(op, 0):
        raise VerifyException(f"padding value of type {op.operands[1].type} for a tensor of {_element(op, 0)}")
    return [make_tensor([n + a + b for n, a, b in zip(shape, low, high)], _element(op, 0))]


def _slices(offsets, sizes, strides):
    out = []
    for o, s, st in zip(offsets, sizes, strides):
        stop = o + s * st
        out.append(slice(o, None if stop < 0 else stop, st))
    return tuple(out)


def insert_slice(op: Operation, source: np.ndarray, dest: np.ndarray) -> np.ndarray:
    out = dest.copy()
    out[_slices(op.param("offsets"), source.shape, op.param("strides"))] = source
    return out


register_op_attr("tensor.fill", "infer_type", infer_fill)
register_op_attr("tensor.reshape", "infer_type", infer_reshape)
register_op_attr("tensor.concat", "infer_type", infer_concat)
register_op_attr("tensor.extract_slice", "infer_type", infer_extract_slice)
register_op_attr("tensor.insert_slice", "infer_type", infer_insert_slice)
register_op_attr("tensor.pad", "infer_type", infer_pad)

register_op_attr("tensor.empty", "reference", lambda op: np.zeros(shape_of(op.result.type), _dtype(op)))
register_op_attr("tensor.fill", "reference", lambda op, v, init: np.full(init.shape, v, init.dtype))
register_op_attr("tensor.reshape", "reference", lambda op, x: x.reshape(shape_of(op.results[0].type)))
register_op_attr("tensor.concat", "reference", lambda op, *xs: np.concatenate(xs, axis=op.param("dim")))
register_op_attr(
    "tensor.extract_slice",
    "reference",
    lambda op, x: x[_slices(op.param("offsets"), op.param("sizes"), op.param("strides"))],
)
register_op_attr("tensor.insert_slice", "reference", insert_slice)
register_op_attr(
    "tensor.pad",
    "reference",
    lambda op, x, v: np.pad(x, list(zip(op.param("low"), op.param("high"))), constant_values=v),
)


def _dtype(op: Operation):
    from strati.dense import to_dtype

    return to_dtype(op.results[0].type.get_element_type())


# --- tensor.generic: vectorised evaluation ------------------------------------------------
#
# The body runs once per point of the reduction loops (in loop order, as the sequential
# loop nest would), each time on whole numpy arrays spanning every parallel loop: the
# block arguments are the operands gathered through their indexing maps, ``tensor.index``
# is the index grid of its loop, and every other body op runs through its registered
# ``reference`` (which must therefore be elementwise; see strati.dialects.upstream_attrs).
# Output maps only read parallel loops, so each output element is read before and
# written after every step, in place.


def eval_affine(expr: AffineExpr, dims: Sequence[np.ndarray | int]) -> np.ndarray | int:
    """An affine expression over loop indices given as (broadcastable) int64 arrays or ints."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineBinaryOpExpr):
        a, b = eval_affine(expr.lhs, dims), eval_affine(expr.rhs, dims)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return a + b
            case AffineBinaryOpKind.Mul:
                return a * b
            case AffineBinaryOpKind.Mod:
                return a % b  # non-negative for a positive divisor, as MLIR's mod
            case AffineBinaryOpKind.FloorDiv:
                return a // b
            case AffineBinaryOpKind.CeilDiv:
                return -((-a) // b)
    raise StratiError(f"affine expression {expr} cannot be evaluated (symbols are not supported)")


def extract(op: Operation, t: np.ndarray, *indices: np.ndarray) -> np.ndarray:
    """``t[indices]``; the indices may be arrays (inside a generic), out of range is an error."""
    index = tuple(np.asarray(i, dtype=np.int64) for i in indices)
    for axis, (i, n) in enumerate(zip(index, t.shape)):
        bad = (i < 0) | (i >= n)
        if np.any(bad):
            raise StratiError(f"index {int(i[bad].flat[0]) if i.ndim else int(i)} is out of range for dimension {axis} of size {n}", op)
    return np.asarray(t[index])


def _captured(
    op: GenericOp, values: Sequence[np.ndarray], captures: Mapping[SSAValue, np.ndarray]
) -> dict[SSAValue, np.ndarray]:
    """The values of the SSA values the body uses but does not define: the generic's operands,
    and values defined above it (the tensors a ``tensor.extract`` reads, scalar constants),
    which the interpreter passes as ``captures``; constants not among them are evaluated here."""
    known: dict[SSAValue, np.ndarray] = dict(zip(op.operands, values))
    body_ops = set(op.body.walk())
    for inner in body_ops:
        for v in inner.operands:
            owner = v.owner
            inside = owner in body_ops if isinstance(owner, Operation) else owner is op.body.block
            if inside or v in known:
                continue
            if v in captures:
                known[v] = captures[v]
                continue
            reference = registry.get_op_attr(owner.name, "reference") if isinstance(owner, Operation) else None
            if not isinstance(owner, Operation) or owner.operands or owner.regions or reference is None:
                name = f"%{v.name_hint}" if v.name_hint else "a value"
                raise StratiError(f"the body reads {name} defined above the generic, whose value is not known", op)
            known[v] = np.asarray(reference(owner))
    return known


def generic_reference(
    op: GenericOp, *values: np.ndarray, captures: Mapping[SSAValue, np.ndarray] | None = None
) -> tuple[np.ndarray, ...]:
    n_in = len(op.inputs)
    inputs = [np.asarray(v) for v in values[:n_in]]
    outs = [np.array(v, copy=True, order="C") for v in values[n_in:]]
    maps, kinds = op.maps, op.kinds
    in_maps, out_maps = maps[:n_in], maps[n_in:]
    ranges = op.loop_ranges()
    if 0 in ranges:  # an empty iteration space: the body never runs
        return tuple(outs)
    par = [i for i, k in enumerate(kinds) if k == PARALLEL]
    red = [i for i, k in enumerate(kinds) if k != PARALLEL]
    grid_shape = tuple(ranges[i] for i in par)
    dims: list[np.ndarray | int] = [0] * len(kinds)
    for j, i in enumerate(par):
        shape = [1] * len(par)
        shape[j] = ranges[i]
        dims[i] = np.arange(ranges[i], dtype=np.int64).reshape(shape)

    # Output elements: flat positions, fixed for the whole run (output maps read parallel loops only).
    out_flat = []
    for out, m in zip(outs, out_maps):
        index = [np.broadcast_to(np.asarray(eval_affine(e, dims), np.int64), grid_shape) for e in m.results]
        flat = np.ravel_multi_index(index, out.shape) if index else np.zeros(grid_shape, np.int64)
        out_flat.append(flat)

    scope = _captured(op, values, captures or {})
    block = op.body.block
    for point in itertools.product(*(range(ranges[i]) for i in red)):
        for i, v in zip(red, point):
            dims[i] = v
        for arg, x, m in zip(block.args[:n_in], inputs, in_maps):
            scope[arg] = np.broadcast_to(x[tuple(np.asarray(eval_affine(e, dims)) for e in m.results)], grid_shape)
        for arg, out, flat in zip(block.args[n_in:], outs, out_flat):
            scope[arg] = out.reshape(-1)[flat]
        for inner in block.ops:
            if isinstance(inner, YieldOp):
                for out, flat, y in zip(outs, out_flat, inner.values):
                    y = np.broadcast_to(np.asarray(scope[y]).astype(out.dtype, copy=False), grid_shape)
                    out.reshape(-1)[flat.reshape(-1)] = y.reshape(-1)
                break
            if isinstance(inner, IndexOp):
                d = inner.dim.value.data
                scope[inner.result] = np.broadcast_to(np.asarray(dims[d], np.int64), grid_shape)
                continue
            reference = registry.get_op_attr(inner.name, "reference")
            if reference is None:
                raise StratiError(f"op '{inner.name}' has no 'reference' attribute: the interpreter cannot run it", inner)
            result = reference(inner, *(scope[v] for v in check_operands(inner)))
            results = list(result) if isinstance(result, (tuple, list)) else [result]
            scope.update(zip(inner.results, (np.asarray(r) for r in results)))
    return tuple(outs)


register_op_attr("tensor.generic", "reference", generic_reference)
register_op_attr("tensor.extract", "reference", extract)
