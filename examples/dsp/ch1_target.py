"""Chapter 1: the target.  A vector DSP with a fixed vector length: the compiler knows it
only through its description, ``#hw.target<"dsp", lanes = 8>``."""

from strati.dialects.hw.target import Field, Target, power_of_two, register_target


class DspTarget(Target):
    name = "dsp"
    doc = "a vector DSP: fixed-length f32 vectors, a multiply-accumulate (docs/hardware-dialect.md)"
    fields = (Field("lanes", int, "the vector length in f32 lanes", default=8, check=power_of_two),)


register_target(DspTarget())

if __name__ == "__main__":
    from strati.context import make_context
    from strati.source import parse_module

    module = parse_module(make_context(), 'builtin.module attributes {hw.target = #hw.target<"dsp", lanes = 4>} {}', "ch1")
    print(module.attributes["hw.target"])
