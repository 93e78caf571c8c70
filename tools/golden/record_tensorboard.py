"""Record what real PyTorch 2.13's torch.utils.tensorboard writes, as TensorBoard reads
it back (packages/utils-data/tests/tensorboard_cases.py); run under real PyTorch with the
``tensorboard`` package importable, e.g.

    uv pip install --python ~/.cache/ptdiff/ref/bin/python --target /tmp/tbref tensorboard==2.21.0
    PYTHONPATH=/tmp/tbref ~/.cache/ptdiff/ref/bin/python tools/golden/record_tensorboard.py

Writes packages/utils-data/tests/golden/tensorboard.json.
"""

from __future__ import annotations

import json
import pathlib
import sys
import tempfile

import tensorboard

import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "packages" / "utils-data" / "tests"
sys.path.insert(0, str(TESTS))

import tensorboard_cases  # noqa: E402


def main() -> None:
    print("recording under torch", torch.__version__, "tensorboard", tensorboard.__version__)
    with tempfile.TemporaryDirectory() as tmp:
        runs = tensorboard_cases.describe(torch, pathlib.Path(tmp))
    data = {
        "tensorboard_version": tensorboard.__version__,
        "runs": runs,
        "without_tensorboard": tensorboard_cases.import_without_tensorboard(sys.executable),
    }
    path = TESTS / "golden" / "tensorboard.json"
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print("wrote", path.relative_to(ROOT))


if __name__ == "__main__":
    main()
