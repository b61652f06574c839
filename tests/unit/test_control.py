"""graph.if and graph.loop: the reference interpreter against numpy, then the loop-level
interpreter and the JIT at -O0 to -O3 against the reference, nested regions included."""

from __future__ import annotations

import numpy as np
import pytest

import strati
from strati.compiler import lower_to
from strati.diagnostics import StratiError
from strati.runtime.interpreter import run_function
from strati.runtime.loop_interpreter import run_loop_function

from helpers import parse as load

CHOOSE = """
func.func @choose(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = graph.exp %x : tensor<4xf32>
  %r, %s = graph.if %c : (tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
    %a = graph.add %e, %y : tensor<4xf32>
    graph.yield %a, %x : tensor<4xf32>, tensor<4xf32>
  } else {
    %b = graph.mul %x, %y : tensor<4xf32>
    %k = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    graph.yield %b, %k : tensor<4xf32>, tensor<4xf32>
  }
  %t = graph.relu %r : tensor<4xf32>
  func.return %t, %s : tensor<4xf32>, tensor<4xf32>
}
"""


def choose(c, x, y):
    return (np.maximum(np.exp(x) + y, 0), x) if c else (np.maximum(x * y, 0), np.array([1, 2, 3, 4], np.float32))


# h <- tanh(h * w + i) for n steps; the scan output stacks h * w; the condition stays true.
# The body holds a graph.if (on the iteration number's parity) to show that regions nest.
ACCUMULATE = """
func.func @accumulate(%h0: tensor<2x3xf32>, %w: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<N x2x3xf32>) {
  %n = graph.constant dense<N> : tensor<i64>
  %t = graph.constant dense<true> : tensor<i1>
  %h, %s = graph.loop %n (%i, %c = %t, %x = %h0) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<N x2x3xf32>) {
    %f = graph.cast %i : (tensor<i64>) -> tensor<f32>
    %m = graph.mul %x, %w : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %two = graph.constant dense<2> : tensor<i64>
    %r = graph.mod %i, %two : tensor<i64>
    %zero = graph.constant dense<0> : tensor<i64>
    %even = graph.equal %r, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %g = graph.if %even : (tensor<i1>) -> (tensor<f32>) {
      graph.yield %f : tensor<f32>
    } else {
      %nf = graph.neg %f : tensor<f32>
      graph.yield %nf : tensor<f32>
    }
    %y = graph.add %m, %g : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %z = graph.tanh %y : tensor<2x3xf32>
    graph.yield %c, %z, %m : tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>
  }
  %o = graph.sigmoid %h : tensor<2x3xf32>
  func.return %o, %s : tensor<2x3xf32>, tensor<N x2x3xf32>
}
"""


def accumulate(n, h, w):
    rows = []
    for i in range(n):
        m = h * w
        rows.append(m)
        h = np.tanh(m + (i if i % 2 == 0 else -i))
    return 1 / (1 + np.exp(-h)), np.stack(rows) if rows else np.zeros((0, 2, 3), np.float32)


def accumulate_text(n: int) -> str:
    return ACCUMULATE.replace("N x", f"{n}x").replace("dense<N>", f"dense<{n}>")


def all_ways(text: str, inputs: list[np.ndarray], levels=(0, 3)) -> list[list[np.ndarray]]:
    """The reference interpreter, the loop interpreter and the JIT at ``levels``."""
    results = [run_function(load(text), inputs)]
    module = load(text)
    lower_to(module, "loop")
    results.append(run_loop_function(module, inputs))
    for level in levels:
        out = strati.compile(load(text), opt_level=level)(*inputs)
        results.append(list(out) if isinstance(out, (list, tuple)) else [out])
    return results


@pytest.mark.parametrize("c", [True, False])
def test_if(c):
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal(4).astype(np.float32) for _ in range(2))
    want = choose(c, x, y)
    for got in all_ways(CHOOSE, [np.array(c), x, y], levels=range(4) if c else (0, 3)):
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loop(n):
    rng = np.random.default_rng(n)
    h = rng.standard_normal((2, 3)).astype(np.float32)
    w = rng.standard_normal(3).astype(np.float32)
    want = accumulate(n, h, w)
    for got in all_ways(accumulate_text(n), [h, w], levels=range(4) if n == 5 else (0, 3)):
        assert [a.shape for a in got] == [b.shape for b in want]
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


UNTIL = """
func.func @until(%x0: tensor<2xf32>, %n: tensor<i64>) -> (tensor<2xf32>, tensor<i64>) {
  %t = graph.constant dense<true> : tensor<i1>
  %zero = graph.constant dense<0> : tensor<i64>
  %x, %k = graph.loop %n (%i, %c = %t, %v = %x0, %count = %zero) : (tensor<i64>, tensor<i1>, tensor<2xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<i64>) {
    %two = graph.constant dense<2.0> : tensor<f32>
    %y = graph.mul %v, %two : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %m = graph.reduce_max %y {keepdims = false} : (tensor<2xf32>) -> tensor<f32>
    %ten = graph.constant dense<10.0> : tensor<f32>
    %go = graph.less %m, %ten : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %one = graph.constant dense<1> : tensor<i64>
    %k1 = graph.add %count, %one : tensor<i64>
    graph.yield %go, %y, %k1 : tensor<i1>, tensor<2xf32>, tensor<i64>
  }
  func.return %x, %k : tensor<2xf32>, tensor<i64>
}
"""


@pytest.mark.parametrize("start,trip", [(1.0, 100), (1.0, 2), (30.0, 100), (1.0, 0)])
def test_loop_ends_on_its_condition_or_its_trip_count(start, trip):
    x, k = np.array([start, start / 2], np.float32), 0
    while k < trip:
        x, k = x * 2, k + 1
        if x.max() >= 10:
            break
    for got in all_ways(UNTIL, [np.array([start, start / 2], np.float32), np.array(trip, np.int64)]):
        np.testing.assert_allclose(got[0], x)
        assert int(got[1]) == k


def test_a_scan_output_shorter_than_its_static_length_is_an_error_of_the_interpreter():
    loop_types = "tensor<2xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<i64>) {"
    text = UNTIL.replace(loop_types, loop_types.replace(") {", ", tensor<3x2xf32>) {"))
    text = text.replace("%x, %k = graph.loop", "%x, %k, %s = graph.loop")
    text = text.replace("graph.yield %go, %y, %k1 : tensor<i1>, tensor<2xf32>, tensor<i64>", "graph.yield %go, %y, %k1, %y : tensor<i1>, tensor<2xf32>, tensor<i64>, tensor<2xf32>")
    with pytest.raises(StratiError, match="the loop ran 2 iterations, but its scan outputs have a static length of 3"):
        run_function(load(text), [np.array([4.0, 1.0], np.float32), np.array(3, np.int64)])
