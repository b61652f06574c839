"""apply-rules: rewrite with the rules of a ``.rules`` file, with a bound on the iterations.

The file's rules run greedily together with what ``canonicalize`` applies (each op's
registered ``canonicalize`` patterns, the folders, dead-code removal), one sweep over
the IR at a time.  xDSL's own driver repeats until nothing changes, which never ends
for a rule set that undoes itself; here a sweep that still changes the IR after
``max_iterations`` is an error naming the rules that fired in it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.dead_code_elimination import region_dce

from strati.diagnostics import StratiError
from strati.parser import RuleSet, load_rules
from strati.parser.compile import FIRED, VERIFY_EACH


class ByRootOp(RewritePattern):
    """A rule set's rules, looked up by the matched op's name (one compiled group per op)."""

    def __init__(self, rules: RuleSet):
        self.table: dict[str, tuple[RewritePattern, ...]] = {name: rules.patterns_for(name) for name in rules.roots()}

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for rule in self.table.get(op.name, ()):
            rule.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


class Canonicalization(CanonicalizationRewritePattern):
    """The op's canonicalize patterns, remembered by op name when one of them acts."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        fired = FIRED.get()
        before = sum(fired.values()) if fired is not None else 0
        super().match_and_rewrite(op, rewriter)
        if rewriter.has_done_action and fired is not None and sum(fired.values()) == before:
            fired[f"{op.name} canonicalize pattern"] += 1


def apply_bounded(module: ModuleOp, ctx: Context, rules: RuleSet | None, max_iterations: int,
                  verify_each: bool = False) -> None:
    patterns: list[RewritePattern] = [Canonicalization()]
    if rules is not None:
        patterns.insert(0, ByRootOp(rules))
    applier = GreedyRewritePatternApplier(patterns, ctx=ctx, folding_enabled=True)
    walker = PatternRewriteWalker(applier, apply_recursively=False, post_walk_func=region_dce)
    fired: Counter = Counter()
    fired_token, verify_token = FIRED.set(fired), VERIFY_EACH.set(verify_each or VERIFY_EACH.get())
    try:
        for _ in range(max_iterations):
            fired.clear()
            if not walker.rewrite_module(module):
                return
    finally:
        FIRED.reset(fired_token)
        VERIFY_EACH.reset(verify_token)
    names = ", ".join(f"'{name}'" for name in sorted(fired)) or "none of the rules (only folding or dead code)"
    raise StratiError(f"the rewrites did not converge after {max_iterations} iterations; still applying: {names}")


@dataclass(frozen=True)
class ApplyRulesPass(ModulePass):
    """Rewrites with a .rules file's rules and the canonicalize patterns, greedily, at most max_iterations sweeps."""

    name = "apply-rules"

    file: str = ""
    max_iterations: int = 32
    verify_each: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_bounded(op, ctx, load_rules(self.file) if self.file else None, self.max_iterations, self.verify_each)
