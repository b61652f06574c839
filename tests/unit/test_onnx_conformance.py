"""A representative part of the ONNX backend test data, through the conformance runner
(tests/conformance/run.py) on the reference interpreter (``CASES``) and on the JIT
(``JIT_CASES``, model sets only): every case listed here passes, so a regression fails
CI.  The whole suite: ``python tests/conformance/run.py [--backend jit]``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

RUNNER_PATH = Path(__file__).resolve().parents[1] / "conformance" / "run.py"

CASES = {
    "simple": [
        "test_single_relu_model", "test_sign_model", "test_shrink", "test_expand_shape_model1",
        "test_expand_shape_model3",
    ],
    "pytorch-converted": [
        "test_AvgPool1d_stride", "test_AvgPool2d", "test_AvgPool3d_stride", "test_BatchNorm1d_3d_input_eval",
        "test_BatchNorm3d_momentum_eval", "test_ConstantPad2d", "test_Conv1d_dilated", "test_Conv1d_groups",
        "test_Conv2d_depthwise_strided", "test_Conv2d_groups_thnn", "test_Conv2d_padding", "test_Conv3d_dilated_strided",
        "test_Conv3d_groups", "test_ConvTranspose2d", "test_ELU", "test_Embedding_sparse", "test_GLU_dim",
        "test_LeakyReLU_with_negval", "test_Linear", "test_Linear_no_bias", "test_MaxPool1d_stride_padding_dilation",
        "test_MaxPool2d_stride_padding_dilation", "test_MaxPool3d_stride_padding", "test_PReLU_2d_multiparam",
        "test_PixelShuffle", "test_PoissonNLLLLoss_no_reduce", "test_ReflectionPad2d", "test_ReplicationPad2d",
        "test_SELU", "test_Softmin", "test_Softplus", "test_Softsign", "test_log_softmax_dim3", "test_softmax_lastdim",
    ],
    "pytorch-operator": [
        "test_operator_add_size1_right_broadcast", "test_operator_addmm", "test_operator_chunk", "test_operator_clip",
        "test_operator_convtranspose", "test_operator_index", "test_operator_max", "test_operator_mm",
        "test_operator_non_float_params", "test_operator_pad", "test_operator_permute2", "test_operator_pow",
        "test_operator_reduced_mean_keepdim", "test_operator_repeat_dim_overflow", "test_operator_symbolic_override",
        "test_operator_symbolic_override_nested", "test_operator_view",
    ],
    "node": [
        "test_argmin_negative_axis_keepdims_random_select_last_index", "test_averagepool_2d_ceil",
        "test_averagepool_3d_dilations_large_count_include_pad_is_0_ceil_mode_is_True", "test_cast_DOUBLE_to_FLOAT16",
        "test_clip_min_greater_than_max", "test_clip_splitbounds_expanded", "test_constantofshape_int_zeros",
        "test_conv_with_autopad_same", "test_convtranspose_output_shape", "test_depthtospace_crd_mode_example",
        "test_div_int32_trunc", "test_equal_bcast", "test_gemm_all_attributes",
        "test_group_normalization_example", "test_hardmax_axis_0", "test_l2normalization_axis_1",
        "test_layer_normalization_3d_axis_negative_2_epsilon", "test_lrn", "test_maxpool_2d_same_lower",
        "test_mod_mixed_sign_int32", "test_mvn", "test_not_3d", "test_pow_types_int64_float32",
        "test_range_float_type_positive_delta", "test_reduce_log_sum_exp_negative_axes_keepdims_random",
        "test_reduce_sum_empty_axes_input_noop", "test_reshape_allowzero_reordered", "test_resize_upsample_sizes_nearest_axes_3_2",
        "test_rms_normalization_4d_axis_negative_2", "test_round", "test_shape_start_1_end_negative_1",
        "test_slice_neg_steps", "test_split_2d_uneven_split_opset18", "test_tril_neg", "test_upsample_nearest",
        "test_where_long_example", "test_xor_bcast4v3d", "test_attention_3d_gqa_causal_expanded",
        "test_if", "test_scan9_sum", "test_scan9_multi_state", "test_scan_sum", "test_loop11",
    ],
}  # fmt: skip

# On the JIT (strati.compile: lowering, LLVM, machine code): a spread of the three model sets
# over their op types (pooling 1-3d, conv 1-3d with groups/dilation/strides/padding, conv
# transpose, batch norm, pads of every mode, activations, softmax family, gemm/matmul,
# gather, reductions, shape ops, broadcasting, non-float params, an input bound at import).
JIT_CASES = {
    "simple": ["test_single_relu_model", "test_sign_model", "test_shrink", "test_expand_shape_model2"],
    "pytorch-converted": [
        "test_AvgPool2d_stride", "test_AvgPool3d_stride1_pad0_gpu_input", "test_BatchNorm2d_eval",
        "test_BatchNorm3d_momentum_eval", "test_ConstantPad2d", "test_Conv1d_pad2size1",
        "test_Conv2d_depthwise_with_multiplier", "test_Conv2d_dilated", "test_Conv3d_stride_padding",
        "test_ConvTranspose2d", "test_ELU", "test_Embedding", "test_GLU_dim", "test_Linear", "test_LogSoftmax",
        "test_MaxPool1d_stride_padding_dilation", "test_MaxPool3d_stride_padding", "test_PReLU_2d_multiparam",
        "test_PixelShuffle", "test_ReflectionPad2d", "test_ReplicationPad2d", "test_SELU", "test_Sigmoid",
        "test_Softmin",
    ],
    "pytorch-operator": [
        "test_operator_add_size1_singleton_broadcast", "test_operator_addmm", "test_operator_chunk",
        "test_operator_clip", "test_operator_concat2", "test_operator_conv", "test_operator_convtranspose",
        "test_operator_flatten", "test_operator_index", "test_operator_maxpool", "test_operator_non_float_params",
        "test_operator_pad", "test_operator_pow", "test_operator_reduced_mean_keepdim",
        "test_operator_repeat_dim_overflow", "test_operator_symbolic_override", "test_operator_view",
    ],
}  # fmt: skip


@pytest.fixture(scope="module")
def runner():
    spec = importlib.util.spec_from_file_location("strati_conformance_run", RUNNER_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def _find(runner, table: dict[str, list[str]]) -> dict:
    listed = {(s, n) for s, names in table.items() for n in names}
    found = {(c.set, c.name): c for c in runner.collect(list(table)) if (c.set, c.name) in listed}
    missing = sorted(listed - set(found))
    assert not missing, f"cases not in the installed onnx package: {missing}"
    return found


@pytest.fixture(scope="module")
def cases(runner):
    return _find(runner, CASES)


@pytest.fixture(scope="module")
def jit_cases(runner):
    return _find(runner, JIT_CASES)  # (the model sets only: no need to generate the node cases)


@pytest.mark.parametrize("set_name", sorted(CASES))
def test_listed_cases_pass(runner, cases, set_name):
    backend = runner.InterpBackend()
    failures = []
    for name in CASES[set_name]:
        result = runner.run_case(cases[(set_name, name)], backend)
        if result.status != "passed":
            failures.append(f"{set_name}/{name}: {result.status}: {result.detail}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("set_name", sorted(JIT_CASES))
def test_listed_cases_pass_on_the_jit(runner, jit_cases, set_name):
    backend = runner.JitBackend()
    if (why := backend.unavailable()) is not None:
        pytest.skip(why)
    failures = []
    for name in JIT_CASES[set_name]:
        result = runner.run_case(jit_cases[(set_name, name)], backend)
        if result.status != "passed":
            failures.append(f"{set_name}/{name}: {result.status}: {result.detail}")
    assert not failures, "\n".join(failures)


def test_refusals_are_reported(runner):
    """Out-of-scope cases are skipped with their reason, unsupported ones name the op."""
    by_name = {c.name: c for c in runner.collect(["simple"])}
    backend = runner.InterpBackend()
    for name, status, detail in (
        ("test_strnorm_model_monday_casesensintive_lower", "skipped", "out of scope: string tensors"),
        ("test_gradient_of_add", "skipped", "out of scope: training operators"),
        ("test_sequence_model1", "skipped", "out of scope: sequence/optional/map types"),
    ):
        result = runner.run_case(by_name[name], backend)
        assert (result.status, result.detail) == (status, detail)


def test_closing_line(runner, capsys):
    code = runner.main(["--sets", "simple", "--quiet"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[-1] == "7 passed, 0 failed, 16 skipped (0 unsupported by strati, 16 out of scope or without data)"
