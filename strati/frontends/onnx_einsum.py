"""ONNX Einsum as a composition of graph ops, decided at import from the equation and the shapes.

Operands are contracted left to right, two at a time: letters that no later operand and
not the output need are summed first (``graph.reduce_sum``), then the pair becomes one
batched ``graph.matmul``: each operand transposed to (shared kept letters, own letters,
contracted letters), reshaped to (batch..., M, K) and (batch..., K, N), and the product
reshaped back to its letters.  An outer product is the case K = 1.  The output is a final
reduction and transpose.  ``...`` stands for the dimensions it covers (right-aligned when
operands cover different numbers; size-1 dimensions broadcast).  A letter repeated within
one operand (a diagonal, as in ``ii->i``) is refused by the check.
"""

from __future__ import annotations

import math
import string

from strati.frontends.onnx import Node, NodeError, NodeInfo, op


def _terms(equation: str) -> tuple[list[str], str | None]:
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    return lhs.split(","), (rhs if arrow else None)


def _check_einsum(info: NodeInfo) -> list[str]:
    inputs, _ = _terms(info.a("equation", ""))
    for term in inputs:
        letters = term.replace("...", "")
        if len(set(letters)) != len(letters):
            return [f"equation '{info.a('equation')}' (a letter repeated within an operand)"]
    return []


def _expand(n: Node, terms: list[str], output: str | None) -> tuple[list[list[str]], list[str]]:
    """Each operand's letters and the output's, with ``...`` replaced by fresh letters."""
    used = set("".join(terms) + (output or ""))
    fresh = [c for c in string.ascii_letters if c not in used]
    widths = []
    for i, term in enumerate(terms):
        explicit = len(term.replace("...", ""))
        widths.append(n.rank(i) - explicit if "..." in term else 0)
    ellipsis = fresh[: max(widths, default=0)]
    operands = []
    for term, width in zip(terms, widths):
        head, dots, tail = term.partition("...")
        operands.append(list(head) + (ellipsis[len(ellipsis) - width :] if dots else []) + list(tail))
    if output is None:  # implicit: the ellipsis, then the letters used once, alphabetically
        counts = {c: sum(term.count(c) for term in terms) for c in used if c.isalpha()}
        out = ellipsis + sorted(c for c, k in counts.items() if k == 1)
    else:
        head, dots, tail = output.partition("...")
        out = list(head) + (ellipsis if dots else []) + list(tail)
    return operands, out


@op("Einsum", check=_check_einsum)
def _einsum(n: Node):
    terms, output = _terms(n.a("equation"))
    if len(terms) != n.n_inputs:
        raise NodeError(f"equation '{n.a('equation')}' has {len(terms)} operands for {n.n_inputs} inputs")
    letters, out = _expand(n, terms, output)
    sizes: dict[str, int] = {}
    for i, ls in enumerate(letters):
        shape = n.static_shape(i)
        if len(ls) != len(shape):
            raise NodeError(f"operand {i} has rank {len(shape)} but its term names {len(ls)} dimensions")
        for c, d in zip(ls, shape):
            if sizes.get(c, 1) not in (1, d) and d != 1:
                raise NodeError(f"letter '{c}' has sizes {sizes[c]} and {d}")
            sizes[c] = max(sizes.get(c, 1), d)
    b = n.b
    values = list(zip((n.x(i) for i in range(n.n_inputs)), letters))

    def reduce(x, ls: list[str], keep: set[str]):
        axes = [k for k, c in enumerate(ls) if c not in keep]
        if not axes:
            return x, ls
        y = b.op("graph.reduce_sum", [x], {"axes": tuple(axes), "keepdims": False})
        return y, [c for c in ls if c in keep]

    def arranged(x, ls: list[str], order: list[str]):
        """x with its letters in ``order``, size-1 dimensions broadcast to the letters' sizes."""
        x = b.transpose(x, [ls.index(c) for c in order])
        return b.broadcast_to(x, [sizes[c] for c in order])

    x, xl = values[0]
    for k, (y, yl) in enumerate(values[1:], start=1):
        later = set(out).union(*(set(ls) for _, ls in values[k + 1 :]))
        x, xl = reduce(x, xl, later | set(yl))
        y, yl = reduce(y, yl, later | set(xl))
        batch = [c for c in xl if c in yl and c in later]
        contract = [c for c in xl if c in yl and c not in later]
        left = [c for c in xl if c not in yl]
        right = [c for c in yl if c not in xl]
        m, kk, nn = (math.prod(sizes[c] for c in group) for group in (left, contract, right))
        bs = [sizes[c] for c in batch]
        a = b.reshape(arranged(x, xl, batch + left + contract), bs + [m, kk])
        c_ = b.reshape(arranged(y, yl, batch + contract + right), bs + [kk, nn])
        product = b.op("graph.matmul", [a, c_])
        x, xl = b.reshape(product, bs + [sizes[c] for c in left + right]), batch + left + right
    x, xl = reduce(x, xl, set(out))
    return arranged(x, xl, out) if xl != out else x

