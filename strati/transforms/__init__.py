"""strati's passes, one per file, and the table of every pass a pipeline may name."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.transforms import get_all_passes


def _fold_constants():
    from strati.transforms.fold_constants import FoldConstantsPass

    return FoldConstantsPass


def _infer_shapes():
    from strati.transforms.infer_shapes import InferShapesPass

    return InferShapesPass


def _convert_graph_to_tensor():
    from strati.transforms.convert_graph_to_tensor import ConvertGraphToTensorPass

    return ConvertGraphToTensorPass


def _convert_loop_to_hw():
    from strati.transforms.convert_loop_to_hw import ConvertLoopToHwPass

    return ConvertLoopToHwPass


STRATI_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "apply-rules": lambda: __import__("strati.transforms.apply_rules", fromlist=["_"]).ApplyRulesPass,
    "convert-loop-to-hw": _convert_loop_to_hw,
    "convert-graph-to-tensor": _convert_graph_to_tensor,
    "convert-tensor-to-loop": lambda: __import__("strati.transforms.convert_tensor_to_loop", fromlist=["_"]).ConvertTensorToLoopPass,
    "fold-constants": _fold_constants,
    "fuse-generics": lambda: __import__("strati.transforms.fuse_generics", fromlist=["_"]).FuseGenericsPass,
    "fuse-loops": lambda: __import__("strati.transforms.fuse_loops", fromlist=["_"]).FuseLoopsPass,
    "fuse-ops": lambda: __import__("strati.transforms.fuse_ops", fromlist=["_"]).FuseOpsPass,
    "infer-shapes": _infer_shapes,
    "simplify-inference": lambda: __import__("strati.transforms.simplify_inference", fromlist=["_"]).SimplifyInferencePass,
    "plan-memory": lambda: __import__("strati.transforms.plan_memory", fromlist=["_"]).PlanMemoryPass,
}


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes (canonicalize, cse, dce, ...) and ours; ours win on a name clash."""
    return {**get_all_passes(), **STRATI_PASSES}
