"""The op attribute registry: registration, priority levels, listing, and the support matrix of the graph ops."""

import itertools

import pytest

import strati.dialects.graph  # noqa: F401  (registers the default attributes of the graph ops)
from strati import registry
from strati.dialects.graph.ops import ALL_OPS
from strati.registry import DEFAULT_LEVEL, OpPattern, register_op_attr

_counter = itertools.count()


@pytest.fixture
def op_name():
    """A fresh op name per test, removed from the registry afterwards."""
    name = f"regtest.op{next(_counter)}"
    yield name
    for attr in list(registry.op_attrs(name)):
        registry.unregister_op_attr(name, attr)


def register_from(module: str, op: str, attr: str, value, level: int = DEFAULT_LEVEL) -> None:
    """Register as a module named ``module`` would (the registry records the caller's module)."""
    code = "register_op_attr(op, attr, value, level=level)"
    exec(code, {"__name__": module, "register_op_attr": register_op_attr, "op": op, "attr": attr,
                "value": value, "level": level})


def test_register_by_name_and_look_up(op_name):
    fn = lambda op: []  # noqa: E731
    assert register_op_attr(op_name, "infer_type", fn) is fn
    assert registry.get_op_attr(op_name, "infer_type") is fn
    assert registry.has_op_attr(op_name, "infer_type")
    assert registry.lookup_or_raise(op_name, "infer_type") is fn
    reg = registry.op_attrs(op_name)["infer_type"]
    assert (reg.value, reg.level, reg.origin) == (fn, DEFAULT_LEVEL, __name__)


def test_decorator_form_returns_the_function(op_name):
    @register_op_attr(op_name, "reference")
    def reference(op, x):
        return x

    assert reference(None, 3) == 3  # still the plain function
    assert registry.get_op_attr(op_name, "reference") is reference
    assert registry.op_attrs(op_name)["reference"].origin == __name__


def test_lookup_of_a_missing_attribute(op_name):
    register_op_attr(op_name, "pattern", OpPattern.OPAQUE)
    assert registry.get_op_attr(op_name, "flops") is None
    assert registry.get_op_attr(op_name, "flops", default=0) == 0
    assert registry.get_op_attr("regtest.never_registered", "pattern", "none") == "none"
    assert not registry.has_op_attr(op_name, "flops")
    with pytest.raises(KeyError, match=f"op '{op_name}' has no registered 'flops'"):
        registry.lookup_or_raise(op_name, "flops")


def test_op_names_must_name_the_dialect():
    with pytest.raises(ValueError, match="must be qualified by its dialect"):
        register_op_attr("relu", "pattern", OpPattern.ELEMWISE)
    assert "relu" not in registry.registered_ops()


def test_higher_level_overrides_lower_is_ignored(op_name):
    register_from("plugin_a", op_name, "flops", "default")
    register_from("plugin_b", op_name, "flops", "override", level=DEFAULT_LEVEL + 5)
    assert registry.get_op_attr(op_name, "flops") == "override"
    assert registry.op_attrs(op_name)["flops"].origin == "plugin_b"
    register_from("plugin_c", op_name, "flops", "lower", level=DEFAULT_LEVEL)  # lower than the override
    assert registry.get_op_attr(op_name, "flops") == "override"
    assert registry.op_attrs(op_name)["flops"].level == DEFAULT_LEVEL + 5


def test_same_level_from_another_module_is_a_conflict(op_name):
    register_from("plugin_a", op_name, "pattern", OpPattern.ELEMWISE)
    with pytest.raises(KeyError, match=f"'pattern' of op '{op_name}' is already registered at level 10 by plugin_a"):
        register_from("plugin_b", op_name, "pattern", OpPattern.OPAQUE)
    assert registry.get_op_attr(op_name, "pattern") == OpPattern.ELEMWISE
    # the same module may register again (a reload): the newer value wins
    register_from("plugin_a", op_name, "pattern", OpPattern.INJECTIVE)
    assert registry.get_op_attr(op_name, "pattern") == OpPattern.INJECTIVE


def test_decorator_conflict_uses_the_function_module(op_name):
    def first(op):
        return 1

    def second(op):
        return 2

    second.__module__ = "some_plugin"
    register_op_attr(op_name, "flops")(first)
    with pytest.raises(KeyError, match=f"already registered at level 10 by {__name__}"):
        register_op_attr(op_name, "flops")(second)
    register_op_attr(op_name, "flops", level=DEFAULT_LEVEL + 1)(second)
    assert registry.get_op_attr(op_name, "flops")(None) == 2


def test_unregister(op_name):
    register_op_attr(op_name, "flops", lambda op: 1)
    register_op_attr(op_name, "pattern", OpPattern.REDUCE)
    registry.unregister_op_attr(op_name, "flops")
    assert not registry.has_op_attr(op_name, "flops")
    assert registry.get_op_attr(op_name, "flops", "gone") == "gone"
    assert list(registry.op_attrs(op_name)) == ["pattern"]
    registry.unregister_op_attr(op_name, "flops")  # removing what is absent is harmless
    registry.unregister_op_attr("regtest.never_registered", "flops")
    # after unregistering, any module may register at any level again
    register_from("plugin_z", op_name, "flops", "new", level=1)
    assert registry.get_op_attr(op_name, "flops") == "new"


def test_listing(op_name):
    register_op_attr(op_name, "pattern", OpPattern.OUT_ELEMWISE_FUSABLE)
    register_op_attr(op_name, "regtest_cost", 7)
    assert op_name in registry.registered_ops()
    assert registry.registered_ops() == sorted(registry.registered_ops())
    names = registry.attr_names()
    standard = [a for a in registry.STANDARD_ATTRS if a in names]
    assert names[: len(standard)] == standard  # the standard keys first, in their order
    assert names[len(standard):] == sorted(names[len(standard):])
    assert "regtest_cost" in names

    table = registry.format_table([op_name, "graph.relu"]).splitlines()
    header = table[0].split()
    assert header == ["op"] + names
    rows = {line.split()[0]: line.split()[1:] for line in table[1:]}
    assert list(rows) == [op_name, "graph.relu"]
    mine = dict(zip(names, rows[op_name]))
    assert mine["pattern"] == "out_elemwise_fusable" and mine["regtest_cost"] == "x"
    assert all(mine[a] == "-" for a in names if a not in ("pattern", "regtest_cost"))
    relu = dict(zip(names, rows["graph.relu"]))
    assert relu["pattern"] == "elemwise" and relu["infer_type"] == relu["reference"] == relu["flops"] == "x"

    whole = registry.format_table()
    assert [line.split()[0] for line in whole.splitlines()[1:]] == registry.registered_ops()


def test_pattern_names_and_order():
    assert str(OpPattern.OUT_ELEMWISE_FUSABLE) == "out_elemwise_fusable"
    assert OpPattern.ELEMWISE < OpPattern.BROADCAST < OpPattern.INJECTIVE < OpPattern.REDUCE < OpPattern.OPAQUE


REQUIRED = ["infer_type", "reference", "pattern", "flops"]


def test_all_ops_lists_every_graph_op():
    names = [cls.name for cls in ALL_OPS]
    assert len(names) == len(set(names))
    for expected in ("graph.constant", "graph.relu", "graph.add", "graph.matmul", "graph.conv2d",
                     "graph.reduce_sum", "graph.argmax", "graph.reshape", "graph.concat"):
        assert expected in names


@pytest.mark.parametrize("op", sorted(cls.name for cls in ALL_OPS))
def test_support_matrix_is_complete(op):
    """Every graph op has the attributes every pass relies on."""
    missing = [a for a in REQUIRED if not registry.has_op_attr(op, a)]
    assert not missing, f"{op} lacks {missing}"
    assert isinstance(registry.get_op_attr(op, "pattern"), OpPattern)
    assert callable(registry.get_op_attr(op, "infer_type"))
    assert callable(registry.get_op_attr(op, "reference"))
    assert callable(registry.get_op_attr(op, "flops"))
