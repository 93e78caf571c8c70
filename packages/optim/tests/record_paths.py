"""Record golden/paths.json: every case of cases_optim's PATHS tables through each
implementation (native kernels, tensor-op reference), in float32 and float64, as
digests of the parameters after each step and of the final state.

Run from the repository root, once per core build: ``python
packages/optim/tests/record_paths.py`` (native core) and ``TORCH_NATIVE=0 python
packages/optim/tests/record_paths.py`` (pure core: recorded under ``pure_core``), and
with ``TORCH_OPTIM_VML=0`` (or without the ``mkl`` wheel) for the native kernels'
correctly rounded square roots (``native_exact_sqrt``).
Re-record only for an intended change of the arithmetic.
"""

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from optim_testing import (  # noqa: E402
    GOLDEN,
    IMPLEMENTATIONS,
    implementation,
    path_digests,
    path_labels,
    record_key,
)

from torch._interface import optim as native_optim  # noqa: E402


def main() -> None:
    path = GOLDEN / "paths.json"
    record = json.loads(path.read_text()) if path.exists() else {}
    native_core = native_optim.available()
    modes = IMPLEMENTATIONS if native_core else ("pure_core",)
    for mode in modes:
        with implementation("reference" if mode == "pure_core" else mode):
            for label in path_labels():
                for dtype in ("float32", "float64"):
                    record[record_key(label, dtype, mode)] = path_digests(label, dtype)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
