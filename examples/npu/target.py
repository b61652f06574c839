"""The ``npu`` target: a VTA-like accelerator described by ``#hw.target<"npu", ...>``."""

from strati.dialects.hw.target import Field, Target, at_least, power_of_two, size_in_bytes

ELEMENT_BYTES = {"int8": (1, 1, 4), "f32": (4, 4, 4)}
"""Bytes of an input, a weight and an accumulator element in each ``dtype`` mode."""


def tile_shape(v):
    return None if len(v) == 3 and min(v) >= 1 else "must be three sizes >= 1 (m, k, n)"


class NpuTarget(Target):
    name = "npu"
    doc = "a VTA-like NPU: DMA, a GEMM core on tiles, an ALU on the accumulator (examples/npu)"
    fields = (
        Field("inp_bytes", int, "input scratchpad bytes", default=32 * 1024, check=size_in_bytes),
        Field("wgt_bytes", int, "weight scratchpad bytes", default=256 * 1024, check=size_in_bytes),
        Field("acc_bytes", int, "accumulator scratchpad bytes", default=128 * 1024, check=size_in_bytes),
        Field("tile", tuple, "GEMM tile m, k, n", default=(16, 16, 16), check=tile_shape),
        Field("dtype", str, "int8 (int32 accumulation) or f32", default="int8",
              check=lambda v: None if v in ELEMENT_BYTES else "must be \"int8\" or \"f32\""),
        Field("dma_align", int, "DMA burst bytes (each row is rounded up to it)", default=64, check=power_of_two),
        Field("dma_bytes_per_cycle", int, "DRAM bandwidth", default=8, check=at_least(1)),
        Field("dma_latency", int, "cycles before a DMA's first byte", default=32, check=at_least(0)),
    )
    memory_spaces = {"inp": "inp_bytes", "wgt": "wgt_bytes", "acc": "acc_bytes"}

    def dialects(self):
        from .ops import Npu

        return [Npu]

    def check(self, values):
        (m, k, n), sizes = values["tile"], ELEMENT_BYTES.get(values["dtype"], (4, 4, 4))
        for space, shape, size in (("inp", (m, k), sizes[0]), ("wgt", (k, n), sizes[1]), ("acc", (m, n), sizes[2])):
            need = shape[0] * shape[1] * size
            if need > values[f"{space}_bytes"]:
                return (f"a {shape[0]}x{shape[1]} {values['dtype']} tile needs {need} bytes, "
                        f"more than {space}_bytes {values[f'{space}_bytes']}: the tile cannot fit the scratchpads")
        return None

    def runtime_symbols(self):
        from .simulator import SYMBOLS

        return SYMBOLS

    def after_call(self):
        from .simulator import SIMULATOR

        SIMULATOR.raise_error()

    def profile(self):
        from .simulator import SIMULATOR

        return SIMULATOR.report()
