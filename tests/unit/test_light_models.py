"""Whole classifiers of the onnx package's light set, compiled at -O3 and compared with
onnxruntime on the same model: the guard against miscompilations that only whole models show
(a gemm's consumers scheduled before it, kernels shared across buffer types went unseen by
the per-op tests).  The models' own weights are all equal (ConstantOfShape), which ties their
logits, so they get seeded random weights (the runner's ``random_weights``); tolerances are
the conformance runner's (rtol 1e-3, atol 1e-7) on the softmax outputs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

import strati

RUNNER_PATH = Path(__file__).resolve().parents[1] / "conformance" / "run.py"


@pytest.fixture(scope="module")
def runner():
    spec = importlib.util.spec_from_file_location("strati_conformance_run_light", RUNNER_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["resnet50", pytest.param("bvlc_alexnet", marks=pytest.mark.slow)])
def test_classifier_matches_onnxruntime(runner, name):
    case = next((c for c in runner.collect(["light"]) if c.name == name), None)
    if case is None:
        pytest.skip(f"the installed onnx package has no light model {name}")
    model = runner.random_weights(case.load_model(), seed=0)
    (inputs, _), = case.load_data(case.load_model())
    inputs = runner._arrays(inputs)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (want,) = session.run(None, {i.name: x for i, x in zip(session.get_inputs(), inputs)})
    assert want.std() > 1e-4  # the random weights make the classes differ
    (got,) = strati.compile(model, opt_level=3).run(*inputs)
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-7)
