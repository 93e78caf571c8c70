"""Builders of TensorBoard ``Summary`` protocol buffers, one per kind of data.

Each function takes what a user logs (tensors, arrays, numbers, strings) and returns a
``Summary`` (``hparams`` returns three) that :class:`~torch.utils.tensorboard.FileWriter`
writes; the layouts are those TensorBoard's plugins read (scalars, histograms, images,
audio, text, hparams, custom scalars, PR curves, tensors).
"""

from __future__ import annotations

import io
import struct
import wave

import numpy as np
from google.protobuf import struct_pb2

import torch
from tensorboard.compat.proto.summary_pb2 import HistogramProto, Summary, SummaryMetadata
from tensorboard.compat.proto.tensor_pb2 import TensorProto
from tensorboard.compat.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboard.plugins.custom_scalar import layout_pb2
from tensorboard.plugins.pr_curve.plugin_data_pb2 import PrCurvePluginData
from tensorboard.plugins.text.plugin_data_pb2 import TextPluginData

from ._convert import convert_to_HWC, make_np

__all__ = [
    "audio",
    "compute_curve",
    "custom_scalars",
    "half_to_int",
    "histogram",
    "histogram_raw",
    "hparams",
    "image",
    "int_to_half",
    "make_histogram",
    "make_image",
    "pr_curve",
    "pr_curve_raw",
    "scalar",
    "tensor_proto",
    "text",
]


def _plugin_metadata(name: str, content: bytes = b"") -> SummaryMetadata:
    return SummaryMetadata(
        plugin_data=SummaryMetadata.PluginData(plugin_name=name, content=content)
    )


def _shape(dims) -> TensorShapeProto:
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=d) for d in dims])


# --------------------------------------------------------------------------- scalars


def scalar(name, tensor, collections=None, new_style=False, double_precision=False) -> Summary:
    """A scalar summary of a one-element tensor, array or number.

    ``new_style`` stores it as a tensor with the scalars plugin's metadata (float32, or
    float64 with ``double_precision``) instead of the classic ``simple_value``.
    """
    array = make_np(tensor).squeeze()
    if array.ndim != 0:
        raise AssertionError(
            "Tensor should contain one element (0 dimensions). "
            f"Was given size: {array.size} and {array.ndim} dimensions."
        )
    value = float(array)
    if not new_style:
        return Summary(value=[Summary.Value(tag=name, simple_value=value)])
    if double_precision:
        proto = TensorProto(double_val=[value], dtype="DT_DOUBLE")
    else:
        proto = TensorProto(float_val=[value], dtype="DT_FLOAT")
    return Summary(
        value=[Summary.Value(tag=name, tensor=proto, metadata=_plugin_metadata("scalars"))]
    )


def half_to_int(f: float) -> int:
    """The bits of ``f`` as a float32, read as an int32 (how a half tensor's values go
    into ``TensorProto.half_val`` here, as in PyTorch)."""
    return struct.unpack("i", struct.pack("f", f))[0]


def int_to_half(i: int) -> float:
    """The inverse of :func:`half_to_int`."""
    return struct.unpack("f", struct.pack("i", i))[0]


def _as_list(t):
    return t.flatten().tolist()


def _as_half_bits(t):
    return [half_to_int(x) for x in t.flatten().tolist()]


def _as_complex_pairs(t):
    return torch.view_as_real(t).flatten().tolist()


# torch dtype -> (TensorProto dtype, value field, conversion)
_TENSOR_FIELDS = {
    torch.float16: ("DT_HALF", "half_val", _as_half_bits),
    torch.bfloat16: ("DT_BFLOAT16", "half_val", _as_half_bits),
    torch.float32: ("DT_FLOAT", "float_val", _as_list),
    torch.float64: ("DT_DOUBLE", "double_val", _as_list),
    torch.int8: ("DT_INT8", "int_val", _as_list),
    torch.uint8: ("DT_UINT8", "uint32_val", _as_list),
    torch.int16: ("DT_INT16", "int_val", _as_list),
    torch.int32: ("DT_INT32", "int_val", _as_list),
    torch.int64: ("DT_INT64", "int64_val", _as_list),
    torch.complex32: ("DT_COMPLEX32", "scomplex_val", _as_complex_pairs),
    torch.complex64: ("DT_COMPLEX64", "scomplex_val", _as_complex_pairs),
    torch.complex128: ("DT_COMPLEX128", "dcomplex_val", _as_complex_pairs),
    torch.bool: ("DT_BOOL", "bool_val", _as_list),
}


def tensor_proto(tag, tensor) -> Summary:
    """A whole tensor, for the tensor plugin."""
    if tensor.numel() * tensor.element_size() >= (1 << 31):
        raise ValueError("tensor is bigger than protocol buffer's hard limit of 2GB in size")
    if tensor.dtype not in _TENSOR_FIELDS:
        raise ValueError(f"{tag} has unsupported tensor dtype {tensor.dtype}")
    dtype, field, convert = _TENSOR_FIELDS[tensor.dtype]
    proto = TensorProto(dtype=dtype, tensor_shape=_shape(tensor.shape), **{field: convert(tensor)})
    return Summary(
        value=[Summary.Value(tag=tag, metadata=_plugin_metadata("tensor"), tensor=proto)]
    )


# ------------------------------------------------------------------------ histograms


def histogram_raw(name, min, max, num, sum, sum_squares, bucket_limits, bucket_counts) -> Summary:
    """A histogram from statistics computed elsewhere (``bucket_limits`` are right edges)."""
    proto = HistogramProto(
        min=min,
        max=max,
        num=num,
        sum=sum,
        sum_squares=sum_squares,
        bucket_limit=bucket_limits,
        bucket=bucket_counts,
    )
    return Summary(value=[Summary.Value(tag=name, histo=proto)])


def histogram(name, values, bins, max_bins=None) -> Summary:
    """A histogram of ``values`` over ``bins`` (edges, a count, or a NumPy rule name)."""
    array = make_np(values).astype(float)
    return Summary(value=[Summary.Value(tag=name, histo=make_histogram(array, bins, max_bins))])


def _merge_buckets(counts, edges, max_bins):
    """At most about ``max_bins`` buckets: groups of neighbours summed (the last group
    padded with empty buckets), keeping every group's left edge and the last edge."""
    group = len(counts) // max_bins
    remainder = len(counts) % group
    if remainder:
        counts = np.pad(counts, (0, group - remainder))
    counts = counts.reshape(-1, group).sum(axis=-1)
    merged = np.empty(counts.size + 1, edges.dtype)
    merged[:-1] = edges[:-1:group]
    merged[-1] = edges[-1]
    return counts, merged


def make_histogram(values, bins, max_bins=None) -> HistogramProto:
    """The ``HistogramProto`` of ``values``: only the buckets from the first to the last
    non-empty one are kept, plus the empty one before them (TensorBoard draws a bucket
    from the previous limit to its own, so its left edge needs that neighbour)."""
    if values.size == 0:
        raise ValueError("The input has no element.")
    values = values.reshape(-1)
    counts, edges = np.histogram(values, bins=bins)
    if max_bins is not None and len(counts) > max_bins:
        counts, edges = _merge_buckets(counts, edges, max_bins)
    nonempty = np.flatnonzero(counts)
    if nonempty.size == 0:  # every value outside the bins
        raise ValueError("The histogram is empty, please file a bug report.")
    first, last = int(nonempty[0]), int(nonempty[-1])
    if first > 0:
        kept = counts[first - 1 : last + 1]
    else:
        kept = np.concatenate([[0], counts[: last + 1]])
    limits = edges[first : last + 2]  # right edges of the kept buckets
    return HistogramProto(
        min=values.min(),
        max=values.max(),
        num=len(values),
        sum=values.sum(),
        sum_squares=values.dot(values),
        bucket_limit=limits.tolist(),
        bucket=kept.tolist(),
    )


# --------------------------------------------------------------------- images, audio


def _scale_to_uint8(array: np.ndarray) -> np.ndarray:
    # uint8 images are already 0..255; anything else is taken as 0..1
    factor = 1 if array.dtype == np.uint8 else 255
    return (array.astype(np.float32) * factor).clip(0, 255).astype(np.uint8)


def image(tag, tensor, rescale=1, dataformats="NCHW") -> Summary:
    """An image summary: ``tensor`` in the layout ``dataformats`` (a batch is tiled into
    one image), values in [0, 1] (or 0..255 for uint8), encoded as PNG."""
    hwc = convert_to_HWC(make_np(tensor), dataformats)
    return Summary(
        value=[Summary.Value(tag=tag, image=make_image(_scale_to_uint8(hwc), rescale=rescale))]
    )


def make_image(array, rescale=1) -> Summary.Image:
    """A PNG ``Summary.Image`` of an (H, W, C) uint8 array, resized by ``rescale``."""
    from PIL import Image

    height, width, channels = array.shape
    picture = Image.fromarray(array).resize(
        (int(width * rescale), int(height * rescale)), Image.Resampling.LANCZOS
    )
    with io.BytesIO() as buffer:
        picture.save(buffer, format="PNG")
        encoded = buffer.getvalue()
    return Summary.Image(
        height=height, width=width, colorspace=channels, encoded_image_string=encoded
    )


def audio(tag, tensor, sample_rate=44100) -> Summary:
    """A mono WAV clip of samples in [-1, 1] (louder samples are clipped, with a note)."""
    samples = make_np(tensor).squeeze()
    if abs(samples).max() > 1:
        print("warning: audio amplitude out of range, auto clipped.")
        samples = samples.clip(-1, 1)
    if samples.ndim != 1:
        raise AssertionError("input tensor should be 1 dimensional.")
    pcm = (samples * np.iinfo(np.int16).max).astype("<i2")
    with io.BytesIO() as buffer:
        with wave.open(buffer, "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(sample_rate)
            wav.writeframes(pcm.tobytes())
        encoded = buffer.getvalue()
    clip = Summary.Audio(
        sample_rate=sample_rate,
        num_channels=1,
        length_frames=pcm.shape[-1],
        encoded_audio_string=encoded,
        content_type="audio/wav",
    )
    return Summary(value=[Summary.Value(tag=tag, audio=clip)])


# ------------------------------------------------------------------- text, layouts


def text(tag, text) -> Summary:
    """A text summary (markdown in TensorBoard), under the tag ``<tag>/text_summary``."""
    metadata = _plugin_metadata("text", TextPluginData(version=0).SerializeToString())
    proto = TensorProto(
        dtype="DT_STRING", string_val=[text.encode("utf_8")], tensor_shape=_shape([1])
    )
    return Summary(
        value=[Summary.Value(tag=tag + "/text_summary", metadata=metadata, tensor=proto)]
    )


def custom_scalars(layout) -> Summary:
    """The custom-scalars plugin's layout: ``{category: {title: [kind, tags]}}`` with kind
    ``"Multiline"`` (any tags) or ``"Margin"`` (value, lower, upper)."""
    categories = []
    for category, charts in layout.items():
        built = []
        for title, (kind, tags) in charts.items():
            if kind == "Margin":
                if len(tags) != 3:
                    raise AssertionError("len(tags) != 3")
                series = layout_pb2.MarginChartContent.Series(
                    value=tags[0], lower=tags[1], upper=tags[2]
                )
                content = layout_pb2.MarginChartContent(series=[series])
                built.append(layout_pb2.Chart(title=title, margin=content))
            else:
                content = layout_pb2.MultilineChartContent(tag=tags)
                built.append(layout_pb2.Chart(title=title, multiline=content))
        categories.append(layout_pb2.Category(title=category, chart=built))
    proto = TensorProto(
        dtype="DT_STRING",
        string_val=[layout_pb2.Layout(category=categories).SerializeToString()],
        tensor_shape=TensorShapeProto(),
    )
    metadata = _plugin_metadata("custom_scalars")
    return Summary(
        value=[Summary.Value(tag="custom_scalars__config__", tensor=proto, metadata=metadata)]
    )


# ----------------------------------------------------------------------- PR curves


def compute_curve(labels, predictions, num_thresholds=None, weights=None) -> np.ndarray:
    """The (6, num_thresholds) rows TP, FP, TN, FN, precision, recall of a binary
    classifier's ``predictions`` in [0, 1] against 0/1 ``labels``."""
    weights = 1.0 if weights is None else weights
    buckets = np.int32(np.floor(predictions * (num_thresholds - 1)))
    positive = labels.astype(np.float64)
    span = (0, num_thresholds - 1)
    tp_hist, _ = np.histogram(buckets, bins=num_thresholds, range=span, weights=positive * weights)
    fp_hist, _ = np.histogram(
        buckets, bins=num_thresholds, range=span, weights=(1.0 - positive) * weights
    )
    # counts at or above each threshold: reversed cumulative sums
    tp = np.cumsum(tp_hist[::-1])[::-1]
    fp = np.cumsum(fp_hist[::-1])[::-1]
    tn, fn = fp[0] - fp, tp[0] - tp
    tiny = 1e-7  # no division by zero where nothing is predicted positive
    return np.stack(
        (tp, fp, tn, fn, tp / np.maximum(tiny, tp + fp), tp / np.maximum(tiny, tp + fn))
    )


def _pr_summary(tag, data, num_thresholds) -> Summary:
    content = PrCurvePluginData(version=0, num_thresholds=num_thresholds).SerializeToString()
    proto = TensorProto(
        dtype="DT_FLOAT", float_val=data.reshape(-1).tolist(), tensor_shape=_shape(data.shape)
    )
    metadata = _plugin_metadata("pr_curves", content)
    return Summary(value=[Summary.Value(tag=tag, metadata=metadata, tensor=proto)])


def pr_curve(tag, labels, predictions, num_thresholds=127, weights=None) -> Summary:
    """A precision-recall curve (at most 127 thresholds, the plugin's limit)."""
    num_thresholds = min(num_thresholds, 127)
    data = compute_curve(labels, predictions, num_thresholds=num_thresholds, weights=weights)
    return _pr_summary(tag, data, num_thresholds)


def pr_curve_raw(tag, tp, fp, tn, fn, precision, recall, num_thresholds=127, weights=None):
    """A precision-recall curve from counts computed elsewhere."""
    num_thresholds = min(num_thresholds, 127)
    data = np.stack((tp, fp, tn, fn, precision, recall))
    return _pr_summary(tag, data, num_thresholds)


# -------------------------------------------------------------------------- hparams


def _hparam_entry(name, value, domain):
    """(HParamInfo, how to set the session value) for one hyperparameter."""
    from tensorboard.plugins.hparams.api_pb2 import DataType, HParamInfo

    # bool is an int, so True logs as the number 1.0 (as in PyTorch)
    if isinstance(value, (int, float)):
        kind, field = "DATA_TYPE_FLOAT64", "number_value"
    elif isinstance(value, str):
        kind, field = "DATA_TYPE_STRING", "string_value"
    elif isinstance(value, torch.Tensor):
        return HParamInfo(name=name, type=DataType.Value("DATA_TYPE_FLOAT64")), (
            "number_value",
            make_np(value)[0],
        )
    else:
        raise ValueError("value should be one of int, float, str, bool, or torch.Tensor")
    discrete = None
    if domain is not None:
        discrete = struct_pb2.ListValue(values=[struct_pb2.Value(**{field: d}) for d in domain])
    info = HParamInfo(name=name, type=DataType.Value(kind), domain_discrete=discrete)
    return info, (field, value)


def _check_hparam_arguments(hparam_dict, metric_dict, domains) -> dict:
    for value, name in ((hparam_dict, "hparam_dict"), (metric_dict, "metric_dict")):
        if not isinstance(value, dict):
            raise TypeError(f"parameter: {name} should be a dictionary, nothing logged.")
    domains = domains or {}
    if not isinstance(domains, dict):
        raise TypeError("parameter: hparam_domain_discrete should be a dictionary, nothing logged.")
    for key, values in domains.items():
        if (
            key not in hparam_dict
            or not isinstance(values, list)
            or not all(isinstance(d, type(hparam_dict[key])) for d in values)
        ):
            raise TypeError(
                f"parameter: hparam_domain_discrete[{key}] should be a list of same type as "
                f"hparam_dict[{key}]."
            )
    return domains


def hparams(hparam_dict=None, metric_dict=None, hparam_domain_discrete=None):
    """The three summaries of the hparams plugin: the experiment (hyperparameters and
    metric names), the session start (this run's values) and the session end."""
    from tensorboard.plugins.hparams import metadata as hp
    from tensorboard.plugins.hparams.api_pb2 import Experiment, MetricInfo, MetricName, Status
    from tensorboard.plugins.hparams.plugin_data_pb2 import (
        HParamsPluginData,
        SessionEndInfo,
        SessionStartInfo,
    )

    domains = _check_hparam_arguments(hparam_dict, metric_dict, hparam_domain_discrete)
    infos = []
    start = SessionStartInfo()
    for name, value in hparam_dict.items():
        if value is None:
            continue
        info, (field, session_value) = _hparam_entry(name, value, domains.get(name))
        setattr(start.hparams[name], field, session_value)
        infos.append(info)

    def summary(tag, **content):
        data = HParamsPluginData(version=hp.PLUGIN_DATA_VERSION, **content).SerializeToString()
        return Summary(
            value=[Summary.Value(tag=tag, metadata=_plugin_metadata(hp.PLUGIN_NAME, data))]
        )

    metrics = [MetricInfo(name=MetricName(tag=k)) for k in metric_dict]
    experiment = summary(
        hp.EXPERIMENT_TAG, experiment=Experiment(hparam_infos=infos, metric_infos=metrics)
    )
    session_start = summary(hp.SESSION_START_INFO_TAG, session_start_info=start)
    end = SessionEndInfo(status=Status.Value("STATUS_SUCCESS"))
    session_end = summary(hp.SESSION_END_INFO_TAG, session_end_info=end)
    return experiment, session_start, session_end
