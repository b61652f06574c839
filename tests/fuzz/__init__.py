"""strati's fuzzers (issue 12): random graph programs (native code against the interpreter at
every -O level), mutated .mlir files (from tests/lit) and mutated ONNX models (strati-import).

Every case runs in a worker process (:mod:`tests.fuzz.worker`) with a time limit and a memory
limit, so a signal, a hang or a memory blow-up is caught and saved as a reproducer file.
``python -m tests.fuzz --minutes 30 --out DIR`` runs a campaign (docs/tools.md); the default
test suite runs a short seeded slice (tests/unit/test_fuzz.py).
"""
