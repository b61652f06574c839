"""The memory plan as a picture: an SVG with one rectangle per temporary buffer.

The x axis is the function's top-level op positions (a buffer lives from the op
that computes it to its last use), the y axis the byte offsets in the arena; a
buffer computed in place over another shares its colour.  Rectangles that
overlap in both axes would be a planning bug, so the picture is also a check a
person can do at a glance.  Input is one function's entry of
:func:`strati.transforms.plan_memory.memory_plan`.
"""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, HEIGHT, MARGIN = 960, 480, 56
PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f")


def plan_to_svg(name: str, plan: dict[str, Any]) -> str:
    """An SVG document for the plan of function ``name`` (``memory_plan(module)[name]``)."""
    placed = [p for p in plan["placements"] if p["offset"] is not None]
    steps = max([p["end"] + 1 for p in placed], default=1)
    arena = max(plan["arena_bytes"], max([p["offset"] + p["bytes"] for p in placed], default=0), 1)
    sx, sy = (WIDTH - 2 * MARGIN) / steps, (HEIGHT - 2 * MARGIN) / arena
    title = (f"plan-memory @{name}: {plan['buffers']} buffers, {plan['in_place']} in place, "
             f"arena {plan['arena_bytes']} bytes (peak with one buffer each {plan['peak_bytes']})")  # fmt: skip
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="Helvetica" font-size="10">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{MARGIN}" y="{MARGIN / 2:.0f}" font-size="12">{escape(title)}</text>',
        f'<line x1="{MARGIN}" y1="{HEIGHT - MARGIN}" x2="{WIDTH - MARGIN}" y2="{HEIGHT - MARGIN}" stroke="black"/>',
        f'<line x1="{MARGIN}" y1="{MARGIN}" x2="{MARGIN}" y2="{HEIGHT - MARGIN}" stroke="black"/>',
        f'<text x="{WIDTH / 2:.0f}" y="{HEIGHT - MARGIN / 3:.0f}" text-anchor="middle">op position (0 to {steps - 1})</text>',
        f'<text x="{MARGIN - 4}" y="{MARGIN}" text-anchor="end">{arena}</text>',
        f'<text x="{MARGIN - 4}" y="{HEIGHT - MARGIN}" text-anchor="end">0 B</text>',
    ]
    for index, p in enumerate(plan["placements"]):
        if p["offset"] is None:
            continue
        root = index
        while plan["placements"][root]["in_place_of"] is not None:  # an in-place chain shares one colour
            root = plan["placements"][root]["in_place_of"]
        x, w = MARGIN + p["start"] * sx, max((p["end"] - p["start"] + 1) * sx, 1.0)
        h = max(p["bytes"] * sy, 1.0)
        y = HEIGHT - MARGIN - p["offset"] * sy - h
        tip = f"{p['name'] or 'buffer'} {p['type']}: {p['bytes']} B at offset {p['offset']}, ops {p['start']}..{p['end']}"
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{PALETTE[root % len(PALETTE)]}" '
            f'fill-opacity="0.75" stroke="black" stroke-width="0.5"><title>{escape(tip)}</title></rect>'
        )
        if p["name"] and w > 40 and h > 12:
            out.append(f'<text x="{x + 3:.1f}" y="{y + 11:.1f}">{escape(p["name"])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["plan_to_svg"]
