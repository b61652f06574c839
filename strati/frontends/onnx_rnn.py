"""ONNX RNN, GRU and LSTM: unrolled over their time steps at import, or a ``graph.loop``.

The sequence length must be static.  Up to ``MAX_STEPS`` steps are unrolled: each step
becomes a few graph ops (a matmul with the recurrent weights, the gates' slices,
activations and elementwise updates), which the whole pipeline fuses across steps, plans
and compiles as straight-line code, with no per-step call or copy of the states.  A longer
sequence is one ``graph.loop`` whose body is one step (the states carried, the hidden state
the scan output), so the module stays small whatever the length.

The input projections of all steps are one matmul (``X @ W^T + Wb``) before the loop;
each step adds ``H @ R^T + Rb``.  Directions forward, reverse and bidirectional; layout 0
and 1; initial states; LSTM peepholes; GRU's ``linear_before_reset``; ``clip``; the
activations Sigmoid, Tanh and Relu (others are refused by the check).  ``sequence_lens``
is accepted when it is absent or a constant equal to the sequence length for every batch
entry.
"""

from __future__ import annotations

import numpy as np

from strati.dialects.shapes import shape_of
from strati.frontends.onnx import Node, NodeError, NodeInfo, op

MAX_STEPS = 256
"""The longest sequence unrolled at import; a longer one is a graph.loop."""

ACTIVATIONS = {"sigmoid": "sigmoid", "tanh": "tanh", "relu": "relu"}
DEFAULTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _check_rnn(info: NodeInfo) -> list[str]:
    out = []
    kind = info.node.op_type
    direction = info.a("direction", "forward")
    if direction not in ("forward", "reverse", "bidirectional"):
        out.append(f"direction={direction}")
    names = info.a("activations")
    for name in names or []:
        if name.lower() not in ACTIVATIONS:
            out.append(f"activation {name}")
    if info.a("activation_alpha") or info.a("activation_beta"):
        out.append("activation_alpha/activation_beta")
    if kind == "LSTM" and info.a("input_forget", 0):
        out.append("input_forget=1")
    return out


def _activations(n: Node, directions: int) -> list[list[str]]:
    """The activation names of each direction (ONNX lists forward's then reverse's)."""
    names = [a.lower() for a in (n.a("activations") or [])]
    per = len(DEFAULTS[n.op_type])
    if not names:
        names = [a.lower() for a in DEFAULTS[n.op_type]] * directions
    elif len(names) == per:
        names = names * directions
    if len(names) != per * directions:
        raise NodeError(f"{len(names)} activations for {directions} direction(s) of {per}")
    return [names[d * per : (d + 1) * per] for d in range(directions)]


class _Step:
    """Builds one direction's ops: the graph ops of the gates and the state updates."""

    def __init__(self, n: Node, hidden: int, activations: list[str], clip: float | None):
        self.n, self.b, self.h = n, n.b, hidden
        self.activations = activations
        self.clip = clip

    def part(self, x, k: int, count: int = 1):
        """Columns [k * H, (k + count) * H) of a (batch, g * H) tensor."""
        return self.b.op("graph.slice", [x], {"starts": (k * self.h,), "ends": ((k + count) * self.h,), "axes": (1,)})

    def act(self, which: int, x, clipped: bool = True):
        """Activation ``which`` of the direction; ``clip`` bounds gate inputs, not the cell state."""
        if clipped and self.clip is not None:
            x = self.b.op("graph.clip", [x], {"min": -self.clip, "max": self.clip})
        return self.b.unary(ACTIVATIONS[self.activations[which]], x)

    def add(self, *xs):
        y = xs[0]
        for x in xs[1:]:
            y = self.b.binary("add", y, x)
        return y


def _loop_over_steps(b, xw, h, c, cell, seq: int, reverse: bool):
    """The steps as one graph.loop: the carried states, the step's input projection gathered
    from ``xw`` at ``t`` (``seq - 1 - i`` in reverse), the hidden states as the scan output."""
    from strati.frontends.onnx_control import _build_loop

    carried = [h] if c is None else [h, c]

    def build(i, go, args):
        t = b.op("graph.sub", [b.constant(np.array(seq - 1, np.int64)), i]) if reverse else i
        h2, c2 = cell(b.op("graph.gather", [xw, t], {"axis": 0}), args[0], args[1] if c is not None else None)
        return go, [h2] if c is None else [h2, c2], [h2]

    results = _build_loop(b, b.constant(np.array(seq, np.int64)), b.constant(np.array(True)), carried, seq, build)
    y = results[-1]
    if reverse:
        y = b.op("graph.slice", [y], {"starts": (-1,), "ends": (-(seq + 1),), "axes": (0,), "steps": (-1,)})
    return results[0], (results[1] if c is not None else None), y


@op("RNN", "GRU", "LSTM", check=_check_rnn, static=(4,))
def _rnn(n: Node):
    kind = n.op_type
    b = n.b
    x = n.x(0)
    layout = n.a("layout", 0)
    if layout:
        x = b.transpose(x, [1, 0, 2])  # (seq, batch, input)
    seq, batch, _ = shape_of(x.type)
    if seq is None or batch is None:
        raise NodeError(f"needs a static sequence length and batch size, got {list(shape_of(x.type))}")
    if n.has(4):
        lens = n.const(4)
        if lens is None or not np.all(lens == seq):
            raise NodeError("sequence_lens other than the full sequence length are not supported")
    direction = n.a("direction", "forward")
    dirs = 2 if direction == "bidirectional" else 1
    hidden = int(n.a("hidden_size") or n.static_shape(2)[-1])
    g = GATES[kind]
    dtype = n.dtype(0)
    clip = n.a("clip")
    activations = _activations(n, dirs)

    def per_direction(i: int, d: int):
        """Input i's slice for direction d, without the direction axis (None when absent)."""
        if not n.has(i):
            return None
        v = n.x(i)
        if layout and i in (5, 6):  # initial states are (batch, directions, H) in layout 1
            v = b.transpose(v, [1, 0, 2])
        return b.reshape(b.op("graph.slice", [v], {"starts": (d,), "ends": (d + 1,), "axes": (0,)}), shape_of(v.type)[1:])

    ys, hs, cs = [], [], []
    for d in range(dirs):
        reverse = direction == "reverse" or d == 1
        w, r = per_direction(1, d), per_direction(2, d)  # (g*H, I), (g*H, H)
        bias = per_direction(3, d)  # (2*g*H,) or None
        h = per_direction(5, d)  # (batch, H)
        c = per_direction(6, d) if kind == "LSTM" else None
        peep = per_direction(7, d) if kind == "LSTM" else None  # (3*H,): i, o, f
        zeros = b.constant(np.zeros((batch, hidden), dtype))
        h = zeros if h is None else h
        if kind == "LSTM":
            c = zeros if c is None else c
        step = _Step(n, hidden, activations[d], clip)
        # The input projections of every step at once: (seq * batch, I) @ W^T + Wb.
        xw = b.op("graph.matmul", [b.reshape(x, [seq * batch, shape_of(x.type)[2]]), b.transpose(w, [1, 0])])
        wb = rb = None
        if bias is not None:
            wb = b.op("graph.slice", [bias], {"starts": (0,), "ends": (g * hidden,)})
            rb = b.op("graph.slice", [bias], {"starts": (g * hidden,), "ends": (2 * g * hidden,)})
            xw = b.binary("add", xw, wb)
        xw = b.reshape(xw, [seq, batch, g * hidden])
        rt = b.transpose(r, [1, 0])
        if peep is not None:
            p_i, p_o, p_f = (b.op("graph.slice", [peep], {"starts": (k * hidden,), "ends": ((k + 1) * hidden,)}) for k in range(3))
        def cell(xt, h, c):
            """One step: the next hidden (and cell) state from the step's input projection."""
            if kind == "GRU":
                z_r = step.add(step.part(xt, 0, 2), b.op("graph.matmul", [h, b.op("graph.slice", [rt], {"starts": (0,), "ends": (2 * hidden,), "axes": (1,)})]))
                if rb is not None:
                    z_r = b.binary("add", z_r, b.op("graph.slice", [rb], {"starts": (0,), "ends": (2 * hidden,)}))
                z, rg = step.act(0, step.part(z_r, 0)), step.act(0, step.part(z_r, 1))
                rh_t = b.op("graph.slice", [rt], {"starts": (2 * hidden,), "ends": (3 * hidden,), "axes": (1,)})
                rbh = None if rb is None else b.op("graph.slice", [rb], {"starts": (2 * hidden,), "ends": (3 * hidden,)})
                if n.a("linear_before_reset", 0):
                    hr = b.op("graph.matmul", [h, rh_t])
                    hr = hr if rbh is None else b.binary("add", hr, rbh)
                    pre = b.binary("add", step.part(xt, 2), b.binary("mul", rg, hr))
                else:
                    pre = b.binary("add", step.part(xt, 2), b.op("graph.matmul", [b.binary("mul", rg, h), rh_t]))
                    pre = pre if rbh is None else b.binary("add", pre, rbh)
                cand = step.act(1, pre)
                one = b.scalar(1, dtype)
                h = b.binary("add", b.binary("mul", b.binary("sub", one, z), cand), b.binary("mul", z, h))
            else:
                gates = b.binary("add", xt, b.op("graph.matmul", [h, rt]))
                if rb is not None:
                    gates = b.binary("add", gates, rb)
                if kind == "RNN":
                    h = step.act(0, gates)
                else:  # LSTM, gates i, o, f, c
                    gi, go, gf, gc = (step.part(gates, k) for k in range(4))
                    if peep is not None:
                        gi = b.binary("add", gi, b.binary("mul", p_i, c))
                        gf = b.binary("add", gf, b.binary("mul", p_f, c))
                    i_, f_ = step.act(0, gi), step.act(0, gf)
                    c = b.binary("add", b.binary("mul", f_, c), b.binary("mul", i_, step.act(1, gc)))
                    if peep is not None:
                        go = b.binary("add", go, b.binary("mul", p_o, c))
                    h = b.binary("mul", step.act(0, go), step.act(2, c, clipped=False))
            return h, c

        if seq <= MAX_STEPS:
            outputs = [None] * seq
            for t in reversed(range(seq)) if reverse else range(seq):
                xt = b.reshape(b.op("graph.slice", [xw], {"starts": (t,), "ends": (t + 1,), "axes": (0,)}), [batch, g * hidden])
                h, c = cell(xt, h, c)
                outputs[t] = b.reshape(h, [1, 1, batch, hidden])
            ys.append(b.op("graph.concat", outputs, {"axis": 0}) if seq > 1 else outputs[0])
        else:
            h, c, y = _loop_over_steps(b, xw, h, c, cell, seq, reverse)
            ys.append(b.reshape(y, [seq, 1, batch, hidden]))
        hs.append(b.reshape(h, [1, batch, hidden]))
        if kind == "LSTM":
            cs.append(b.reshape(c, [1, batch, hidden]))

    def joined(parts, axis):
        return parts[0] if len(parts) == 1 else b.op("graph.concat", parts, {"axis": axis})

    y, y_h = joined(ys, 1), joined(hs, 0)  # (seq, dirs, batch, H), (dirs, batch, H)
    y_c = joined(cs, 0) if kind == "LSTM" else None
    if layout:
        y = b.transpose(y, [2, 0, 1, 3])  # (batch, seq, dirs, H)
        y_h = b.transpose(y_h, [1, 0, 2])
        y_c = None if y_c is None else b.transpose(y_c, [1, 0, 2])
    return [y, y_h] + ([y_c] if kind == "LSTM" else [])
