"""ONNX conformance models: strati's compile time and time per inference beside onnxruntime's, in one run.

The models are those of the conformance runner (tests/conformance/run.py): the
``simple``, ``pytorch-converted`` and ``pytorch-operator`` sets of the ONNX backend
test data, and the whole models of the ``light`` set (AlexNet to VGG-19, weights
made by ConstantOfShape; inputs made as ONNX's runner makes them).  For each model:

* strati: ``import_model`` then ``strati.compile`` (the ``compile s`` column is
  both: import, lowering, LLVM IR, O3 and machine code); inputs the runner binds
  at import (a shape given as a graph input) are bound the same way here;
* the outputs on ``test_data_set_0`` are checked as the runner checks them
  (rtol 1e-3, atol 1e-7, or the runner's written exception): a model strati does
  not pass, does not support, or that is out of scope, is left out of the table
  and listed below it;
* onnxruntime (CPU provider, ``intra_op_num_threads=2``, ``inter_op_num_threads=1``)
  on the same model and the same inputs (``session s``: creating the session).
  onnxruntime implements no operator below opset 7: such a model is converted to
  opset 7 with ``onnx.version_converter`` (rows marked ²) and used when
  onnxruntime's outputs on it match the expected ones; otherwise its cells are
  ``n/a`` and the reason is listed.

strati runs with ``--threads`` threads (default 2, as onnxruntime).  Every time per
inference is the median over calls after one warm-up call: at least ``--repeat``
calls, more while the model's time budget lasts (``--budget`` seconds per model,
half for each runtime), at most 1000.  ``ort/strati`` is onnxruntime's time over
strati's (above 1: strati is faster); the summary is its geometric mean.  Each
model runs in a forked child process where the OS allows it, so a crash or a
model exceeding ``--timeout`` is a row in the list, not the end of the run; a
small model is compiled (strati, in the parent) and run (onnxruntime, in each
child) first, so that no compile or session time includes one-time start-up.
Informative only: nothing is asserted.  From the repository root::

    .venv/bin/python bench/onnx_models.py [--filter REGEX] [--limit N] [--repeat N] [--budget SECONDS]
                                          [--timeout SECONDS] [--sets SETS] [--threads N] [--random-weights SEED]

``--random-weights SEED`` gives the light models seeded random weights in place of their
ConstantOfShape ones, whose equal values make every logit tie, so that a softmax of them
depends on the last bit of each sum's order (strati sums in a different order per output
block, onnxruntime in one order for all, so only onnxruntime reproduces the uniform expected
output); the expected outputs are then onnxruntime's on the same model and inputs.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import math
import os
import re
import select
import signal
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from machine import header  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RUNNER_PATH = ROOT / "tests" / "conformance" / "run.py"
DEFAULT_SETS = ("simple", "pytorch-converted", "pytorch-operator", "light")
ORT_CONVERT_OPSET = 7  # onnxruntime implements no operator below opset 7


def load_runner():
    """tests/conformance/run.py as a module (its case list, data loading and comparison)."""
    spec = importlib.util.spec_from_file_location("strati_conformance_run", RUNNER_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def median_time(fn: Callable[[], object], repeat: int, budget: float, cap: int = 1000) -> tuple[float, int]:
    """Median seconds per call of ``fn`` and the number of timed calls: one warm-up, then
    >= ``repeat`` calls, more while ``budget`` seconds last, at most ``cap``."""
    fn()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < repeat or (time.perf_counter() - start < budget and len(times) < cap):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), len(times)


# --- one model ---------------------------------------------------------------------------------------


def measure(runner, case, repeat: int, budget: float) -> dict:
    """Compile, check and time one case on strati and onnxruntime.  A dict: ``status`` is
    ``measured`` (with the times), or ``skipped`` / ``unsupported`` / ``failed`` with ``detail``."""
    import strati
    from strati.diagnostics import StratiError
    from strati.frontends.onnx import UnsupportedModelError, import_model

    model = case.load_model()
    data = case.load_data(model)
    if not data:
        return {"status": "skipped", "detail": "no test data"}
    inputs, expected = (runner._arrays(v) for v in data[0])
    if any(x is None for x in inputs + expected):
        return {"status": "skipped", "detail": "out of scope: sequence/optional/map types"}
    if any(x.dtype == object for x in inputs + expected):
        return {"status": "skipped", "detail": "out of scope: string tensors"}
    inits = {t.name for t in model.graph.initializer}
    feed_names = [vi.name for vi in model.graph.input if vi.name not in inits]
    feeds = dict(zip(feed_names, inputs))

    # strati: import + compile, binding at import the inputs the importer needs as constants
    constant_names: tuple[str, ...] = ()
    while True:
        start = time.perf_counter()
        try:
            module = import_model(model, {k: feeds[k] for k in constant_names})
        except UnsupportedModelError as err:
            if err.out_of_scope:
                return {"status": "skipped", "detail": "out of scope: " + ", ".join(err.categories)}
            needs = err.needs_constant
            if needs and set(needs) <= set(feeds) and not set(needs) <= set(constant_names):
                constant_names = tuple(dict.fromkeys(constant_names + needs))
                continue
            return {"status": "unsupported", "detail": str(err).removeprefix("unsupported: ")}
        except StratiError as err:
            return {"status": "failed", "detail": f"import: {err.message}"}
        try:
            executable = strati.compile(module)
        except StratiError as err:
            return {"status": "failed", "detail": f"compile: {err.message}"}
        compile_s = time.perf_counter() - start
        break
    args = [feeds[k] for k in feed_names if k not in constant_names]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        got = [np.asarray(o) for o in executable.run(*args)]
    rtol, atol = runner.RTOL, runner.ATOL
    if case.name in runner.TOLERANCES:
        rtol, atol, _ = runner.TOLERANCES[case.name]
    if (problem := runner.compare(got, expected, rtol, atol)) is not None:
        return {"status": "failed", "detail": problem}
    strati_s, strati_n = median_time(lambda: executable.run(*args), repeat, budget / 2)
    result = {"status": "measured", "compile_s": compile_s, "strati_s": strati_s, "strati_n": strati_n,
              "bound": list(constant_names)}  # fmt: skip

    # onnxruntime: the same model, every graph input fed (also those strati bound at import); a model
    # it refuses (opset 6 and older) is converted to opset 7 by onnx.version_converter and used if
    # onnxruntime's outputs on it still match the expected ones
    try:
        import onnxruntime as ort
    except ImportError:
        result["ort_error"] = "onnxruntime is not installed"
        return result
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    options.inter_op_num_threads = 1
    options.log_severity_level = 4  # (its refusals are reported below the table, not logged)

    def ort_session(proto):
        start = time.perf_counter()
        session = ort.InferenceSession(proto.SerializeToString(), options, providers=["CPUExecutionProvider"])
        seconds = time.perf_counter() - start
        outputs = session.run([o.name for o in proto.graph.output], feeds)
        return session, seconds, outputs

    ort_model = model
    try:
        session, session_s, ort_got = ort_session(model)
    except Exception as err:  # noqa: BLE001 - onnxruntime refuses the model
        refusal = _first_line(err)
        try:
            from onnx import version_converter

            ort_model = version_converter.convert_version(model, ORT_CONVERT_OPSET)
            session, session_s, ort_got = ort_session(ort_model)
        except Exception as convert_err:  # noqa: BLE001
            result["ort_error"] = f"{refusal} (converted to opset {ORT_CONVERT_OPSET}: {_first_line(convert_err)})"
            return result
        if (problem := runner.compare([np.asarray(o) for o in ort_got], expected, rtol, atol)) is not None:
            result["ort_error"] = f"{refusal} (converted to opset {ORT_CONVERT_OPSET}: wrong outputs, {problem})"
            return result
        result["ort_converted"] = True
    else:
        if (problem := runner.compare([np.asarray(o) for o in ort_got], expected, rtol, atol)) is not None:
            result["ort_mismatch"] = problem  # informative: timed all the same
    output_names = [o.name for o in ort_model.graph.output]
    ort_s, ort_n = median_time(lambda: session.run(output_names, feeds), repeat, budget / 2)
    result.update(session_s=session_s, ort_s=ort_s, ort_n=ort_n)
    return result


def _first_line(err: BaseException) -> str:
    message = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    message = re.sub(r"^\[ONNXRuntimeError\] : \d+ : \w+ : ", "", message)
    return message if len(message) <= 160 else f"{message[:60]} ... {message[-100:]}"


def warm_up_model():
    """A small model (Conv, Relu, Add, MatMul, Softmax) and its input: compiled once before the first
    measurement, so that no model's compile time includes strati's (or LLVM's) one-time start-up."""
    import onnx
    from onnx import helper, numpy_helper

    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 4, 4)).astype(np.float32)
    weights = [numpy_helper.from_array(rng.standard_normal((2, 2, 3, 3)).astype(np.float32), "w"),
               numpy_helper.from_array(rng.standard_normal((4, 4)).astype(np.float32), "m")]  # fmt: skip
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Add", ["r", "x"], ["a"]),
        helper.make_node("MatMul", ["a", "m"], ["p"]),
        helper.make_node("Softmax", ["p"], ["y"], axis=-1),
    ]
    graph = helper.make_graph(nodes, "warm_up", [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, x.shape)], weights)  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model, x


def warm_up_strati() -> None:
    import strati
    from strati.frontends.onnx import import_model

    model, x = warm_up_model()
    strati.compile(import_model(model)).run(x)


def warm_up_onnxruntime() -> None:
    try:
        import onnxruntime as ort
    except ImportError:
        return
    model, x = warm_up_model()
    ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})


def measure_isolated(runner, case, repeat: int, budget: float, timeout: float) -> dict:
    """``measure`` in a forked child (a crash or a timeout becomes a failed row); in-process without fork."""
    if not hasattr(os, "fork"):
        return _guarded(runner, case, repeat, budget)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: measure, send the result as JSON, leave without cleanup
        os.close(read_end)
        try:
            payload = json.dumps(_guarded(runner, case, repeat, budget)).encode()
            view = memoryview(payload)
            while view:
                view = view[os.write(write_end, view) :]
        finally:
            os._exit(0)
    os.close(write_end)
    chunks, deadline, timed_out = [], time.monotonic() + timeout, False
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([read_end], [], [], left)[0]:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"status": "failed", "detail": f"over the time limit ({timeout:g} s)"}
    if chunks:
        return json.loads(b"".join(chunks))
    if os.WIFSIGNALED(status):
        return {"status": "failed", "detail": f"crashed ({signal.Signals(os.WTERMSIG(status)).name})"}
    return {"status": "failed", "detail": f"child exited with status {os.WEXITSTATUS(status)} and no result"}


def _guarded(runner, case, repeat: int, budget: float) -> dict:
    try:
        warm_up_onnxruntime()  # (in the child: onnxruntime's threads are not forked)
        return measure(runner, case, repeat, budget)
    except Exception as err:  # noqa: BLE001 - a bug in strati: a row, then keep going
        return {"status": "failed", "detail": f"internal error: {type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"}


# --- the report --------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    value = seconds * 1e3
    return f"{value:.1f}" if value >= 100 else f"{value:.3g}"


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def with_random_weights(runner, case, seed: int):
    """The case on the runner's :func:`random_weights`, its expected outputs onnxruntime's on the same inputs."""
    import dataclasses

    import onnxruntime as ort

    def load_model():
        return runner.random_weights(case.load_model(), seed)

    def load_data(model):
        data = case.load_data(case.load_model())
        if not data:
            return data
        inputs = runner._arrays(data[0][0])
        options = ort.SessionOptions()
        options.log_severity_level = 4  # (the unused shape constants left behind are not news)
        session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        feeds = {i.name: x for i, x in zip(session.get_inputs(), inputs)}
        return [(inputs, session.run(None, feeds))]

    return dataclasses.replace(case, load_model=load_model, load_data=load_data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filter", metavar="REGEX", help="only models whose SET/NAME matches")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N models (after --filter)")
    parser.add_argument("--repeat", type=int, default=10, help="at least this many timed calls per runtime (default 10)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds of timing per model, half per runtime (default 2)")
    parser.add_argument("--timeout", type=float, default=600.0, help="a model taking longer in all is killed (default 600 s)")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS), help=f"comma-separated (default: {','.join(DEFAULT_SETS)})")
    parser.add_argument("--threads", type=int, default=2, help="strati's threads per parallel region (default 2)")
    parser.add_argument("--random-weights", type=int, metavar="SEED",
                        help="light models: seeded random weights for the ConstantOfShape ones (their equal weights tie "
                             "the logits), expected outputs from onnxruntime")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    runner = load_runner()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    known = runner.SETS + runner.EXTRA_SETS
    if unknown := [s for s in sets if s not in known]:
        parser.error(f"unknown set '{unknown[0]}' (sets: {', '.join(known)})")
    cases = runner.collect(sets)
    if args.random_weights is not None:
        cases = [with_random_weights(runner, c, args.random_weights) if c.set == "light" else c for c in cases]
    if args.filter:
        pattern = re.compile(args.filter)
        cases = [c for c in cases if pattern.search(c.id)]
    if args.limit is not None:
        cases = cases[: args.limit]

    from strati.dialects.hw.cpu import threadpool

    threadpool.set_num_threads(args.threads)
    warm_up_strati()
    print(header(("numpy", "llvmlite", "xdsl", "onnx", "onnxruntime"),
                 f"strati threads {args.threads}, onnxruntime intra-op threads 2"))
    command = " ".join(["bench/onnx_models.py", *(argv if argv is not None else sys.argv[1:])])
    print(f"# {command}: {len(cases)} models; median of >= {args.repeat} calls (budget {args.budget:g} s per model); "
          f"compile s = import + strati.compile; ratio = onnxruntime / strati (above 1: strati faster)")  # fmt: skip
    print()
    print("| model | strati compile s | ort session s | strati ms | ort ms | ort/strati |")
    print("|---|---:|---:|---:|---:|---:|")
    started = time.perf_counter()
    ratios, compile_times, left_out, no_ort, ort_wrong, bound, converted = [], [], [], [], [], 0, 0
    ratios_by_set: dict[str, list[float]] = {}
    for case in cases:
        r = measure_isolated(runner, case, args.repeat, args.budget, args.timeout)
        if r["status"] != "measured":
            left_out.append((case.id, r["status"], r["detail"]))
            continue
        compile_times.append(r["compile_s"])
        name = case.id + (" ¹" if r["bound"] else "") + (" ²" if r.get("ort_converted") else "")
        bound += bool(r["bound"])
        converted += bool(r.get("ort_converted"))
        if "ort_mismatch" in r:
            ort_wrong.append((case.id, r["ort_mismatch"]))
        if "ort_s" in r:
            ratio = r["ort_s"] / r["strati_s"]
            ratios.append(ratio)
            ratios_by_set.setdefault(case.set, []).append(ratio)
            cells = (f"{r['session_s']:.3f}", ms(r["strati_s"]), ms(r["ort_s"]), f"{ratio:.2f}")
        else:
            no_ort.append((case.id, r["ort_error"]))
            cells = ("n/a", ms(r["strati_s"]), "n/a", "n/a")
        print(f"| {name} | {r['compile_s']:.3f} | " + " | ".join(cells) + " |", flush=True)

    print()
    if bound:
        print(f"¹ {bound} models: a graph input strati binds at import (a shape operand); onnxruntime is fed it at every call.")
    if converted:
        print(f"² {converted} models: onnxruntime refuses the model's opset; it ran the model converted to opset "
              f"{ORT_CONVERT_OPSET} by onnx.version_converter (its outputs checked against the expected ones).")
    if ort_wrong:
        print(f"onnxruntime's outputs differ from the expected ones on {len(ort_wrong)} models (timed all the same):")
        for case_id, problem in ort_wrong:
            print(f"  {case_id}: {problem}")
    if no_ort:
        reasons: dict[str, list[str]] = {}
        for case_id, why in no_ort:
            reasons.setdefault(why, []).append(case_id)
        print(f"no onnxruntime time for {len(no_ort)} of the measured models:")
        for why, ids in reasons.items():
            print(f"  {len(ids)} x {why}: {', '.join(ids)}")
    if left_out:
        print(f"left out ({len(left_out)}):")
        for case_id, status, detail in left_out:
            print(f"  {status:<11}  {case_id}  {detail}")
    measured = len(compile_times)
    if len(ratios_by_set) > 1:
        print("geometric mean ort/strati by set: " + ", ".join(
            f"{name} {geometric_mean(values):.2f} ({len(values)})" for name, values in ratios_by_set.items()))  # fmt: skip
    geomean = geometric_mean(ratios)
    compile_text = (f"strati compile time median {statistics.median(compile_times):.3f} s, total {sum(compile_times):.1f} s"
                    if compile_times else "nothing compiled")  # fmt: skip
    print(
        f"geometric mean ort/strati {geomean:.2f} over {len(ratios)} models ({measured} measured, "
        f"{len(no_ort)} without onnxruntime time, {len(left_out)} left out); {compile_text}; "
        f"wall time {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
