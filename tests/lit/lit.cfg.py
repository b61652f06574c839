"""lit configuration: every .mlir file under tests/lit is a test run through the shell."""

import os
import sys

import lit.formats

config.name = "strati"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".rules"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# The tools come from the environment strati is installed in.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%examples", os.path.join(config.test_source_root, "..", "..", "examples")))
