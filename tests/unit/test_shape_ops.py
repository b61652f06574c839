"""Numerics of the data-movement ops' references, against onnxruntime running the equivalent ONNX node.

The expected output shape given to strati (the declared result type) is taken from
onnxruntime's result, so the type inference (the verifier) is checked too.
"""

import numpy as np
import pytest
from helpers import one_op, parse, run_ir, run_onnx, run_op, tensor_type
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.diagnostics import StratiError
from strati.dialects.graph.attrs.shape import SHAPE_OPS

RNG = np.random.default_rng(0)
DTYPES = [np.float32, np.int64]
I64 = np.int64


def sample(shape, dtype=np.float32):
    if np.dtype(dtype).kind == "f":
        return np.asarray(RNG.standard_normal(shape), dtype)
    return RNG.integers(-100, 100, shape).astype(dtype)


def ints(name, values):
    """A property ``name = array<i64: ...>``."""
    return f"{name} = array<i64: {', '.join(str(v) for v in values)}>"


def check(op, inputs, onnx_op, onnx_inputs, props="", n_outputs=1, opset=13, **attrs):
    """Run strati's op with the result shapes onnxruntime produced; compare exactly."""
    want = run_onnx(onnx_op, onnx_inputs, n_outputs=n_outputs, opset=opset, **attrs)
    got = run_op(op, inputs, [w.shape for w in want], props=props)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
    return got


# --- reshape, broadcast_to, flatten, transpose -------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape,target",
    [((3, 4), (2, 6)), ((2, 3, 5), (5, 6)), ((7,), (1, 7, 1)), ((1,), ()), ((), (1, 1)), ((2, 0, 3), (0, 4))],
)
def test_reshape(shape, target, dtype):
    x = sample(shape, dtype)
    check("reshape", [x], "Reshape", [x, np.array(target, I64)], opset=14, allowzero=1)  # 0 is a size, not "copy"


def test_reshape_resolves_one_dynamic_dimension():
    x = sample((3, 4, 5))
    text = f"""func.func @main(%x: tensor<3x4x5xf32>) -> tensor<6x?xf32> {{
  %r = graph.reshape %x : (tensor<3x4x5xf32>) -> tensor<6x?xf32>
  func.return %r : tensor<6x?xf32>
}}"""
    (got,) = run_ir(text, x)
    (want,) = run_onnx("Reshape", [x, np.array([6, -1], I64)])
    np.testing.assert_array_equal(got, want)
    op = next(o for o in parse(text).walk() if o.name == "graph.reshape")
    (inferred,) = registry.get_op_attr("graph.reshape", "infer_type")(op)
    assert str(inferred) == tensor_type((6, 10), np.float32)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape,target",
    [((3, 1), (2, 3, 4)), ((1,), (5,)), ((2, 1, 5), (2, 3, 5)), ((), (2, 2)), ((4,), (3, 1, 4)), ((1, 1), (1, 1))],
)
def test_broadcast_to(shape, target, dtype):
    x = sample(shape, dtype)
    (got,) = check("broadcast_to", [x], "Expand", [x, np.array(target, I64)])
    assert got.flags.writeable  # a real array, not a zero-stride view


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 3, 5), (1, 4, 1, 3)])
def test_flatten_every_axis(shape, dtype):
    x = sample(shape, dtype)
    for axis in range(-len(shape), len(shape) + 1):
        check("flatten", [x], "Flatten", [x], props=f"axis = {axis}", axis=axis)


def test_flatten_default_axis():
    x = sample((3, 2, 5))
    check("flatten", [x], "Flatten", [x])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape,perm",
    [((3, 4), None), ((2, 3, 5), None), ((2, 3, 5), (1, 0, 2)), ((2, 3, 5), (2, 0, 1)), ((1, 2, 3, 4), (0, 3, 1, 2)), ((7,), (0,))],
)
def test_transpose(shape, perm, dtype):
    x = sample(shape, dtype)
    props = "" if perm is None else ints("perm", perm)
    attrs = {} if perm is None else {"perm": list(perm)}
    check("transpose", [x], "Transpose", [x], props=props, **attrs)


# --- squeeze, unsqueeze ----------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape,axes",
    [((1, 3, 1), None), ((1, 3, 1), (0,)), ((1, 3, 1), (-1,)), ((1, 3, 1), (2, 0)), ((1,), None), ((1, 1), (-2,)), ((4, 5), None)],
)
def test_squeeze(shape, axes, dtype):
    x = sample(shape, dtype)
    props = "" if axes is None else ints("axes", axes)
    onnx_inputs = [x] if axes is None else [x, np.array(axes, I64)]
    (got,) = check("squeeze", [x], "Squeeze", onnx_inputs, props=props)
    assert isinstance(got, np.ndarray)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape,axes",
    [((3, 4), (0,)), ((3, 4), (-1,)), ((3, 4), (1, 3)), ((3, 4), (-1, 0)), ((), (0,)), ((5,), (0, 2, -1))],
)
def test_unsqueeze(shape, axes, dtype):
    x = sample(shape, dtype)
    check("unsqueeze", [x], "Unsqueeze", [x, np.array(axes, I64)], props=ints("axes", axes))


# --- slice -----------------------------------------------------------------------------

INT_MAX, INT_MIN = 2**63 - 1, -(2**63)
SLICES = [
    # shape, starts, ends, axes, steps
    ((5, 7), (1, 0), (4, -1), None, None),
    ((5, 7), (-3,), (100,), (1,), None),  # clamping past the end
    ((5, 7), (-100, 2), (3, 6), None, (2, 3)),  # clamping before the start, steps
    ((5, 7), (4,), (-100,), (0,), (-1,)),  # negative step to the beginning
    ((5, 7), (-1, 5), (INT_MIN, 0), (-2, -1), (-2, -3)),  # negative axes and steps
    ((5, 7), (100,), (-100,), (1,), (-2,)),  # negative step, start clamped to the last
    ((5, 7), (3,), (1,), (0,), None),  # empty result
    ((2, 3, 4), (0, 1), (INT_MAX, 2), (2, 0), None),
    ((2, 3, 4), (2,), (0,), (-1,), (-1,)),
    ((1, 9), (1,), (9,), (1,), (4,)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", SLICES)
def test_slice(case, dtype):
    shape, starts, ends, axes, steps = case
    x = sample(shape, dtype)
    props = [ints("starts", starts), ints("ends", ends)]
    onnx_inputs = [x, np.array(starts, I64), np.array(ends, I64), None, None]
    if axes is not None:
        props.append(ints("axes", axes))
        onnx_inputs[3] = np.array(axes, I64)
    if steps is not None:
        props.append(ints("steps", steps))
        onnx_inputs[4] = np.array(steps, I64)
        if axes is None:
            onnx_inputs[3] = np.arange(len(starts), dtype=I64)
    check("slice", [x], "Slice", onnx_inputs, props=", ".join(props))


# --- pad -------------------------------------------------------------------------------

PADS = [
    ((3, 4), (1, 2, 0, 1)),
    ((3, 4), (0, 0, 2, 3)),
    ((3, 5), (-1, 2, 0, -2)),  # negative pads crop
    ((4, 5), (1, -1, -1, 3)),  # crop and pad the same axis
    ((2, 3, 5), (0, 1, 2, 1, 2, 4)),
    ((7,), (6, 6)),
    ((2, 1), (1, 0, 1, 0)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["constant", "reflect", "edge"])
@pytest.mark.parametrize("shape,pads", PADS)
def test_pad(shape, pads, mode, dtype):
    x = sample(shape, dtype)
    rank = len(shape)
    kept = [d + min(b, 0) + min(e, 0) for d, b, e in zip(shape, pads[:rank], pads[rank:])]
    if mode == "reflect" and any(p >= k for p, k in zip(pads, kept * 2) if p > 0):
        pytest.skip("reflect needs pads smaller than the dimension (a verifier error)")
    value = 1.5 if np.dtype(dtype).kind == "f" else -7.0
    props = [ints("pads", pads), f'mode = "{mode}"']
    onnx_inputs = [x, np.array(pads, I64)]
    if mode == "constant":
        props.append(f"value = {value}")
        onnx_inputs.append(np.array(value, dtype))
    check("pad", [x], "Pad", onnx_inputs, props=", ".join(props), opset=18, mode=mode)


def test_pad_default_is_zero_constant():
    x = sample((2, 3))
    check("pad", [x], "Pad", [x, np.array([1, 1, 1, 1], I64)], props=ints("pads", (1, 1, 1, 1)))


# --- concat, split ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shapes,axis",
    [([(2, 3), (4, 3)], 0), ([(2, 3), (2, 1), (2, 5)], -1), ([(1, 2, 3), (1, 2, 3)], 1), ([(5,)], 0), ([(2, 0), (2, 3)], 1)],
)
def test_concat(shapes, axis, dtype):
    xs = [sample(s, dtype) for s in shapes]
    check("concat", xs, "Concat", xs, props=f"axis = {axis}", axis=axis)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape,axis,sizes",
    [((3, 6), 1, (2, 4)), ((3, 6), -1, None), ((7, 2), 0, (1, 3, 3)), ((6, 5), 0, None), ((2, 5, 3), -2, (5,)), ((4, 3), 0, (0, 4))],
)
def test_split(shape, axis, sizes, dtype):
    x = sample(shape, dtype)
    n = 3 if sizes is None else len(sizes)
    if sizes is None:
        props = f"axis = {axis}"
        onnx_inputs = [x]
    else:
        props = f"axis = {axis}, {ints('sizes', sizes)}"
        onnx_inputs = [x, np.array(sizes, I64)]
    check("split", [x], "Split", onnx_inputs, props=props, n_outputs=n, axis=axis)


# --- gather ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("index_dtype", [np.int64, np.int32])
@pytest.mark.parametrize(
    "shape,indices,axis",
    [
        ((5, 4), [0, -1, 3, -5, 2], 0),
        ((5, 4), [[1, -2], [0, 3]], 1),
        ((2, 3, 4), 2, -1),  # a scalar index drops the axis
        ((7,), -3, 0),  # ... down to a rank-0 result
        ((2, 3, 4), [[[0]], [[-3]]], -2),
        ((1, 3), [0, 0, 0], 0),
    ],
)
def test_gather(shape, indices, axis, index_dtype, dtype):
    x = sample(shape, dtype)
    idx = np.array(indices, index_dtype)
    want = run_onnx("Gather", [x, idx], axis=axis)[0]
    (got,) = run_op("gather", [x, idx], [want.shape], out_dtypes=[x.dtype], props=f"axis = {axis}")
    assert isinstance(got, np.ndarray) and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


# --- resize ----------------------------------------------------------------------------

COORDINATE_MODES = ["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel", "tf_half_pixel_for_nn"]
NEAREST_MODES = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]
RESIZE_SCALES = [
    ((1, 2, 3, 5), (1.0, 1.0, 2.0, 3.0)),  # upsampling, odd sizes
    ((1, 1, 7, 9), (1.0, 1.0, 0.5, 0.75)),  # downsampling
    ((2, 5), (1.7, 0.6)),
    ((3, 4), (1.0, 1.0)),
]
RESIZE_SIZES = [((1, 2, 3, 5), (1, 2, 7, 4)), ((4, 5), (5, 1)), ((1, 6), (1, 15))]
RESIZE_DTYPES = [np.float32, np.int32]  # onnxruntime has no int64 Resize


def resize_props(ctm, nearest, scales=None):
    props = [f'coordinate_transformation_mode = "{ctm}"', f'nearest_mode = "{nearest}"']
    if scales is not None:
        props.append(f"scales = array<f32: {', '.join(repr(float(s)) for s in scales)}>")
    return ", ".join(props)


@pytest.mark.parametrize("opset", [13, 19])
@pytest.mark.parametrize("nearest", NEAREST_MODES)
@pytest.mark.parametrize("ctm", COORDINATE_MODES)
def test_resize_scales(ctm, nearest, opset):
    for i, (shape, scales) in enumerate(RESIZE_SCALES):
        x = sample(shape, RESIZE_DTYPES[i % 2])
        check(
            "resize", [x], "Resize", [x, None, np.array(scales, np.float32)],
            props=resize_props(ctm, nearest, scales), opset=opset,
            mode="nearest", coordinate_transformation_mode=ctm, nearest_mode=nearest,
        )  # fmt: skip


@pytest.mark.parametrize("opset", [13, 19])
@pytest.mark.parametrize("nearest", NEAREST_MODES)
@pytest.mark.parametrize("ctm", COORDINATE_MODES)
def test_resize_sizes(ctm, nearest, opset):
    for i, (shape, sizes) in enumerate(RESIZE_SIZES):
        x = sample(shape, RESIZE_DTYPES[i % 2])
        check(
            "resize", [x], "Resize", [x, None, None, np.array(sizes, I64)],
            props=resize_props(ctm, nearest), opset=opset,
            mode="nearest", coordinate_transformation_mode=ctm, nearest_mode=nearest,
        )  # fmt: skip


def test_resize_default_modes():
    x = sample((1, 1, 3, 4))
    check("resize", [x], "Resize", [x, None, None, np.array([1, 1, 5, 7], I64)], mode="nearest")


# --- dynamic dimensions ----------------------------------------------------------------


def run_dynamic(op, props, in_type, out_type, x):
    text = f"""func.func @main(%x: {in_type}) -> {out_type} {{
  %r = graph.{op} %x {{{props}}} : ({in_type}) -> {out_type}
  func.return %r : {out_type}
}}"""
    return run_ir(text, x)[0]


def test_dynamic_dimensions_run():
    x = sample((3, 8, 1))
    got = run_dynamic("slice", "starts = array<i64: -2>, ends = array<i64: 0>, steps = array<i64: -3>, axes = array<i64: 1>",
                      "tensor<?x?x1xf32>", "tensor<?x?x1xf32>", x)  # fmt: skip
    want = run_onnx("Slice", [x, np.array([-2], I64), np.array([0], I64), np.array([1], I64), np.array([-3], I64)])[0]
    np.testing.assert_array_equal(got, want)
    got = run_dynamic("squeeze", "axes = array<i64: -1>", "tensor<?x8x?xf32>", "tensor<?x8xf32>", x)
    np.testing.assert_array_equal(got, run_onnx("Squeeze", [x, np.array([-1], I64)])[0])
    got = run_dynamic("split", "axis = 1", "tensor<3x?x1xf32>", "tensor<3x?x1xf32>", x)
    np.testing.assert_array_equal(got, x)
    got = run_dynamic("broadcast_to", "", "tensor<?x8x1xf32>", "tensor<2x?x8x5xf32>", x)
    np.testing.assert_array_equal(got, run_onnx("Expand", [x, np.array([2, 3, 8, 5], I64)])[0])
    got = run_dynamic("resize", "scales = array<f32: 1.0, 0.5, 3.0>", "tensor<?x8x1xf32>", "tensor<?x4x3xf32>", x)
    np.testing.assert_array_equal(got, run_onnx("Resize", [x, None, np.array([1, 0.5, 3], np.float32)], mode="nearest")[0])


@pytest.mark.parametrize(
    "op,props,in_type,declared,inferred",
    [
        ("reshape", "", "tensor<3x4xf32>", "tensor<?x6xf32>", "tensor<2x6xf32>"),
        ("reshape", "", "tensor<?x4xf32>", "tensor<2x?xf32>", "tensor<2x?xf32>"),
        ("broadcast_to", "", "tensor<5x?xi64>", "tensor<2x?x?xi64>", "tensor<2x5x?xi64>"),
        ("flatten", "axis = 2", "tensor<2x?x3x4xf32>", "tensor<?x?xf32>", "tensor<?x12xf32>"),
        ("transpose", "", "tensor<2x?x3xi64>", "tensor<?x?x?xi64>", "tensor<3x?x2xi64>"),
        ("squeeze", "axes = array<i64: 0>", "tensor<?x3xf32>", "tensor<?xf32>", "tensor<3xf32>"),
        ("unsqueeze", "axes = array<i64: 0, -1>", "tensor<?x3xf32>", "tensor<?x?x?x?xf32>", "tensor<1x?x3x1xf32>"),
        ("slice", "starts = array<i64: 1, 1>, ends = array<i64: 3, 9>", "tensor<?x4xf32>", "tensor<?x?xf32>", "tensor<?x3xf32>"),
        ("pad", "pads = array<i64: 1, 2, 3, 4>", "tensor<?x4xf32>", "tensor<?x?xf32>", "tensor<?x10xf32>"),
        ("split", "axis = 1", "tensor<?x4xf32>", "tensor<?x?xf32>", "tensor<?x4xf32>"),
        ("gather", "", "tensor<?x4xf32>", "tensor<?x?xf32>", "tensor<4xf32>"),  # indices tensor<i64> below
        ("resize", "scales = array<f32: 2.0, 1.5>", "tensor<?x5xf32>", "tensor<?x?xf32>", "tensor<?x7xf32>"),
    ],
)
def test_dynamic_inference(op, props, in_type, declared, inferred):
    """A declared result with dynamic dimensions is refined to what the op determines."""
    operands, types = "%x", in_type
    if op == "gather":
        operands, types = "%x, %i", f"{in_type}, tensor<i64>"
        declared = "tensor<?xf32>"
    text = f"""func.func @main(%x: {in_type}, %i: tensor<i64>) -> {declared} {{
  %r = graph.{op} {operands} {{{props}}} : ({types}) -> {declared}
  func.return %r : {declared}
}}"""
    result = next(o for o in parse(text).walk() if o.name == f"graph.{op}")
    (got,) = registry.get_op_attr(f"graph.{op}", "infer_type")(result)
    assert str(got) == inferred


# --- verifier messages (the full set is tests/lit/dialects/graph/shape-invalid.mlir) -------


@pytest.mark.parametrize(
    "op,shapes,props,message",
    [
        ("reshape", [(3, 4), (2, 5)], "", "cannot reshape 12 elements [3x4] into 10 [2x5]"),
        ("transpose", [(2, 3, 4), (2, 2, 3)], "perm = array<i64: 0, 0, 1>", "perm [0, 0, 1] is not a permutation of 0..2"),
        ("split", [(3, 6), (3, 2), (3, 3)], "axis = 1, sizes = array<i64: 2, 3>", "split sizes [2, 3] do not sum to dimension 1 of size 6"),
        ("slice", [(3, 4), (3, 4)], "starts = array<i64: 0>, ends = array<i64: 1>, steps = array<i64: 0>", "steps [0] contain a zero step"),
        ("pad", [(3, 2), (3, 6)], 'pads = array<i64: 0, 2, 0, 2>, mode = "reflect"', "reflect pad 2 of dimension 1 must be smaller than its size 2"),
    ],
)
def test_verifier_messages(op, shapes, props, message):
    inputs = [np.zeros(shapes[0], np.float32)]
    with pytest.raises(VerifyException) as err:
        parse(one_op(op, inputs, shapes[1:], props=props))
    assert message in str(err.value)


def test_gather_out_of_range_index_is_an_error():
    x, idx = sample((4, 3)), np.array([1, 4], I64)
    with pytest.raises(StratiError, match="index 4 is out of range for dimension 0 of size 4"):
        run_op("gather", [x, idx], [(2, 3)], out_dtypes=[x.dtype])


def test_registered_attributes():
    for name in SHAPE_OPS:
        attrs = registry.op_attrs(f"graph.{name}")
        assert {"infer_type", "reference", "pattern", "flops"} <= attrs.keys()
        want = registry.OpPattern.BROADCAST if name == "broadcast_to" else registry.OpPattern.INJECTIVE
        assert attrs["pattern"].value == want
    op = next(o for o in parse(
        "func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
        "  %r = graph.transpose %x : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
        "  func.return %r : tensor<3x2xf32>\n}"
    ).walk() if o.name == "graph.transpose")  # fmt: skip
    assert registry.get_op_attr("graph.transpose", "flops")(op) == 0
