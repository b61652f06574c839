"""Chapter 4: running a model.  strati.compile(model, target="dsp") lowers through the
DSP's strategy and emits its instruction; the reference interpreter checks the result, and
the loop interpreter runs the DSP's level through the instruction's reference."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import ch3_lowering  # noqa: E402,F401  (the DSP target, its dialect and its lowering)

import strati  # noqa: E402
from strati.context import make_context  # noqa: E402
from strati.runtime.interpreter import run_function  # noqa: E402
from strati.runtime.loop_interpreter import run_loop_function  # noqa: E402
from strati.source import parse_module  # noqa: E402

MLP = """func.func @mlp(%x: tensor<4x32xf32>, %w1: tensor<32x16xf32>, %w2: tensor<16x10xf32>) -> tensor<4x10xf32> {
  %h = graph.matmul %x, %w1 : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
  %r = graph.relu %h : tensor<4x16xf32>
  %z = graph.matmul %r, %w2 : (tensor<4x16xf32>, tensor<16x10xf32>) -> tensor<4x10xf32>
  %y = graph.softmax %z : tensor<4x10xf32>
  func.return %y : tensor<4x10xf32>
}"""

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(s).astype(np.float32) for s in ((4, 32), (32, 16), (16, 10))]
    module = parse_module(make_context(), MLP, "ch4")
    got = strati.compile(module, target="dsp")(*inputs)
    np.testing.assert_allclose(got, run_function(module, inputs)[0], rtol=1e-4, atol=1e-6)
    hw = strati.compiler.lower_to(module.clone(), "hw", target="dsp")
    np.testing.assert_allclose(run_loop_function(hw, inputs, "mlp")[0], got, rtol=1e-4, atol=1e-6)
    print(f"dsp.mac instructions in the program: {sum(op.name == 'dsp.mac' for op in hw.walk())}; the results match")
