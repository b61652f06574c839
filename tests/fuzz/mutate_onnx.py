"""Mutated ONNX models through ``strati-import``: a diagnostic, never a crash.

Seeds are the small models of the ONNX backend test data shipped in the ``onnx`` package
(``simple``, ``pytorch-operator``, ``pytorch-converted``, and ``node`` where it is installed)
and a few small hand-made graphs.  A mutation edits the
protobuf: an input's dimension (0, negative, huge, symbolic) or element type, an
attribute's value (extremes, NaN, another type) or its absence, a node's inputs, its op
type, an initializer's data or external location; or it flips and truncates the
serialized bytes.  ``strati-import`` must exit 0, or exit 1 with one line.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

INTS = [0, -1, 1, 2, -5, 3, 2**31 - 1, -(2**31), 2**62, 1000000]
FLOATS = [0.0, -0.0, float("nan"), float("inf"), -1.0, 1e30, 0.5]
OP_TYPES = ["Add", "Relu", "MatMul", "Conv", "Gather", "Slice", "Concat", "Reshape", "Softmax", "ReduceMean", "Range",
            "Transpose", "Gemm", "Cast", "Div", "Mod", "Pad", "Resize", "Split", "Unsqueeze", "Squeeze", "Constant", "Foo"]


@lru_cache(maxsize=1)
def seeds() -> tuple[bytes, ...]:
    import onnx
    from onnx import TensorProto, helper

    found = []
    data = Path(onnx.__file__).parent / "backend" / "test" / "data"
    for folder in ("node", "simple", "pytorch-operator", "pytorch-converted"):  # node: absent from wheels
        for model in sorted((data / folder).glob("*/model.onnx")):
            if model.stat().st_size < 512 * 1024:
                found.append(model.read_bytes())

    def model(nodes, inputs, outputs, inits=()):
        g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        m.ir_version = 8
        return m.SerializeToString()

    f = TensorProto.FLOAT
    x = helper.make_tensor_value_info("x", f, [2, 8])
    y = helper.make_tensor_value_info("y", f, None)
    w = helper.make_tensor("w", f, [8, 4], [0.5] * 32)
    found.append(model([helper.make_node("MatMul", ["x", "w"], ["h"]), helper.make_node("Relu", ["h"], ["y"])], [x], [y], [w]))
    idx = helper.make_tensor("i", TensorProto.INT64, [2], [0, 1])
    found.append(model([helper.make_node("Gather", ["x", "i"], ["y"], axis=1)], [x], [y], [idx]))
    starts = helper.make_tensor("s", TensorProto.INT64, [1], [1])
    ends = helper.make_tensor("e", TensorProto.INT64, [1], [5])
    found.append(model([helper.make_node("Slice", ["x", "s", "e"], ["y"])], [x], [y], [starts, ends]))
    found.append(model([helper.make_node("Concat", ["x", "x"], ["y"], axis=0)], [x], [y]))
    xi = helper.make_tensor_value_info("xi", TensorProto.INT32, [4])
    found.append(model([helper.make_node("Div", ["xi", "xi"], ["y"])], [xi], [helper.make_tensor_value_info("y", TensorProto.INT32, None)]))
    return tuple(found)


def _attribute(rng: random.Random, attr) -> None:
    from onnx import AttributeProto

    if attr.type == AttributeProto.INT:
        attr.i = rng.choice(INTS)
    elif attr.type == AttributeProto.FLOAT:
        attr.f = rng.choice(FLOATS)
    elif attr.type == AttributeProto.INTS and rng.random() < 0.5:
        if attr.ints:
            attr.ints[rng.randrange(len(attr.ints))] = rng.choice(INTS)
        else:
            attr.ints.append(rng.choice(INTS))
    elif attr.type == AttributeProto.INTS:
        del attr.ints[rng.randrange(len(attr.ints) + 1) :]
    elif attr.type == AttributeProto.STRING:
        attr.s = rng.choice([b"", b"bogus", b"constant", b"\xff"])
    else:
        attr.type = rng.choice([AttributeProto.INT, AttributeProto.STRING, AttributeProto.FLOATS])
        attr.s = b"x"


def mutate(data: bytes, rng: random.Random) -> bytes:
    import onnx
    from onnx import TensorProto

    if rng.random() < 0.1:  # the bytes themselves
        buf = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            if buf:
                buf[rng.randrange(len(buf))] = rng.randrange(256)
        return bytes(buf[: rng.randint(len(buf) // 2, len(buf))]) if rng.random() < 0.3 else bytes(buf)
    model = onnx.ModelProto()
    model.ParseFromString(data)
    g = model.graph
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        if kind == 0 and g.input:
            t = rng.choice(g.input).type.tensor_type
            if t.shape.dim:
                dim = rng.choice(t.shape.dim)
                choice = rng.choice([0, -5, -1, 1, 2**40, 7, "N"])
                if isinstance(choice, str):
                    dim.dim_param = choice
                else:
                    dim.dim_value = choice
            else:
                t.shape.dim.add().dim_value = rng.choice([0, -1, 3])
        elif kind == 1 and g.input:
            rng.choice(g.input).type.tensor_type.elem_type = rng.choice(
                [TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32, TensorProto.BOOL, TensorProto.STRING,
                 TensorProto.FLOAT16, TensorProto.DOUBLE, TensorProto.UINT8, 0, 99])
        elif kind == 2 and g.node:
            node = rng.choice(g.node)
            if node.attribute and rng.random() < 0.8:
                _attribute(rng, rng.choice(node.attribute))
            elif node.attribute:
                del node.attribute[rng.randrange(len(node.attribute))]
        elif kind == 3 and g.node:
            node = rng.choice(g.node)
            if node.input and rng.random() < 0.5:
                del node.input[rng.randrange(len(node.input))]
            else:
                node.input.append(rng.choice(["", "x", "missing", *[i.name for i in g.input]]))
        elif kind == 4 and g.node:
            rng.choice(g.node).op_type = rng.choice(OP_TYPES)
        elif kind == 5 and g.initializer:
            init = rng.choice(g.initializer)
            if rng.random() < 0.5:
                init.dims[:] = [rng.choice([0, -1, 3, 2**33]) for _ in range(rng.randint(0, 3))]
            else:
                init.ClearField("raw_data")
                init.data_location = TensorProto.EXTERNAL
                entry = init.external_data.add()
                entry.key, entry.value = "location", rng.choice(["missing.bin", "../outside.bin", "/etc/hostname", ""])
        elif kind == 6 and g.initializer:
            del g.initializer[rng.randrange(len(g.initializer))]
        elif kind == 7 and g.output:
            del g.output[rng.randrange(len(g.output))]
        elif kind == 8:
            if model.opset_import:
                model.opset_import[0].version = rng.choice([1, 6, 11, 13, 17, 21, 99])
    return model.SerializeToString()


def case(seed: int, directory: Path) -> tuple[dict, Path]:
    rng = random.Random(seed)
    data = mutate(rng.choice(seeds()), rng)
    model_dir = directory / f"onnx-{seed}"
    model_dir.mkdir(parents=True, exist_ok=True)
    path = model_dir / "model.onnx"
    path.write_bytes(data)
    return {"kind": "tool", "argv": ["strati-import", str(path), "-o", "/dev/null"]}, path
