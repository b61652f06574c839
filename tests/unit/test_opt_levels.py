"""Every optimisation level keeps the numerics: the example models compiled at -O0..-O3
against the reference interpreter, and each level runs the passes it says it runs."""

from pathlib import Path

import numpy as np
import pytest

import strati
from strati.compiler import OPT_LEVELS, load, passes_between
from strati.dense import to_dtype
from strati.runtime.interpreter import find_function, run_function

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.mlir"))


def random_inputs(module, seed):
    rng = np.random.default_rng(seed)
    fn = find_function(module)
    return [rng.standard_normal(t.get_shape()).astype(to_dtype(t.get_element_type())) for t in fn.function_type.inputs.data]


@pytest.mark.parametrize("level", sorted(OPT_LEVELS))
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_numerics_at_every_level(path, level):
    module = load(path)
    inputs = random_inputs(module, seed=level)
    (want,) = run_function(module, inputs)
    got = strati.compile(module, opt_level=level)(*inputs)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_levels_add_passes():
    chosen = [set(passes_between("graph", "hw", OPT_LEVELS[n])) for n in sorted(OPT_LEVELS)]
    assert all(a < b for a, b in zip(chosen, chosen[1:])), "each level adds passes to the one before"
    assert {"simplify-inference", "fold-constants"} <= chosen[1]
    assert {"fuse-ops", "fuse-loops"} <= chosen[2] and "plan-memory" in chosen[3]


def test_unknown_level_is_a_clear_error():
    with pytest.raises(strati.diagnostics.StratiError, match="unknown optimisation level -O7"):
        strati.compile(EXAMPLES[0], opt_level=7)
