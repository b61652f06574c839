"""Big weights in the textual IR: ResNet-50 ONNX -> .mlir -> parsed back (issue 13, item 5).

The model is the conformance runner's light ResNet-50 (``light_resnet50.onnx`` in the
``onnx`` package's backend test data), whose weights are ``ConstantOfShape`` splats; here
each becomes an initializer of seeded random float32 values of its shape, so the file holds
the 25.6 M weights (102 MB) a trained ResNet-50 has.  Stages, each timed (wall seconds and
this process's CPU seconds; the machine may be shared, so CPU is the steadier figure):

* import -- ``strati.frontends.onnx.import_model`` (ONNX protobuf to graph IR in memory);
* print  -- ``strati.source.module_text`` (the default: constants of more than 1024
  elements as ``dense_resource`` blobs) and writing the file;
* parse  -- reading the file back with ``strati.source.load_module`` (parse and verify).

Then the same with ``--external-weights`` (the blobs in ``resnet50.weights.bin``).  Goals:
import + print + parse <= 10 s, the .mlir <= 2.1 x the weight bytes.  From the repository
root::

    .venv/bin/python bench/weights_text.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).parent))
from machine import header  # noqa: E402

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / "light_resnet50.onnx"


def resnet50_with_weights(seed: int = 0) -> tuple[onnx.ModelProto, int]:
    """The light ResNet-50 with its ConstantOfShape weights made seeded random initializers;
    and the weights' bytes."""
    model = onnx.load(str(LIGHT))
    shapes = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    rng = np.random.default_rng(seed)
    nodes, weights = [], []
    for node in model.graph.node:
        if node.op_type == "ConstantOfShape" and node.input[0] in shapes:
            shape = tuple(int(d) for d in shapes[node.input[0]])
            weights.append(numpy_helper.from_array((rng.standard_normal(shape) * 0.05).astype(np.float32), node.output[0]))
        else:
            nodes.append(node)
    used = {name for node in nodes for name in node.input}
    kept = [t for t in model.graph.initializer if t.name in used] + weights
    names = {t.name for t in kept}
    inputs = [vi for vi in model.graph.input if vi.name in names or vi.name not in shapes]
    del model.graph.node[:], model.graph.initializer[:], model.graph.input[:]
    model.graph.node.extend(nodes)
    model.graph.initializer.extend(kept)
    model.graph.input.extend(inputs)
    return model, sum(numpy_helper.to_array(t).nbytes for t in kept)


class Clock:
    def __init__(self):
        self.rows: list[tuple[str, float, float]] = []

    def time(self, name: str, fn):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        self.rows.append((name, time.perf_counter() - wall, time.process_time() - cpu))
        return result


def run(directory: Path, external: bool, model_path: Path, weight_bytes: int) -> list[str]:
    from strati.frontends.onnx import import_model
    from strati.resources import ResourcePrinting, weights_path
    from strati.source import load_module, module_text
    from strati.tools.common import read_text, write_text

    out = directory / ("resnet50_ext.mlir" if external else "resnet50.mlir")
    weights = weights_path(str(out)) if external else None
    clock = Clock()
    module = clock.time("import", lambda: import_model(str(model_path)))

    def print_and_write():
        printing = ResourcePrinting(weights_file=weights.name if weights else None)
        write_text(str(out), module_text(module, resources=printing))
        if weights is not None:
            write_text(str(weights), bytes(printing.external))

    clock.time("print", print_and_write)
    back = clock.time("parse", lambda: load_module(read_text(str(out)), str(out)))
    assert sum(1 for _ in back.walk()) == sum(1 for _ in module.walk())
    size = out.stat().st_size + (weights.stat().st_size if weights else 0)
    label = "external weights" if external else "dense_resource blobs in the text"
    lines = [f"{label}:", f"  {'stage':8} {'wall s':>8} {'cpu s':>8}"]
    lines += [f"  {name:8} {wall:8.2f} {cpu:8.2f}" for name, wall, cpu in clock.rows]
    total_wall, total_cpu = sum(r[1] for r in clock.rows), sum(r[2] for r in clock.rows)
    lines.append(f"  {'total':8} {total_wall:8.2f} {total_cpu:8.2f}   (goal <= 10 s)")
    files = f"{out.name} {out.stat().st_size / 1e6:.1f} MB" + (f" + {weights.name} {weights.stat().st_size / 1e6:.1f} MB" if weights else "")
    lines.append(f"  files: {files}; weights {weight_bytes / 1e6:.1f} MB; ratio {size / weight_bytes:.3f}"
                 + ("" if external else "   (goal <= 2.1)"))
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", metavar="DIR", help="write the model and the .mlir files here (default: a temporary directory)")
    args = ap.parse_args(argv)
    print(header())
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(args.keep or tmp)
        directory.mkdir(parents=True, exist_ok=True)
        model, weight_bytes = resnet50_with_weights()
        model_path = directory / "resnet50.onnx"
        onnx.save(model, str(model_path))
        print(f"ResNet-50: {len(model.graph.node)} nodes, {len(model.graph.initializer)} initializers, "
              f"{weight_bytes / 1e6:.1f} MB of weights")
        for external in (False, True):
            print("\n".join(run(directory, external, model_path, weight_bytes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
