"""The README's op table is generated; it must match the op definitions and the registry."""

from pathlib import Path

from strati.tools.opdocs import BEGIN, END, section

README = Path(__file__).parents[2] / "README.md"


def test_readme_op_table_is_current():
    text = README.read_text(encoding="utf-8")
    current = text[text.index(BEGIN) : text.index(END) + len(END)]
    assert current == section(), "run: python -m strati.tools.opdocs README.md"


def test_table_lists_every_graph_op_with_its_pattern():
    from strati.dialects.graph import Graph

    table = section()
    for op in Graph.operations:
        (row,) = [line for line in table.splitlines() if line.startswith(f"| `{op.name}` |")]
        assert "| - |" not in row, f"{op.name} has no pattern"
