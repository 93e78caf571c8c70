"""torch.utils.tensorboard logging runs made both here and under real PyTorch
(tools/golden/record_tensorboard.py), read back with tensorboard's EventAccumulator and
summarised as JSON: what a TensorBoard user would see must be the same."""

from __future__ import annotations

import hashlib
import io
import os
import pathlib

MODEL_SEED = 0


def log_run(torch, folder: pathlib.Path, with_graph: bool = True) -> None:
    """Every kind of data this project's SummaryWriter writes, in one run (the graph
    only ``with_graph``: it needs torch.jit and torch.nn)."""
    from torch.utils.tensorboard import SummaryWriter

    values = torch.linspace(-3.0, 5.0, 101) ** 3 / 10
    gradient = torch.arange(48, dtype=torch.float32).reshape(3, 4, 4) / 47
    with SummaryWriter(str(folder), filename_suffix=".case") as w:
        for step in range(3):
            w.add_scalar("loss/train", 1.0 / (step + 1), step, walltime=100.0 + step)
            w.add_scalar("acc", torch.tensor(0.25 * step), step, walltime=100.0)
            w.add_scalar("new_style", 2.5 * step, step, walltime=100.0, new_style=True)
        w.add_scalar("double", 1 / 3, 0, walltime=1.0, new_style=True, double_precision=True)
        w.add_scalars("run", {"a": 1.0, "b/c": 2.0}, 4, walltime=5.0)
        w.add_scalars("run", {"a": 3.0}, 5, walltime=6.0)
        w.add_histogram("hist/default", values, 0, walltime=1.0)
        w.add_histogram("hist/auto", values, 1, bins="auto", walltime=1.0)
        w.add_histogram("hist/ten", values.numpy(), 2, bins=10, walltime=1.0)
        w.add_histogram("hist/merged", values, 3, bins=50, max_bins=7, walltime=1.0)
        w.add_histogram("hist/ints", torch.tensor([1, 1, 2, 3, 5, 8]), 0, walltime=1.0)
        w.add_histogram_raw("hist/raw", 0.0, 4.0, 5, 10.0, 30.0, [1.0, 2.0, 4.0], [1, 2, 2], 0)
        w.add_image("img/chw", gradient, 0, walltime=1.0)
        w.add_image("img/hwc", gradient.permute(1, 2, 0), 0, walltime=1.0, dataformats="HWC")
        w.add_image("img/hw", gradient[0], 0, walltime=1.0, dataformats="HW")
        w.add_image("img/uint8", (gradient * 255).to(torch.uint8), 0, walltime=1.0)
        w.add_image("img/grey", gradient[:1], 0, walltime=1.0)
        w.add_images("img/batch", torch.stack([gradient] * 10), 0, walltime=1.0)
        w.add_images("img/nhwc", gradient.permute(1, 2, 0)[None], 0, dataformats="NHWC")
        w.add_text("note", "**bold** text", 0, walltime=1.0)
        w.add_text("note", "second", 1, walltime=2.0)
        w.add_tensor("tensor/f32", torch.arange(6.0).reshape(2, 3), 0, walltime=1.0)
        w.add_tensor("tensor/i64", torch.tensor([1, -2]), 0, walltime=1.0)
        w.add_audio("audio", torch.linspace(-1.0, 1.0, 50), 0, sample_rate=8000, walltime=1.0)
        labels = torch.tensor([0, 1, 1, 0, 1, 0, 1, 1])
        scores = torch.tensor([0.1, 0.9, 0.8, 0.3, 0.35, 0.7, 0.6, 0.95])
        w.add_pr_curve("pr", labels, scores, 0, num_thresholds=5, walltime=1.0)
        w.add_custom_scalars_multilinechart(["loss/train", "acc"], title="both")
        w.add_hparams(
            {"lr": 0.1, "batch": 32, "optim": "sgd", "nesterov": True, "skip": None},
            {"hp/accuracy": 0.75},
            hparam_domain_discrete={"optim": ["sgd", "adam"]},
            run_name="trial",
            global_step=9,
        )
        if not with_graph:
            return
        torch.manual_seed(MODEL_SEED)
        model = torch.nn.Sequential(
            torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2), torch.nn.Sigmoid()
        )
        w.add_graph(model, torch.randn(2, 3))


def _histogram(h) -> dict:
    fields = ("min", "max", "num", "sum", "sum_squares", "bucket_limit", "bucket")
    return {f: (list(getattr(h, f)) if f.startswith("bucket") else getattr(h, f)) for f in fields}


def _walltime(seconds: float):
    # the cases give small explicit times; a real clock reading differs run to run
    return seconds if seconds < 1e6 else "now"


def _pixels_digest(encoded: bytes) -> dict:
    from PIL import Image

    picture = Image.open(io.BytesIO(encoded))
    return {
        "mode": picture.mode,
        "size": list(picture.size),
        "pixels_sha256": hashlib.sha256(picture.tobytes()).hexdigest(),
    }


def _tensor_values(proto) -> dict:
    from tensorboard.util import tensor_util

    array = tensor_util.make_ndarray(proto)
    if array.dtype.kind in "OS":
        return {"dtype": str(array.dtype.kind), "values": [v.decode() for v in array.ravel()]}
    return {"dtype": str(array.dtype), "shape": list(array.shape), "values": array.tolist()}


PLUGINS = ("custom_scalars", "hparams", "pr_curves", "scalars", "tensor", "text")


def _plugin_tags(accumulator, name: str) -> dict:
    try:
        return accumulator.PluginTagToContent(name)
    except KeyError:  # no summary of that plugin in this run
        return {}


def _plugin_contents(accumulator) -> dict:
    """The hparams plugin's three records, decoded."""
    from tensorboard.plugins.hparams.plugin_data_pb2 import HParamsPluginData

    out = {}
    for tag, content in sorted(_plugin_tags(accumulator, "hparams").items()):
        data = HParamsPluginData()
        data.ParseFromString(content)
        out[tag] = str(data)
    return out


def _graph_outline(accumulator) -> list:
    """The graph's operations (kind, scope, output shape, how many inputs) in order:
    names of traced values differ between implementations, the structure must not."""
    outline = []
    for node in accumulator.Graph().node:
        if node.op == "prim::GetAttr":
            continue  # parameters: named after the attribute here, not in PyTorch
        shapes = node.attr["_output_shapes"].list.shape if "_output_shapes" in node.attr else []
        shape = [d.size for d in shapes[0].dim] if shapes else None
        scope = node.name.rsplit("/", 1)[0]
        outline.append([node.op, scope, shape, len(node.input)])
    return sorted(outline, key=lambda entry: (entry[1], entry[0]))


def read_run(folder: pathlib.Path) -> dict:
    """What TensorBoard reads from every run folder under ``folder``."""
    from tensorboard.backend.event_processing import event_accumulator as ea

    everything = {kind: 0 for kind in (ea.SCALARS, ea.HISTOGRAMS, ea.IMAGES, ea.AUDIO, ea.TENSORS)}
    result: dict = {}
    for run in sorted({p.parent for p in folder.rglob("events.out.tfevents.*")}):
        acc = ea.EventAccumulator(str(run), size_guidance=everything)
        acc.Reload()
        tags = acc.Tags()
        entry: dict = {
            "event_files": sorted(p.name.split(".")[-1] for p in run.glob("events.*")),
        }
        entry["scalars"] = {
            t: [[e.step, _walltime(e.wall_time), e.value] for e in acc.Scalars(t)]
            for t in tags["scalars"]
        }
        entry["histograms"] = {
            t: [[e.step, _histogram(e.histogram_value)] for e in acc.Histograms(t)]
            for t in tags["histograms"]
        }
        entry["images"] = {
            t: [
                [e.step, e.width, e.height, _pixels_digest(e.encoded_image_string)]
                for e in acc.Images(t)
            ]  # fmt: skip
            for t in tags["images"]
        }
        entry["audio"] = {
            t: [[e.step, e.sample_rate, e.length_frames, e.content_type,
                 hashlib.sha256(e.encoded_audio_string).hexdigest()] for e in acc.Audio(t)]
            for t in tags["audio"]
        }  # fmt: skip
        entry["tensors"] = {
            t: [[e.step, _tensor_values(e.tensor_proto)] for e in acc.Tensors(t)]
            for t in tags["tensors"]
        }
        entry["plugins"] = {name: sorted(_plugin_tags(acc, name)) for name in PLUGINS}
        entry["hparams"] = _plugin_contents(acc)
        entry["graph"] = _graph_outline(acc) if tags["graph"] else None
        entry["run_metadata"] = tags["run_metadata"]
        result[os.path.relpath(run, folder)] = entry
    return result


def describe(torch, folder: pathlib.Path, with_graph: bool = True) -> dict:
    log_run(torch, folder, with_graph)
    return read_run(folder)


# run in a fresh interpreter: tensorboard hidden, then the import users write
WITHOUT_TENSORBOARD = """
import sys
class HideTensorboard:
    def find_spec(self, name, path=None, target=None):
        if name == "tensorboard" or name.startswith("tensorboard."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, HideTensorboard())
try:
    from torch.utils.tensorboard import SummaryWriter
except ImportError as error:
    print(type(error).__name__, error, sep=": ")
"""


def import_without_tensorboard(python: str) -> str:
    import subprocess

    done = subprocess.run(
        [python, "-c", WITHOUT_TENSORBOARD], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()
