"""The reference interpreter on tensor-level IR: tensor.generic (vectorised), the data-movement
ops, and the upstream arith/math ops of generic bodies, each against an independent numpy formula."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import run_ir, tensor_type

RNG = np.random.default_rng(0)


def T(x) -> str:
    x = np.asarray(x)
    return tensor_type(x.shape, x.dtype)


def func(inputs, results: list[str], body: str) -> str:
    """A function @main over the arrays ``inputs`` (%a0, %a1, ...) returning %r0, %r1, ..."""
    args = ", ".join(f"%a{i}: {T(x)}" for i, x in enumerate(inputs))
    rets = ", ".join(f"%r{i}" for i in range(len(results)))
    sig = results[0] if len(results) == 1 else f"({', '.join(results)})"
    return f"func.func @main({args}) -> {sig} {{\n{body}\n  func.return {rets} : {', '.join(results)}\n}}\n"


def generic(result: str, ins: list[tuple[str, str]], outs: list[tuple[str, str]], maps: list[str], kinds: list[str], args: list[str], body: str) -> str:
    """``result = tensor.generic`` with the given operands (name, type), maps, kinds and body."""
    maps_text = ", ".join(f"affine_map<{m}>" for m in maps)
    kinds_text = ", ".join(f'"{k}"' for k in kinds)
    ins_text = f" ins({', '.join(n for n, _ in ins)} : {', '.join(t for _, t in ins)})" if ins else ""
    outs_text = f" outs({', '.join(n for n, _ in outs)} : {', '.join(t for _, t in outs)})"
    block_args = ", ".join(args)
    return (
        f"  {result} = tensor.generic {{indexing_maps = [{maps_text}], iterator_types = [{kinds_text}]}}{ins_text}{outs_text} {{\n"
        f"  ^bb0({block_args}):\n{body}\n  }} -> {', '.join(t for _, t in outs)}"
    )


def filled(name: str, value: str, t: str, element: str) -> str:
    return (
        f"  {name}_v = arith.constant {value} : {element}\n"
        f"  {name}_e = tensor.empty() : {t}\n"
        f"  {name} = tensor.fill {name}_v, {name}_e : ({element}, {t}) -> {t}"
    )


def rand(*shape, dtype=np.float32):
    if np.dtype(dtype).kind == "f":
        return RNG.standard_normal(shape).astype(dtype)
    return RNG.integers(-50, 50, shape).astype(dtype)


def test_broadcasting_maps():
    a, b = rand(4, 1), rand(8)
    out = "tensor<4x8xf32>"
    body = "\n".join(
        [
            f"  %e = tensor.empty() : {out}",
            generic(
                "%r0", [("%a0", T(a)), ("%a1", T(b))], [("%e", out)],
                ["(d0, d1) -> (d0, 0)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0, d1)"], ["parallel", "parallel"],
                ["%x: f32", "%y: f32", "%o: f32"], "    %s = arith.addf %x, %y : f32\n    tensor.yield %s : f32",
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func([a, b], [out], body), a, b)
    np.testing.assert_array_equal(r, a + b)
    assert r.dtype == np.float32


@pytest.mark.parametrize(
    "shape,axes,keepdims",
    [((3, 4, 5), (0, 2), False), ((3, 4, 5), (1,), True), ((2, 3, 4), (0, 1, 2), True), ((1, 5, 1), (0, 2), False), ((6,), (0,), False)],
)
@pytest.mark.parametrize("kind", ["sum", "max"])
def test_reductions(shape, axes, keepdims, kind):
    x = rand(*shape)
    rank = len(shape)
    d = [f"d{i}" for i in range(rank)]
    out_exprs = [("0" if keepdims else None) if i in axes else d[i] for i in range(rank)]
    out_exprs = [e for e in out_exprs if e is not None]
    out_shape = [1 if i in axes else n for i, n in enumerate(shape) if keepdims or i not in axes]
    out = tensor_type(out_shape, np.float32)
    init, op = ("0.000000e+00", "arith.addf") if kind == "sum" else ("0xFF800000", "arith.maximumf")
    kinds = ["reduction" if i in axes else "parallel" for i in range(rank)]
    body = "\n".join(
        [
            filled("%acc", init, out, "f32"),
            generic(
                "%r0", [("%a0", T(x))], [("%acc", out)],
                [f"({', '.join(d)}) -> ({', '.join(d)})", f"({', '.join(d)}) -> ({', '.join(out_exprs)})"], kinds,
                ["%x: f32", "%o: f32"], f"    %s = {op} %o, %x : f32\n    tensor.yield %s : f32",
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func([x], [out], body), x)
    want = (np.sum if kind == "sum" else np.max)(x, axis=axes, keepdims=keepdims)
    np.testing.assert_allclose(r, want, rtol=1e-5)
    assert r.dtype == np.float32 and r.shape == tuple(out_shape)


@pytest.mark.parametrize("m,k,n", [(3, 4, 5), (1, 1, 1), (2, 7, 1)])
def test_matmul(m, k, n):
    a, b = rand(m, k), rand(k, n)
    out = tensor_type((m, n), np.float32)
    body = "\n".join(
        [
            filled("%acc", "0.000000e+00", out, "f32"),
            generic(
                "%r0", [("%a0", T(a)), ("%a1", T(b))], [("%acc", out)],
                ["(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)", "(d0, d1, d2) -> (d0, d1)"],
                ["parallel", "parallel", "reduction"],
                ["%x: f32", "%y: f32", "%o: f32"],
                "    %p = arith.mulf %x, %y : f32\n    %s = arith.addf %o, %p : f32\n    tensor.yield %s : f32",
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func([a, b], [out], body), a, b)
    np.testing.assert_allclose(r, a @ b, rtol=1e-5, atol=1e-6)


def test_conv_like_map():
    x, w = rand(10), rand(3)
    out = tensor_type((8,), np.float32)
    body = "\n".join(
        [
            filled("%acc", "0.000000e+00", out, "f32"),
            generic(
                "%r0", [("%a0", T(x)), ("%a1", T(w))], [("%acc", out)],
                ["(d0, d1) -> (d0 + d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0)"], ["parallel", "reduction"],
                ["%x: f32", "%y: f32", "%o: f32"],
                "    %p = arith.mulf %x, %y : f32\n    %s = arith.addf %o, %p : f32\n    tensor.yield %s : f32",
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func([x, w], [out], body), x, w)
    want = np.array([np.dot(x[i : i + 3], w) for i in range(8)], np.float32)
    np.testing.assert_allclose(r, want, rtol=1e-5, atol=1e-6)


def test_strided_and_mod_maps():
    """Affine arithmetic in maps: 2 * d0 + 1, d0 mod 3, d0 floordiv 2, d0 ceildiv 2."""
    x = rand(9)
    out = tensor_type((4,), np.float32)
    outs = []
    for i, expr in enumerate(["d0 * 2 + 1", "d0 mod 3", "d0 floordiv 2", "d0 ceildiv 2"]):
        outs.append(f"  %e{i} = tensor.empty() : {out}")
        outs.append(
            generic(
                f"%r{i}", [("%a0", T(x))], [(f"%e{i}", out)], [f"(d0) -> ({expr})", "(d0) -> (d0)"], ["parallel"],
                ["%x: f32", "%o: f32"], "    tensor.yield %x : f32",
            )
        )  # fmt: skip
    rs = run_ir(func([x], [out] * 4, "\n".join(outs)), x)
    i = np.arange(4)
    for r, idx in zip(rs, [2 * i + 1, i % 3, i // 2, -((-i) // 2)]):
        np.testing.assert_array_equal(r, x[idx])


def test_gather_with_index_and_extract():
    data, idx = rand(5, 3), np.array([4, 0, 2, 2, -1 + 5, 1], np.int64)
    out = tensor_type((6, 3), np.float32)
    body = "\n".join(
        [
            f"  %e = tensor.empty() : {out}",
            generic(
                "%r0", [("%a1", T(idx))], [("%e", out)], ["(d0, d1) -> (d0)", "(d0, d1) -> (d0, d1)"], ["parallel", "parallel"],
                ["%i: i64", "%o: f32"],
                "    %k = arith.index_cast %i : i64 to index\n    %j = tensor.index 1 : index\n"
                "    %v = tensor.extract %a0[%k, %j] : tensor<5x3xf32>\n    tensor.yield %v : f32",
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func([data, idx], [out], body), data, idx)
    np.testing.assert_array_equal(r, data[idx])


def test_transpose_with_extract():
    x = rand(3, 4, dtype=np.int32)
    out = tensor_type((4, 3), np.int32)
    body = "\n".join(
        [
            f"  %e = tensor.empty() : {out}",
            generic(
                "%r0", [], [("%e", out)], ["(d0, d1) -> (d0, d1)"], ["parallel", "parallel"], ["%o: i32"],
                "    %i = tensor.index 0 : index\n    %j = tensor.index 1 : index\n"
                "    %v = tensor.extract %a0[%j, %i] : tensor<3x4xi32>\n    tensor.yield %v : i32",
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func([x], [out], body), x)
    np.testing.assert_array_equal(r, x.T)


def test_multiple_outputs_max_and_argmax():
    x = rand(4, 7)
    x[1, 2] = x[1, 5] = x[1].max() + 1  # a tie: the first index wins
    vt, it = tensor_type((4,), np.float32), tensor_type((4,), np.int64)
    body = "\n".join(
        [
            filled("%m", "0xFF800000", vt, "f32"),
            filled("%k", "0", it, "i64"),
            generic(
                "%r0, %r1", [("%a0", T(x))], [("%m", vt), ("%k", it)],
                ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)", "(d0, d1) -> (d0)"], ["parallel", "reduction"],
                ["%x: f32", "%best: f32", "%at: i64"],
                "    %j = tensor.index 1 : index\n    %ji = arith.index_cast %j : index to i64\n"
                "    %gt = arith.cmpf ogt, %x, %best : f32\n"
                "    %nb = arith.select %gt, %x, %best : f32\n    %na = arith.select %gt, %ji, %at : i64\n"
                "    tensor.yield %nb, %na : f32, i64",
            ),
        ]
    )  # fmt: skip
    r0, r1 = run_ir(func([x], [vt, it], body), x)
    np.testing.assert_array_equal(r0, x.max(axis=1))
    np.testing.assert_array_equal(r1, np.argmax(x, axis=1))
    assert r1.dtype == np.int64


def test_rank0_scalar_input_and_empty():
    """A 0-d tensor, a scalar (non-tensor) input, and a zero-size iteration space."""
    x = np.array(2.5, np.float32)
    y = np.zeros((0, 3), np.float32)
    body = "\n".join(
        [
            "  %c = arith.constant 1.500000e+00 : f32",
            "  %e = tensor.empty() : tensor<f32>",
            generic(
                "%r0", [("%a0", "tensor<f32>"), ("%c", "f32")], [("%e", "tensor<f32>")], ["() -> ()", "() -> ()", "() -> ()"], [],
                ["%x: f32", "%s: f32", "%o: f32"], "    %m = arith.mulf %x, %s : f32\n    tensor.yield %m : f32",
            ),
            "  %e1 = tensor.empty() : tensor<0x3xf32>",
            generic(
                "%r1", [("%a1", "tensor<0x3xf32>"), ("%c", "f32")], [("%e1", "tensor<0x3xf32>")],
                ["(d0, d1) -> (d0, d1)", "(d0, d1) -> ()", "(d0, d1) -> (d0, d1)"], ["parallel", "parallel"],
                ["%x: f32", "%s: f32", "%o: f32"], "    %m = arith.mulf %x, %s : f32\n    tensor.yield %m : f32",
            ),
            "  %e2 = tensor.empty() : tensor<3xf32>",
            generic(
                "%r2", [("%c", "f32")], [("%e2", "tensor<3xf32>")], ["(d0) -> ()", "(d0) -> (d0)"], ["parallel"],
                ["%s: f32", "%o: f32"], "    tensor.yield %s : f32",
            ),
        ]
    )  # fmt: skip
    r0, r1, r2 = run_ir(func([x, y], ["tensor<f32>", "tensor<0x3xf32>", "tensor<3xf32>"], body), x, y)
    assert r0.shape == () and r0.dtype == np.float32 and r0 == np.float32(3.75)
    assert r1.shape == (0, 3)
    np.testing.assert_array_equal(r2, np.full(3, 1.5, np.float32))


def test_sum_over_empty_axis_keeps_init():
    x = np.zeros((3, 0), np.float32)
    out = tensor_type((3,), np.float32)
    body = "\n".join(
        [
            filled("%acc", "7.000000e+00", out, "f32"),
            generic(
                "%r0", [("%a0", T(x))], [("%acc", out)], ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)"], ["parallel", "reduction"],
                ["%x: f32", "%o: f32"], "    %s = arith.addf %o, %x : f32\n    tensor.yield %s : f32",
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func([x], [out], body), x)
    np.testing.assert_array_equal(r, np.full(3, 7, np.float32))


# --- the data-movement ops ---------------------------------------------------------------


def test_data_movement_ops():
    x = rand(3, 4)
    y = rand(2, 4)
    body = "\n".join(
        [
            "  %r0 = tensor.reshape %a0 : (tensor<3x4xf32>) -> tensor<2x6xf32>",
            "  %r1 = tensor.concat %a0, %a1 {dim = 0} : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<5x4xf32>",
            "  %r2 = tensor.extract_slice %a0 {offsets = array<i64: 2, 3>, sizes = array<i64: 2, 2>, strides = array<i64: -1, -2>} : (tensor<3x4xf32>) -> tensor<2x2xf32>",
            "  %r3 = tensor.insert_slice %a1, %a0 {offsets = array<i64: 1, 0>, strides = array<i64: 1, 1>} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>",
            "  %p = arith.constant -2.000000e+00 : f32",
            "  %r4 = tensor.pad %a0, %p {low = array<i64: 1, 0>, high = array<i64: 0, 2>} : (tensor<3x4xf32>, f32) -> tensor<4x6xf32>",
            filled("%r5", "3.000000e+00", "tensor<2x2xf32>", "f32"),
            "  %r6 = tensor.extract_slice %a0 {offsets = array<i64: 2, 0>, sizes = array<i64: 3, 4>, strides = array<i64: -1, 1>} : (tensor<3x4xf32>) -> tensor<3x4xf32>",
        ]
    )
    results = ["tensor<2x6xf32>", "tensor<5x4xf32>", "tensor<2x2xf32>", "tensor<3x4xf32>", "tensor<4x6xf32>", "tensor<2x2xf32>", "tensor<3x4xf32>"]
    rs = run_ir(func([x, y], results, body), x, y)
    inserted = x.copy()
    inserted[1:3] = y
    wants = [
        x.reshape(2, 6),
        np.concatenate([x, y]),
        np.array([[x[2, 3], x[2, 1]], [x[1, 3], x[1, 1]]]),
        inserted,
        np.pad(x, [(1, 0), (0, 2)], constant_values=-2),
        np.full((2, 2), 3, np.float32),
        x[::-1],
    ]
    for r, w in zip(rs, wants):
        assert r.dtype == np.float32
        np.testing.assert_array_equal(r, w)


def test_tensor_constant_and_arith_on_tensors():
    body = "\n".join(
        [
            "  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
            "  %r0 = arith.addi %c, %a0 : tensor<2x2xi32>",
        ]
    )
    x = np.array([[10, 20], [30, 40]], np.int32)
    (r,) = run_ir(func([x], ["tensor<2x2xi32>"], body), x)
    np.testing.assert_array_equal(r, x + np.array([[1, 2], [3, 4]], np.int32))


# --- scalar semantics of the upstream ops, evaluated elementwise inside a generic ----------


def elementwise(op_lines: str, inputs, in_elements, out_element: str, out_dtype) -> np.ndarray:
    n = np.asarray(inputs[0]).shape[0]
    out = f"tensor<{n}x{out_element}>"
    args = [f"%x{i}: {e}" for i, e in enumerate(in_elements)] + [f"%o: {out_element}"]
    body = "\n".join(
        [
            f"  %e = tensor.empty() : {out}",
            generic(
                "%r0", [(f"%a{i}", T(x)) for i, x in enumerate(inputs)], [("%e", out)],
                ["(d0) -> (d0)"] * (len(inputs) + 1), ["parallel"], args, op_lines,
            ),
        ]
    )  # fmt: skip
    (r,) = run_ir(func(inputs, [out], body), *inputs)
    assert r.dtype == out_dtype
    return r


def test_integer_division_truncates():
    a = np.array([7, -7, 7, -7, 0, -128], np.int8)
    b = np.array([2, 2, -2, -2, 3, 3], np.int8)
    q = elementwise("    %v = arith.divsi %x0, %x1 : i8\n    tensor.yield %v : i8", [a, b], ["i8", "i8"], "i8", np.int8)
    r = elementwise("    %v = arith.remsi %x0, %x1 : i8\n    tensor.yield %v : i8", [a, b], ["i8", "i8"], "i8", np.int8)
    want_q = np.trunc(a.astype(np.float64) / b).astype(np.int8)
    np.testing.assert_array_equal(q, want_q)
    np.testing.assert_array_equal(r, a - want_q * b)
    # unsigned: the bits of -7 (249) divided by 2
    u = elementwise("    %v = arith.divui %x0, %x1 : i8\n    tensor.yield %v : i8", [a, b], ["i8", "i8"], "i8", np.int8)
    np.testing.assert_array_equal(u, (a.view(np.uint8) // b.view(np.uint8)).view(np.int8))
    f = elementwise("    %v = arith.floordivsi %x0, %x1 : i8\n    tensor.yield %v : i8", [a, b], ["i8", "i8"], "i8", np.int8)
    np.testing.assert_array_equal(f, a // b)


def test_integer_wraps_and_min_max():
    a = np.array([127, -128, 5, -1], np.int8)
    b = np.array([1, -1, -6, 1], np.int8)
    s = elementwise("    %v = arith.addi %x0, %x1 : i8\n    tensor.yield %v : i8", [a, b], ["i8", "i8"], "i8", np.int8)
    np.testing.assert_array_equal(s, (a.astype(np.int16) + b).astype(np.int8))
    mu = elementwise("    %v = arith.maxui %x0, %x1 : i8\n    tensor.yield %v : i8", [a, b], ["i8", "i8"], "i8", np.int8)
    np.testing.assert_array_equal(mu, np.maximum(a.view(np.uint8), b.view(np.uint8)).view(np.int8))
    ms = elementwise("    %v = arith.minsi %x0, %x1 : i8\n    tensor.yield %v : i8", [a, b], ["i8", "i8"], "i8", np.int8)
    np.testing.assert_array_equal(ms, np.minimum(a, b))
    c = elementwise("    %v = arith.cmpi ult, %x0, %x1 : i8\n    tensor.yield %v : i1", [a, b], ["i8", "i8"], "i1", np.bool_)
    np.testing.assert_array_equal(c, a.view(np.uint8) < b.view(np.uint8))


@pytest.mark.parametrize(
    "pred,fn",
    [
        ("oeq", lambda a, b: a == b), ("one", lambda a, b: (a != b) & ~np.isnan(a) & ~np.isnan(b)),
        ("olt", lambda a, b: a < b), ("ueq", lambda a, b: (a == b) | np.isnan(a) | np.isnan(b)),
        ("une", lambda a, b: a != b), ("uge", lambda a, b: ~(a < b)), ("ord", lambda a, b: ~np.isnan(a) & ~np.isnan(b)),
        ("uno", lambda a, b: np.isnan(a) | np.isnan(b)), ("true", lambda a, b: np.ones(a.shape, bool)),
    ],
)  # fmt: skip
def test_cmpf_predicates(pred, fn):
    a = np.array([1, np.nan, 2, np.nan, 3], np.float32)
    b = np.array([1, 1, np.nan, np.nan, 2], np.float32)
    with np.errstate(invalid="ignore"):
        want = fn(a, b)
    r = elementwise(f"    %v = arith.cmpf {pred}, %x0, %x1 : f32\n    tensor.yield %v : i1", [a, b], ["f32", "f32"], "i1", np.bool_)
    np.testing.assert_array_equal(r, want)


def test_maximumf_minimumf_nan_and_signed_zero():
    a = np.array([1, np.nan, -0.0, 0.0, 2], np.float32)
    b = np.array([np.nan, 1, 0.0, -0.0, 1], np.float32)
    mx = elementwise("    %v = arith.maximumf %x0, %x1 : f32\n    tensor.yield %v : f32", [a, b], ["f32", "f32"], "f32", np.float32)
    mn = elementwise("    %v = arith.minimumf %x0, %x1 : f32\n    tensor.yield %v : f32", [a, b], ["f32", "f32"], "f32", np.float32)
    assert np.isnan(mx[:2]).all() and np.isnan(mn[:2]).all()
    assert not np.signbit(mx[2]) and not np.signbit(mx[3]) and np.signbit(mn[2]) and np.signbit(mn[3])
    assert mx[4] == 2 and mn[4] == 1


def test_casts():
    f = np.array([1.7, -1.7, 2.5, -0.2], np.float32)
    i = elementwise("    %v = arith.fptosi %x0 : f32 to i32\n    tensor.yield %v : i32", [f], ["f32"], "i32", np.int32)
    np.testing.assert_array_equal(i, np.trunc(f).astype(np.int32))
    d = elementwise("    %v = arith.extf %x0 : f32 to f64\n    tensor.yield %v : f64", [f], ["f32"], "f64", np.float64)
    np.testing.assert_array_equal(d, f.astype(np.float64))
    b = np.array([-1, 200, 3, -100], np.int16)
    t = elementwise("    %v = arith.trunci %x0 : i16 to i8\n    tensor.yield %v : i8", [b], ["i16"], "i8", np.int8)
    np.testing.assert_array_equal(t, b.astype(np.int8))
    e = elementwise("    %v = arith.extui %x0 : i16 to i32\n    tensor.yield %v : i32", [b], ["i16"], "i32", np.int32)
    np.testing.assert_array_equal(e, b.view(np.uint16).astype(np.int32))
    s = elementwise("    %v = arith.extsi %x0 : i16 to i64\n    tensor.yield %v : i64", [b], ["i16"], "i64", np.int64)
    np.testing.assert_array_equal(s, b.astype(np.int64))
    u = elementwise("    %v = arith.uitofp %x0 : i16 to f32\n    tensor.yield %v : f32", [b], ["i16"], "f32", np.float32)
    np.testing.assert_array_equal(u, b.view(np.uint16).astype(np.float32))
    x = elementwise("    %v = arith.index_cast %x0 : i16 to index\n    %w = arith.index_cast %v : index to i64\n    tensor.yield %w : i64", [b], ["i16"], "i64", np.int64)
    np.testing.assert_array_equal(x, b.astype(np.int64))
    c = elementwise("    %v = arith.bitcast %x0 : f32 to i32\n    tensor.yield %v : i32", [f], ["f32"], "i32", np.int32)
    np.testing.assert_array_equal(c, f.view(np.int32))
    k = np.array([True, False, True, False])
    g = elementwise("    %v = arith.extsi %x0 : i1 to i32\n    tensor.yield %v : i32", [k], ["i1"], "i32", np.int32)
    np.testing.assert_array_equal(g, -k.astype(np.int32))


@pytest.mark.parametrize(
    "name,fn",
    [
        ("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt), ("rsqrt", lambda x: 1 / np.sqrt(x)), ("tanh", np.tanh),
        ("absf", np.abs), ("floor", np.floor), ("ceil", np.ceil), ("roundeven", np.round),
    ],
)  # fmt: skip
def test_math_unary(name, fn):
    x = np.array([0.5, 1.5, 2.5, 3.7, 0.01], np.float32)
    r = elementwise(f"    %v = math.{name} %x0 : f32\n    tensor.yield %v : f32", [x], ["f32"], "f32", np.float32)
    np.testing.assert_allclose(r, fn(x).astype(np.float32), rtol=1e-6)


def test_math_erf_powf_fma_absi():
    import math

    x = np.array([-1.0, 0.0, 0.5, 2.0], np.float32)
    y = np.array([2.0, 3.0, 0.5, -1.0], np.float32)
    r = elementwise("    %v = math.erf %x0 : f32\n    tensor.yield %v : f32", [x], ["f32"], "f32", np.float32)
    np.testing.assert_allclose(r, np.array([math.erf(v) for v in x], np.float32), rtol=1e-6)
    p = elementwise("    %v = math.powf %x1, %x0 : f32\n    tensor.yield %v : f32", [x, y], ["f32", "f32"], "f32", np.float32)
    np.testing.assert_allclose(p, np.power(y, x), rtol=1e-6)
    f = elementwise("    %v = math.fma %x0, %x1, %x1 : f32\n    tensor.yield %v : f32", [x, y], ["f32", "f32"], "f32", np.float32)
    np.testing.assert_allclose(f, x * y + y, rtol=1e-6)
    i = np.array([-5, 3, -128, 0], np.int8)
    a = elementwise("    %v = math.absi %x0 : i8\n    tensor.yield %v : i8", [i], ["i8"], "i8", np.int8)
    np.testing.assert_array_equal(a, np.array([5, 3, -128, 0], np.int8))


def test_index_constants_are_int64():
    x = rand(4)
    r = elementwise(
        "    %i = tensor.index 0 : index\n    %c = arith.constant 3 : index\n    %s = arith.subi %c, %i : index\n"
        "    %v = tensor.extract %a0[%s] : tensor<4xf32>\n    tensor.yield %v : f32",
        [x], ["f32"], "f32", np.float32,
    )  # fmt: skip
    np.testing.assert_array_equal(r, x[::-1])


def test_extract_out_of_range_is_an_error():
    from strati.diagnostics import StratiError

    x = rand(4)
    with pytest.raises(StratiError, match="out of range"):
        elementwise(
            "    %i = tensor.index 0 : index\n    %c = arith.constant 1 : index\n    %s = arith.addi %c, %i : index\n"
            "    %v = tensor.extract %a0[%s] : tensor<4xf32>\n    tensor.yield %v : f32",
            [x], ["f32"], "f32", np.float32,
        )  # fmt: skip
