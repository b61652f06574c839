"""Code generation: the lowest strati level to LLVM IR (level 5), emitted with llvmlite."""

from strati.codegen.llvm import (
    CodegenError,
    FunctionInfo,
    Translation,
    VectorLibrary,
    module_to_llvm_ir,
    translate_module,
)
from strati.codegen import checks  # noqa: E402,F401  (registers the emission of cf.assert)

__all__ = ["CodegenError", "FunctionInfo", "Translation", "VectorLibrary", "module_to_llvm_ir", "translate_module"]
