"""Split a module's LLVM IR into parts that LLVM optimises and compiles apart.

Used by the JIT to compile a large module on two cores (:mod:`strati.runtime.llvm_worker`).
The parts are cut along *roots*: the public functions and the ``noinline`` internal ones that
bring much IR (the kernels of ``outline-kernels`` with their parallel tasks, the parts of
``split-functions``), which go to the part with the least IR so far, largest first.
Everything else a root uses is copied into its part: internal functions (its parallel tasks and their bodies, the scalar libm functions),
constant internal globals (embedded weights, tables), every declaration and all the metadata,
so that LLVM optimises a root as it would in the whole module.  A root defined in another part
is declared and loses ``internal`` where it is defined (its name is unique in the executable,
and executables link apart); a global that is written, or is not internal, is defined in the
first part and declared in the others.

This works on the IR's text as llvmlite prints it: one entity per top-level line (a global, a
declaration, a metadata node) or per ``define ... { ... }``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import llvmlite.ir as ir

ROOT_SIZE = 2000
"""Characters of IR (its own and its tasks') from which a ``noinline`` internal function is a
root, not copied where used."""

_NAME = r'@("(?:[^"\\]|\\.)*"|[-\w.$]+)'
_REFERENCE = re.compile(_NAME)
_DEFINED_NAME = re.compile(_NAME + r"\(")
_GLOBAL = re.compile(r"^" + _NAME + r" = ")


@dataclass
class Entity:
    name: str
    text: str
    kind: str  # "define", "declare" or "global"
    references: set[str] = field(default_factory=set)

    @property
    def internal(self) -> bool:
        if self.kind == "define":
            return self.text.startswith(("define internal ", "define private "))
        return self.kind == "global" and re.match(r"^\S+ = (internal|private) ", self.text) is not None

    @property
    def noinline(self) -> bool:
        return self.kind == "define" and " noinline" in self.text.split("\n", 1)[0]

    @property
    def constant(self) -> bool:
        return re.match(r"^\S+ = (\w+ )*constant ", self.text) is not None


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def parse_entities(text: str) -> tuple[list[str], list[Entity], list[str]]:
    """The header lines, the top-level entities and the metadata lines of a module's text."""
    header: list[str] = []
    entities: list[Entity] = []
    metadata: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("define "):
            j = lines.index("}", i)
            entities.append(Entity(_unquote(_DEFINED_NAME.search(line).group(1)), "\n".join(lines[i : j + 1]), "define"))
            i = j + 1
            continue
        if line.startswith("declare "):
            entities.append(Entity(_unquote(_DEFINED_NAME.search(line).group(1)), line, "declare"))
        elif line.startswith("@"):
            entities.append(Entity(_unquote(_GLOBAL.match(line).group(1)), line, "global"))
        elif line.startswith("!"):
            metadata.append(line)
        elif line.strip() and not line.startswith(";"):
            header.append(line)
        i += 1
    for e in entities:
        e.references = {_unquote(n) for n in _REFERENCE.findall(e.text)} - {e.name}
    return header, entities, metadata


def _declarations(module: ir.Module) -> dict[str, str]:
    """Each function's and global's declaration, for the parts that do not define it."""
    scratch = ir.Module()
    out = {}
    for name, g in module.globals.items():
        if isinstance(g, ir.Function):
            out[name] = str(ir.Function(scratch, g.function_type, name)).strip()
        elif isinstance(g, ir.GlobalVariable):
            out[name] = f'@"{name}" = external {"constant" if g.global_constant else "global"} {g.value_type}'
    return out


def _external(e: Entity) -> str:
    """A definition other parts link to: no longer internal."""
    if e.kind == "define":
        return re.sub(r"^define (internal|private) ", "define ", e.text)
    return re.sub(r" = (internal|private) ", " = ", e.text, count=1)


def _closure_size(root: Entity, by_name: dict[str, Entity], stops: set[str]) -> int:
    """The IR a root brings into its part: itself and what it reaches short of other roots and
    shared globals (its tasks, their bodies, its constants)."""
    seen, todo, size = {root.name}, list(root.references), len(root.text)
    while todo:
        name = todo.pop()
        if name in seen or name in stops or name not in by_name:
            continue
        seen.add(name)
        size += len(by_name[name].text)
        todo.extend(by_name[name].references)
    return size


def split_module(module: ir.Module, parts: int, text: str | None = None) -> list[str]:
    """``module``'s text (``text``, when printed already) as at most ``parts`` modules that
    together define what it defines (its text alone when it has fewer than two roots)."""
    text = str(module) if text is None else text
    header, entities, metadata = parse_entities(text)
    by_name = {e.name: e for e in entities}
    shared = {e.name for e in entities if e.kind == "global" and e.name != "llvm.compiler.used"
              and not (e.internal and e.constant)}
    # Roots: the public functions, and the noinline ones that bring ROOT_SIZE of IR or more
    # (their tasks and bodies counted; not the scalar libm functions, copied where used).
    candidates = {e.name for e in entities if e.kind == "define" and (not e.internal or e.noinline)}
    weight = {n: _closure_size(by_name[n], by_name, candidates | shared) for n in candidates}
    roots = [by_name[n] for n in candidates if not by_name[n].internal or weight[n] >= ROOT_SIZE]
    if len(roots) < 2 or parts < 2:
        return [text]
    declarations = _declarations(module)
    sizes = [0] * min(parts, len(roots))
    owner: dict[str, int] = {}
    for root in sorted(roots, key=lambda r: -weight[r.name]):  # the largest first, to the smallest part
        k = sizes.index(min(sizes))
        owner[root.name] = k
        sizes[k] += weight[root.name]
    used = by_name.get("llvm.compiler.used")
    kept = [] if used is None else [_unquote(n) for n in _REFERENCE.findall(used.text.split(" = ", 1)[1])]
    out = []
    for k in range(len(sizes)):
        members: dict[str, str] = {}
        todo = [r.name for r in roots if owner[r.name] == k] + (sorted(shared) if k == 0 else [])
        while todo:
            name = todo.pop()
            if name in members or name not in by_name:
                continue
            e = by_name[name]
            if owner.get(name, k) != k or (name in shared and k != 0):
                members[name] = declarations[name]
                continue
            members[name] = _external(e) if name in owner or name in shared else e.text
            todo.extend(e.references)
        for e in entities:  # every declaration (a vector variant is named only inside an attribute)
            if e.kind == "declare":
                members.setdefault(e.name, e.text)
        body = [members[e.name] for e in entities if e.name in members]
        here = [n for n in kept if n in members]
        if here:
            refs = ", ".join(f'ptr @"{n}"' for n in here)
            body.append(f'@"llvm.compiler.used" = appending global [{len(here)} x ptr] [{refs}], section "llvm.metadata"')
        out.append("\n".join([*header, "", *body, "", *metadata, ""]))
    return out


__all__ = ["ROOT_SIZE", "Entity", "parse_entities", "split_module"]
