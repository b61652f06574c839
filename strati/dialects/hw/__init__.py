"""The hw dialect (level 4): the target description every hardware target shares.

Target dialects live in sub-packages (``strati.dialects.hw.cpu``); the registry of
named target descriptions is :mod:`strati.dialects.hw.targets`.
"""

from xdsl.ir import Dialect

from strati.dialects.hw import ops
from strati.dialects.hw.ops import ALL_ATTRS, ALL_OPS, TARGET_ATTR, TargetAttr, module_target, set_module_target

Hw = Dialect("hw", ALL_OPS, ALL_ATTRS)

__all__ = ["Hw", "TARGET_ATTR", "TargetAttr", "module_target", "ops", "set_module_target"]
