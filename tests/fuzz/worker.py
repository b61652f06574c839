"""The fuzzers' worker process: runs one case per request, in this process, and answers.

The protocol is one JSON object per line: a case on stdin, its outcome on the worker's
own copy of stdout (file descriptors 1 and 2 go to /dev/null, so whatever strati or LLVM
prints cannot garble it).  The parent (:mod:`tests.fuzz.harness`) gives each case a time
limit and restarts the worker when it dies: the case it was running is the one that
killed it.

Cases:

* ``{"kind": "program", "file": F, "seed": S, "levels": [0, 1, 2, 3]}``: interpret the
  graph-level module on seeded random inputs, compile it at each -O level and compare; on
  a mismatch, translation validation (``check_passes``) names the pass and the op.
* ``{"kind": "tool", "argv": ["strati-opt", ...]}``: run a console tool in this process;
  it must exit 0, or exit 1 with diagnostics only (no ``internal error``, no traceback).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback
import warnings

import numpy as np

TOOLS = {
    "strati-opt": "strati.tools.opt",
    "strati-run": "strati.tools.run",
    "strati-import": "strati.tools.import_onnx",
    "strati-translate": "strati.tools.translate",
    "strati-reduce": "strati.tools.reduce",
}

TOLERANCE = dict(rtol=1e-3, atol=1e-4)
"""Of float results (integers and booleans are exact): a chain of ops computed in another
order (fusion, fast-math), libm against numpy."""


def random_inputs(types, seed: int) -> list[np.ndarray]:
    """Standard normal floats, integers in [0, 10), fair booleans: strati-run's --random-inputs."""
    from strati.tools.run import random_value

    rng = np.random.default_rng(seed)
    return [random_value(f"arg{i}", t, rng) for i, t in enumerate(types)]


def run_program(case: dict) -> dict:
    """Interpreter against native code at each -O level."""
    import strati
    from strati.compiler import load
    from strati.diagnostics import DiagnosticError, StratiError
    from strati.functions import find_function
    from strati.pass_validation import differs
    from strati.runtime.interpreter import run_function

    from strati.tools.common import load_plugin

    for plugin in case.get("plugins", []):  # a test's wrong pass, say
        load_plugin(plugin)
    try:
        module = load(case["file"])
    except (DiagnosticError, StratiError) as err:
        return {"status": "invalid", "detail": f"does not load: {err}"}
    fn = find_function(module)
    inputs = random_inputs(fn.function_type.inputs.data, case.get("seed", 0))
    try:
        with np.errstate(all="ignore"):
            want = run_function(module, inputs)
    except StratiError as err:  # the generator's fault (or the interpreter's): not compared
        return {"status": "invalid", "detail": f"interpreter: {err}"}
    for level in case.get("levels", [0, 1, 2, 3]):
        try:
            exe = strati.compile(module, opt_level=level)
            got = exe(*inputs)
        except Exception as err:  # noqa: BLE001 - a verified module must compile
            return {"status": "compile-error", "level": level, "detail": f"-O{level}: {type(err).__name__}: {err}"}
        got = got if isinstance(got, (list, tuple)) else [got]
        for i, (g, w) in enumerate(zip(got, want)):
            if (how := differs(g, w, **TOLERANCE)) is not None:
                detail = f"-O{level}: output {i}: {how}{culprit(module, level)}"
                return {"status": "mismatch", "level": level, "detail": detail}
    return {"status": "ok"}


def culprit(module, level: int) -> str:
    """Which pass changes the results, by translation validation (``check_passes``), if it can tell."""
    import strati
    from strati.diagnostics import StratiError, op_diagnostic

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            strati.compile(module, opt_level=level, check_passes=True)
    except StratiError as err:
        return f"; check_passes: {op_diagnostic(err.message, err.op)}"
    except Exception as err:  # noqa: BLE001
        return f"; check_passes failed: {type(err).__name__}: {err}"
    return "; check_passes: every pass down to the loop level keeps the results (the difference is below)"


def run_tool(case: dict) -> dict:
    """A console tool in this process: exit status and stderr, judged."""
    import importlib

    argv = case["argv"]
    module = importlib.import_module(TOOLS[argv[0]])
    err, out = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            module.main(argv[1:])
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    text = err.getvalue()
    lines = [line for line in text.splitlines() if line.strip()]
    if code not in (0, 1):
        return {"status": "bad-exit", "detail": f"exit status {code}: {text[-300:]}"}
    if "internal error" in text or "Traceback" in text:
        first = next((line for line in lines if "internal error" in line or "Traceback" in line), lines[0])
        return {"status": "internal-error", "detail": first[:500]}
    if code == 1 and not lines:
        return {"status": "no-diagnostic", "detail": "exit status 1 without a message"}
    return {"status": "ok", "exit": code}


def selftest(case: dict) -> dict:
    """The harness's own test: die by a signal, hang, or answer."""
    import signal
    import time

    if case["do"] == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    if case["do"] == "hang":
        time.sleep(3600)
    return {"status": "ok"}


def main() -> None:
    channel = os.fdopen(os.dup(1), "w", buffering=1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = open(os.devnull, "w")
    sys.stderr = open(os.devnull, "w")
    warnings.simplefilter("ignore")
    handlers = {"program": run_program, "tool": run_tool, "selftest": selftest}
    for line in sys.stdin:
        case = json.loads(line)
        try:
            result = handlers[case["kind"]](case)
        except Exception as err:  # noqa: BLE001 - a bug in the fuzzer or in strati: report it, carry on
            result = {"status": "worker-exception", "detail": f"{type(err).__name__}: {err}",
                      "traceback": traceback.format_exc()[-2000:]}
        channel.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
