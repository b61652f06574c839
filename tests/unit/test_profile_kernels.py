"""profile-kernels and ``Executable.profile()``: a cycle counter per kernel call and loop nest.

The counters change no result (the same module compiled without them, and the graph
interpreter, are the references); each counter counts every call once; the whole call's
counter encloses the kernels' (the cycle counter only goes forward); reading resets them;
the interpreters skip the ops; ``strati-run --profile`` prints the table.  No assertion is
about how long anything takes.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import parse

import strati
from strati.compiler import lower_to, optimizations_for, run_pass
from strati.runtime.interpreter import run_function
from strati.runtime.loop_interpreter import run_loop_function
from strati.tools.run import run as strati_run
from test_outline_kernels import blocks, inputs

TOL = dict(rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("opt_level", [0, 3])
def test_counters_change_no_result_and_count_every_call(opt_level):
    text, xs = blocks(3), inputs(3)
    profiled = strati.compile(parse(text), opt_level=opt_level, profile=True)
    plain = strati.compile(parse(text), opt_level=opt_level)
    assert plain.profile() is None
    np.testing.assert_array_equal(profiled(*xs), plain(*xs))
    np.testing.assert_allclose(profiled(*xs), run_function(parse(text), xs)[0], **TOL)
    profiled.profile()  # from zero
    for _ in range(5):
        profiled(*xs)
    report = profiled.profile()
    assert report.function == "net" and report.total.calls == 5
    assert report.rows and all(row.calls == 5 and row.seconds > 0 for row in report.rows)
    assert sum(row.seconds for row in report.rows) <= report.total.seconds
    assert [r.seconds for r in report.rows] == sorted((r.seconds for r in report.rows), reverse=True)
    again = profiled.profile()
    assert again.total.calls == 0 and not again.rows and "nothing measured" in again.table()


def test_the_three_layers_have_rows_of_their_own():
    """-O3 outlines the three identical conv + relu blocks into one kernel, called three times:
    three rows, one per call site, each naming the buffer it writes (the result's is %out)."""
    text, xs = blocks(3), inputs(3)
    exe = strati.compile(parse(text), profile=True)
    exe(*xs)
    labels = [row.label for row in exe.profile().rows]
    callees = [label.split(" -> ")[0] for label in labels]
    assert len(set(callees)) < len(callees)  # a kernel shared by call sites, each counted apart
    assert any("-> %out: " in label for label in labels)  # the result (or a view of it)


def test_the_loop_interpreter_skips_the_counters():
    text, xs = blocks(1, channels=4, size=5), inputs(1, channels=4, size=5)
    module = lower_to(parse(text), "loop", optimizations_for(3))
    expected = run_loop_function(module, xs, "net")
    run_pass(module, "profile-kernels")
    assert any(op.name == "loop.profile_begin" for op in module.walk())
    np.testing.assert_array_equal(run_loop_function(module, xs, "net")[0], expected[0])


def test_the_table_shows_the_largest_rows_and_the_rest():
    text, xs = blocks(4), inputs(4)
    exe = strati.compile(parse(text), opt_level=0, profile=True)
    exe(*xs)
    report = exe.profile()
    table = report.table(top=2)
    assert table.splitlines()[0].startswith("profile of @net: 1 calls")
    assert f"({len(report.rows) - 2} more rows)" in table and "(between the kernels" in table
    assert len(report.table(top=None).splitlines()) == len(report.rows) + 3


def test_strati_run_profile_prints_the_table(tmp_path, capsys):
    path = tmp_path / "net.mlir"
    path.write_text(blocks(2), encoding="utf-8")
    assert strati_run([str(path), "--random-inputs", "0", "--profile", "--bench", "3"]) in (0, None)
    out = capsys.readouterr().out
    assert "profile of @net: 4 calls" in out and "share  kernel" in out


def test_a_counter_outside_the_labels_is_refused():
    text = """
    builtin.module attributes {strati.profile = ["@f (the whole call)"]} {
      func.func @f() {
        loop.profile_begin 1
        func.return
      }
    }"""
    with pytest.raises(Exception, match="counter 1 is not one of the module's 1"):
        parse(text).verify()
