"""convert-graph-to-tensor on the reduce and data-movement ops: for each op, over several shapes
and properties, the graph-level function and its tensor-level lowering give the same results
under the reference interpreter (exactly, or at rtol 1e-5 for float reductions)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import one_op, parse

from strati.context import make_context
from strati.runtime.interpreter import run_function
from strati.transforms.convert_graph_to_tensor import ConvertGraphToTensorPass

RNG = np.random.default_rng(0)
F32, I64 = np.float32, np.int64


def sample(shape, dtype=F32, low=-20, high=20):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return RNG.standard_normal(shape).astype(dtype)
    if dtype == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.kind == "u":
        return RNG.integers(0, high, shape).astype(dtype)
    return RNG.integers(low, high, shape).astype(dtype)


def ints(name, values) -> str:
    return f"{name} = array<i64: {', '.join(str(v) for v in values)}>"


def props_text(*items) -> str:
    return ", ".join(i for i in items if i)


def lower_and_compare(op, inputs, out_shapes, out_dtypes=None, props="", rtol=None):
    """Run the one-op function, lower it, check no graph op is left, run again, compare."""
    module = parse(one_op(op, inputs, out_shapes, out_dtypes, props))
    want = run_function(module, inputs)
    ConvertGraphToTensorPass().apply(make_context(), module)
    left = [o.name for o in module.walk() if o.dialect_name() == "graph"]
    assert not left, left
    module.verify()
    got = run_function(module, inputs)
    again = run_function(parse(str(module)), inputs)  # the lowered IR prints and parses back
    assert len(got) == len(want)
    for g, a, w in zip(got, again, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        if rtol is None or w.dtype.kind != "f":
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol * 1e-1, equal_nan=True)
        np.testing.assert_array_equal(a, g)
    return got


# --- reductions --------------------------------------------------------------------------

REDUCE_CASES = [
    # shape, axes (None: the property is absent), keepdims
    ((3, 4), (1,), False),
    ((3, 4), (0,), True),
    ((2, 3, 5), (-1, 0), False),
    ((2, 3, 5), (1,), True),
    ((2, 3, 5), None, True),
    ((2, 3, 5), None, False),
    ((1, 7, 1), (0, 2), False),
    ((1, 7, 1), (-2,), True),
    ((5,), (0,), False),
    ((4, 1, 3, 2), (1, 3), True),
    ((3, 0), (1,), False),  # an empty reduction
]
REDUCE_NP = {
    "reduce_sum": np.sum,
    "reduce_mean": np.mean,
    "reduce_max": np.max,
    "reduce_min": np.min,
    "reduce_prod": np.prod,
}


def reduce_props(axes, keepdims, noop=False):
    return props_text(ints("axes", axes) if axes is not None else "", f"keepdims = {str(keepdims).lower()}",
                      "noop_with_empty_axes = true" if noop else "")  # fmt: skip


def reduced_shape(shape, axes, keepdims):
    axes = range(len(shape)) if axes is None else [a % len(shape) for a in axes]
    return tuple(1 if i in axes else n for i, n in enumerate(shape) if keepdims or i not in axes)


@pytest.mark.parametrize("shape,axes,keepdims", REDUCE_CASES)
@pytest.mark.parametrize("op", list(REDUCE_NP))
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_reduce(op, shape, axes, keepdims, dtype):
    x = sample(shape, dtype, -5, 6) if op == "reduce_prod" else sample(shape, dtype)
    if op == "reduce_prod" and dtype == np.float32:
        x = (1 + 0.1 * x).astype(dtype)
    out = reduced_shape(shape, axes, keepdims)
    (got,) = lower_and_compare(op, [x], [out], props=reduce_props(axes, keepdims), rtol=1e-5)
    if 0 not in shape or op in ("reduce_sum", "reduce_prod"):
        np_axes = None if axes is None else tuple(axes)
        with np.errstate(all="ignore"):
            want = REDUCE_NP[op](x, axis=np_axes, keepdims=keepdims)
        if dtype == np.int32 and op == "reduce_mean":
            want = np.trunc(np.sum(x, axis=np_axes, keepdims=keepdims, dtype=np.int64) / max(x.size // max(got.size, 1), 1))
        np.testing.assert_allclose(got, want.astype(dtype), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("op", list(REDUCE_NP))
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.float64, np.float16])
def test_reduce_dtypes(op, dtype):
    x = sample((3, 5, 4), dtype, -100, 100)
    if op == "reduce_prod" and np.dtype(dtype).kind == "f":
        x = (1 + 0.1 * x).astype(dtype)
    rtol = 1e-2 if dtype == np.float16 else 1e-5
    lower_and_compare(op, [x], [(3, 1, 4)], props=reduce_props((1,), True), rtol=rtol)
    lower_and_compare(op, [x], [()], props=reduce_props(None, False), rtol=rtol)


@pytest.mark.parametrize("op", ["reduce_max", "reduce_min"])
def test_reduce_bool_and_nan(op):
    x = sample((4, 5), np.bool_)
    x[0] = True
    x[1] = False
    lower_and_compare(op, [x], [(4,)], props=reduce_props((1,), False))
    f = sample((3, 4))
    f[1, 2] = np.nan
    (got,) = lower_and_compare(op, [f], [(3,)], props=reduce_props((1,), False), rtol=1e-5)
    assert np.isnan(got[1]) and not np.isnan(got[0])


@pytest.mark.parametrize("op", list(REDUCE_NP))
def test_reduce_identity_and_rank0(op):
    x = sample((3, 4))
    lower_and_compare(op, [x], [(3, 4)], props=reduce_props(None, True, noop=True))
    lower_and_compare(op, [np.array(2.5, F32)], [()], props=reduce_props(None, False))


def test_reduce_mean_of_integers_truncates_toward_zero():
    x = np.array([[-7, 0, 0], [7, 1, 0], [-1, -1, 0]], np.int32)
    (got,) = lower_and_compare("reduce_mean", [x], [(3,)], props=reduce_props((1,), False))
    np.testing.assert_array_equal(got, [-2, 2, 0])
    u = np.array([[250, 251], [1, 2]], np.uint8)
    (got,) = lower_and_compare("reduce_mean", [u], [(2,)], props=reduce_props((1,), False))
    np.testing.assert_array_equal(got, [250, 1])


# --- argmax ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,axis",
    [((3, 4), 1), ((3, 4), 0), ((2, 3, 5), -1), ((2, 3, 5), 1), ((1, 7, 1), 1), ((5,), 0), ((4, 1), -1)],
)
@pytest.mark.parametrize("keepdims", [True, False])
@pytest.mark.parametrize("last", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8, np.uint8, np.bool_])
def test_argmax(shape, axis, keepdims, last, dtype):
    x = sample(shape, dtype, -3, 3)  # small integers: ties
    out = list(shape)
    if keepdims:
        out[axis] = 1
    else:
        del out[axis]
    props = props_text(f"axis = {axis}", f"keepdims = {str(keepdims).lower()}", "select_last_index = true" if last else "")
    (got,) = lower_and_compare("argmax", [x], [tuple(out)], [I64], props=props)
    flipped = (shape[axis] - 1) - np.argmax(np.flip(x, axis), axis=axis)
    want = flipped if last else np.argmax(x, axis=axis)
    np.testing.assert_array_equal(got.reshape(want.shape), want)


@pytest.mark.parametrize("last", [False, True])
def test_argmax_nan_and_infinities(last):
    x = np.array([[1, np.nan, 3, np.nan], [-np.inf, -np.inf, -np.inf, -np.inf], [2, np.inf, np.inf, 0]], F32)
    props = props_text("axis = 1", "keepdims = false", "select_last_index = true" if last else "")
    (got,) = lower_and_compare("argmax", [x], [(3,)], [I64], props=props)
    np.testing.assert_array_equal(got, [3, 3, 2] if last else [1, 0, 1])


# --- reshape, flatten, squeeze, unsqueeze, transpose, broadcast_to -------------------------

DTYPES = [np.float32, np.int64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,target", [((3, 4), (2, 6)), ((1, 5, 1), (5,)), ((7,), (1, 7, 1)), ((), (1, 1)), ((2, 0, 3), (0, 4)), ((3, 4), (3, 4))])
def test_reshape(shape, target, dtype):
    lower_and_compare("reshape", [sample(shape, dtype)], [target])


@pytest.mark.parametrize("shape,axis", [((2, 3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), 3), ((5,), 1), ((1, 1), 1)])
def test_flatten(shape, axis):
    a = axis + len(shape) if axis < 0 else axis
    out = (int(np.prod(shape[:a])), int(np.prod(shape[a:])))
    lower_and_compare("flatten", [sample(shape)], [out], props=f"axis = {axis}")


@pytest.mark.parametrize("shape,axes", [((1, 3, 1), None), ((1, 3, 1), (0, -1)), ((1, 3, 1), (2,)), ((2, 3), None), ((1,), (0,))])
def test_squeeze(shape, axes):
    x = sample(shape, np.int32)
    out = np.squeeze(x, axis=axes).shape
    lower_and_compare("squeeze", [x], [out], props=ints("axes", axes) if axes is not None else "")


@pytest.mark.parametrize("shape,axes", [((3, 4), (0,)), ((3, 4), (-1,)), ((3, 4), (1, 3)), ((), (0,)), ((5,), (0, -1))])
def test_unsqueeze(shape, axes):
    x = sample(shape)
    out = np.expand_dims(x, axes).shape
    lower_and_compare("unsqueeze", [x], [out], props=ints("axes", axes))


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.bool_])
@pytest.mark.parametrize("shape,perm", [((3, 4), None), ((2, 3, 5), (1, 0, 2)), ((2, 3, 5), (2, 0, 1)), ((2, 3, 5), None), ((1, 4, 1, 3), (3, 2, 0, 1)), ((5,), None), ((3, 4), (0, 1))])
def test_transpose(shape, perm, dtype):
    x = sample(shape, dtype)
    (got,) = lower_and_compare("transpose", [x], [np.transpose(x, perm).shape], props=ints("perm", perm) if perm else "")
    np.testing.assert_array_equal(got, np.transpose(x, perm))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,target", [((3, 1), (2, 3, 5)), ((1,), (4,)), ((), (2, 3)), ((2, 1, 3), (2, 4, 3)), ((3, 4), (3, 4)), ((1, 1), (1, 7))])
def test_broadcast_to(shape, target, dtype):
    x = sample(shape, dtype)
    (got,) = lower_and_compare("broadcast_to", [x], [target])
    np.testing.assert_array_equal(got, np.broadcast_to(x, target))


# --- slice, split, concat ----------------------------------------------------------------

SLICES = [
    # shape, starts, ends, axes, steps
    ((5, 6), (1, 0), (4, 6), None, None),
    ((5, 6), (-1,), (0,), None, (-1,)),
    ((5, 6), (4, 5), (-100, -100), (0, 1), (-2, -3)),
    ((5, 6), (0,), (100,), (-1,), (4,)),
    ((5, 6), (-2,), (100,), (0,), None),
    ((7,), (2,), (2,), None, None),  # empty
    ((7,), (6,), (-8,), None, (-1,)),  # the whole axis reversed
    ((7,), (10,), (0,), None, (-2,)),  # start clamped to the last element
    ((3, 1, 4), (0, 0), (1, 1), (1, 2), (1, 1)),
    ((3, 4, 5), (1, -1, 0), (3, 0, 5), (2, 1, 0), (2, -1, 1)),
]


def np_slice(x, starts, ends, axes, steps):
    index = [slice(None)] * x.ndim
    axes = range(len(starts)) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    for a, st, en, sp in zip(axes, starts, ends, steps):
        index[a] = slice(st, en, sp)
    return x[tuple(index)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,starts,ends,axes,steps", SLICES)
def test_slice(shape, starts, ends, axes, steps, dtype):
    x = sample(shape, dtype)
    # numpy's slice agrees with ONNX's on these (no end of -1 meaning "before 0" going backward)
    want = np_slice(x, starts, ends, axes, steps) if ends != (-8,) else x[::-1]
    props = props_text(ints("starts", starts), ints("ends", ends), ints("axes", axes) if axes else "", ints("steps", steps) if steps else "")
    (got,) = lower_and_compare("slice", [x], [want.shape], props=props)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape,axis,sizes,n", [((6, 4), 0, None, 3), ((6, 4), -1, None, 2), ((6, 5), 1, (2, 0, 3), 3), ((3, 7, 2), 1, (7,), 1), ((5,), 0, (1, 4), 2)])
def test_split(shape, axis, sizes, n):
    x = sample(shape)
    parts = np.split(x, np.cumsum(sizes)[:-1] if sizes else n, axis=axis)
    props = props_text(f"axis = {axis}", ints("sizes", sizes) if sizes else "")
    got = lower_and_compare("split", [x], [p.shape for p in parts], props=props)
    for g, p in zip(got, parts):
        np.testing.assert_array_equal(g, p)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes,axis", [([(2, 3), (4, 3)], 0), ([(2, 3), (2, 1), (2, 5)], -1), ([(3,)], 0), ([(2, 0), (2, 3)], 1), ([(1, 2, 3), (1, 2, 3)], 1)])
def test_concat(shapes, axis, dtype):
    xs = [sample(s, dtype) for s in shapes]
    want = np.concatenate(xs, axis=axis)
    (got,) = lower_and_compare("concat", xs, [want.shape], props=f"axis = {axis}")
    np.testing.assert_array_equal(got, want)


# --- pad ---------------------------------------------------------------------------------

PADS = [
    # shape, pads (begins then ends)
    ((3, 4), (1, 2, 1, 1)),
    ((3, 4), (0, 0, 0, 0)),
    ((5,), (2, 3)),
    ((1, 5), (0, 1, 0, 2)),
    ((4, 5), (-1, 2, 1, -2)),  # crop and pad
    ((4, 5), (-1, -1, -2, 0)),  # crop only
    ((2, 3, 4), (0, 2, 1, 1, 0, 3)),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("mode", ["constant", "reflect", "edge"])
@pytest.mark.parametrize("shape,pads", PADS)
def test_pad(shape, pads, mode, dtype):
    x = sample(shape, dtype)
    rank = len(shape)
    begins, ends = pads[:rank], pads[rank:]
    kept = [n + min(b, 0) + min(e, 0) for n, b, e in zip(shape, begins, ends)]
    if mode == "reflect" and any(p >= k for p, k in zip([*begins, *ends], kept * 2) if p > 0):
        pytest.skip("reflect pads must be smaller than the (cropped) dimension")
    value = 1.5 if dtype == np.float32 else -7.0
    props = props_text(ints("pads", pads), f'mode = "{mode}"', f"value = {value}" if mode == "constant" else "")
    crop = x[tuple(slice(max(-b, 0), n - max(-e, 0)) for n, b, e in zip(shape, begins, ends))]
    widths = [(max(b, 0), max(e, 0)) for b, e in zip(begins, ends)]
    want = np.pad(crop, widths, mode=mode, **({"constant_values": value} if mode == "constant" else {}))
    (got,) = lower_and_compare("pad", [x], [want.shape], props=props)
    np.testing.assert_array_equal(got, want.astype(dtype))


# --- gather ------------------------------------------------------------------------------


@pytest.mark.parametrize("index_dtype", [np.int64, np.int32])
@pytest.mark.parametrize(
    "shape,indices,axis",
    [
        ((5, 3), [4, 0, -1, 2], 0),
        ((5, 3), [[0, -3], [2, 1]], 1),
        ((5, 3), 2, 0),  # rank-0 indices
        ((2, 3, 4), [[-4, 3, 0]], -1),
        ((2, 3, 4), [1, -3, 0, 2], 1),
        ((1, 6), [[5], [-6]], 1),
    ],
)
def test_gather(shape, indices, axis, index_dtype):
    data = sample(shape)
    idx = np.array(indices, index_dtype)
    want = np.take(data, np.where(idx < 0, idx + shape[axis], idx), axis=axis)
    (got,) = lower_and_compare("gather", [data, idx], [want.shape], [data.dtype], props=f"axis = {axis}")
    np.testing.assert_array_equal(got, want)


# --- resize ------------------------------------------------------------------------------

COORDINATE_MODES = ["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel", "tf_half_pixel_for_nn"]
NEAREST_MODES = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]
RESIZE_SCALES = [
    ((1, 2, 3, 5), (1.0, 1.0, 2.0, 3.0)),  # upsampling, odd sizes
    ((1, 1, 7, 9), (1.0, 1.0, 0.5, 0.75)),  # downsampling
    ((2, 5), (1.7, 0.6)),
    ((3, 4), (1.0, 1.0)),
    ((4, 3), (0.3, 1.5)),  # an output of size 1
]
RESIZE_SIZES = [((1, 2, 3, 5), (1, 2, 7, 4)), ((4, 5), (5, 1)), ((1, 6), (1, 15)), ((3, 3), (2, 3))]


def resize_props(ctm, nearest, scales=None):
    props = [f'coordinate_transformation_mode = "{ctm}"', f'nearest_mode = "{nearest}"']
    if scales is not None:
        props.append(f"scales = array<f32: {', '.join(repr(float(s)) for s in scales)}>")
    return ", ".join(props)


@pytest.mark.parametrize("nearest", NEAREST_MODES)
@pytest.mark.parametrize("ctm", COORDINATE_MODES)
def test_resize(ctm, nearest):
    for i, (shape, scales) in enumerate(RESIZE_SCALES):
        x = sample(shape, [np.float32, np.int32][i % 2])
        out = tuple(int(np.floor(np.float32(n) * np.float32(s))) for n, s in zip(shape, scales))
        lower_and_compare("resize", [x], [out], props=resize_props(ctm, nearest, scales))
    for i, (shape, sizes) in enumerate(RESIZE_SIZES):
        x = sample(shape, [np.float32, np.int64][i % 2])
        lower_and_compare("resize", [x], [sizes], props=resize_props(ctm, nearest))
