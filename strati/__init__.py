"""strati: an MLIR-style compiler infrastructure for deep-learning models, on xDSL."""

from strati.registry import OpPattern, get_op_attr, register_op_attr

__all__ = ["OpPattern", "get_op_attr", "register_op_attr"]
