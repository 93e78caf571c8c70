"""SummaryWriter: log scalars, histograms, images, text, hyperparameters and graphs to
TensorBoard event files.

Examples::

    >>> import tempfile
    >>> from torch.utils.tensorboard import SummaryWriter
    >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
    ...     for step in range(3):
    ...         writer.add_scalar("loss", 1.0 / (step + 1), step)
"""

from __future__ import annotations

import os
import socket
import time
from datetime import datetime

from tensorboard.compat.proto import event_pb2
from tensorboard.compat.proto.event_pb2 import Event, SessionLog
from tensorboard.summary.writer.event_file_writer import EventFileWriter

from . import summary as _summary
from ._convert import make_np

__all__ = ["FileWriter", "SummaryWriter"]


class FileWriter:
    """Writes protocol buffers (events, summaries, graphs) to an event file in
    ``log_dir``; the file is written asynchronously, every ``flush_secs`` seconds or when
    ``max_queue`` events wait.

    Args:
        log_dir (str): the folder of the event file (created if needed).
        max_queue (int): events kept before a write. Default: 10.
        flush_secs (int): seconds between writes. Default: 120.
        filename_suffix (str): appended to the event file's name. Default: ``""``.
    """

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix="") -> None:
        self.event_writer = EventFileWriter(str(log_dir), max_queue, flush_secs, filename_suffix)

    def get_logdir(self) -> str:
        """The folder the event file is in."""
        return self.event_writer.get_logdir()

    def add_event(self, event, step=None, walltime=None) -> None:
        """Write ``event`` with ``walltime`` (default now) and ``step`` if given."""
        event.wall_time = time.time() if walltime is None else walltime
        if step is not None:
            event.step = int(step)
        self.event_writer.add_event(event)

    def add_summary(self, summary, global_step=None, walltime=None) -> None:
        """Write a ``Summary`` protocol buffer as an event."""
        self.add_event(event_pb2.Event(summary=summary), global_step, walltime)

    def add_graph(self, graph_profile, walltime=None) -> None:
        """Write a ``(GraphDef, RunMetadata)`` pair: the graph and its step statistics
        (tagged ``step1``)."""
        graph, stepstats = graph_profile
        self.add_event(event_pb2.Event(graph_def=graph.SerializeToString()), None, walltime)
        tagged = event_pb2.TaggedRunMetadata(
            tag="step1", run_metadata=stepstats.SerializeToString()
        )
        self.add_event(event_pb2.Event(tagged_run_metadata=tagged), None, walltime)

    def add_onnx_graph(self, graph, walltime=None) -> None:
        """Write a ``GraphDef`` converted from an ONNX model."""
        self.add_event(event_pb2.Event(graph_def=graph.SerializeToString()), None, walltime)

    def flush(self) -> None:
        """Write the waiting events to disk now."""
        self.event_writer.flush()

    def close(self) -> None:
        """Flush and close the event file."""
        self.event_writer.close()

    def reopen(self) -> None:
        """Open a new event file after :meth:`close`."""
        self.event_writer.reopen()


def _default_log_dir(comment: str) -> str:
    # runs/<Mon><day>_<HH>-<MM>-<SS>_<hostname><comment>, as PyTorch names runs
    stamp = datetime.now().strftime("%b%d_%H-%M-%S")
    return os.path.join("runs", stamp + "_" + socket.gethostname() + comment)


def _tensorflow_bins() -> list[float]:
    """TensorFlow's default histogram edges: ±1e-12 growing by 10% up to 1e20, and 0."""
    positive = []
    edge = 1e-12
    while edge < 1e20:
        positive.append(edge)
        edge *= 1.1
    return [-e for e in reversed(positive)] + [0] + positive


class SummaryWriter:
    """Writes TensorBoard event files in ``log_dir``, asynchronously, for
    ``tensorboard --logdir`` to show.

    Args:
        log_dir (str or os.PathLike, optional): the run's folder. Default: ``None``
            (``runs/<date>_<time>_<hostname><comment>`` in the working directory).
        comment (str): appended to the default ``log_dir`` (unused when ``log_dir`` is
            given). Default: ``""``.
        purge_step (int, optional): after a crash at a later step, events from this step
            on are hidden by TensorBoard (a restart marker is written). Default: ``None``.
        max_queue (int): events kept before a write. Default: 10.
        flush_secs (int): seconds between writes. Default: 120.
        filename_suffix (str): appended to every event file's name. Default: ``""``.
    """

    def __init__(
        self,
        log_dir=None,
        comment="",
        purge_step=None,
        max_queue=10,
        flush_secs=120,
        filename_suffix="",
    ) -> None:
        self.log_dir = log_dir if log_dir else _default_log_dir(comment)
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer = self.all_writers = None
        self._get_file_writer()
        self.default_bins = _tensorflow_bins()

    def _get_file_writer(self) -> FileWriter:
        """The main writer, opened again after :meth:`close`."""
        if self.all_writers is None or self.file_writer is None:
            self.file_writer = FileWriter(
                self.log_dir, self.max_queue, self.flush_secs, self.filename_suffix
            )
            self.all_writers = {self.file_writer.get_logdir(): self.file_writer}
            if self.purge_step is not None:
                step = self.purge_step
                self.file_writer.add_event(Event(step=step, file_version="brain.Event:2"))
                start = SessionLog(status=SessionLog.START)
                self.file_writer.add_event(Event(step=step, session_log=start))
                self.purge_step = None
        return self.file_writer

    def get_logdir(self):
        """The folder the events are written to."""
        return self.log_dir

    # ---------------------------------------------------------------- scalars, tensors

    def add_scalar(
        self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
        double_precision=False,
    ) -> None:  # fmt: skip
        """Log one number.

        Args:
            tag (str): the series' name.
            scalar_value (float or one-element tensor): the value.
            global_step (int, optional): the step. Default: ``None``.
            walltime (float, optional): seconds since the epoch. Default: now.
            new_style (bool): store it as a tensor (faster to load). Default: ``False``.
            double_precision (bool): with ``new_style``, as float64. Default: ``False``.
        """
        summary = _summary.scalar(
            tag, scalar_value, new_style=new_style, double_precision=double_precision
        )
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None) -> None:
        """Log several series on one chart: each ``tag`` of ``tag_scalar_dict`` goes to
        its own run folder ``<log_dir>/<main_tag>_<tag>`` under the tag ``main_tag``."""
        walltime = time.time() if walltime is None else walltime
        base = self._get_file_writer().get_logdir()
        for tag, value in tag_scalar_dict.items():
            folder = base + "/" + main_tag.replace("/", "_") + "_" + tag
            writer = self.all_writers.get(folder)
            if writer is None:
                writer = FileWriter(folder, self.max_queue, self.flush_secs, self.filename_suffix)
                self.all_writers[folder] = writer
            writer.add_summary(_summary.scalar(main_tag, value), global_step, walltime)

    def add_tensor(self, tag, tensor, global_step=None, walltime=None) -> None:
        """Log a whole tensor (TensorBoard's tensor plugin)."""
        summary = _summary.tensor_proto(tag, tensor)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    # ------------------------------------------------------------------- histograms

    def add_histogram(
        self, tag, values, global_step=None, bins="tensorflow", walltime=None, max_bins=None
    ) -> None:
        """Log the distribution of ``values``.

        Args:
            tag (str): the series' name.
            values (tensor or array): the values.
            global_step (int, optional): the step. Default: ``None``.
            bins (str or int or sequence): ``"tensorflow"`` (TensorFlow's exponential
                edges) or anything ``numpy.histogram`` takes. Default: ``"tensorflow"``.
            walltime (float, optional): seconds since the epoch. Default: now.
            max_bins (int, optional): merge neighbouring buckets down to about this many.
        """
        if isinstance(bins, str) and bins == "tensorflow":
            bins = self.default_bins
        summary = _summary.histogram(tag, values, bins, max_bins=max_bins)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_histogram_raw(
        self, tag, min, max, num, sum, sum_squares, bucket_limits, bucket_counts,
        global_step=None, walltime=None,
    ) -> None:  # fmt: skip
        """Log a histogram whose statistics were computed elsewhere."""
        if len(bucket_limits) != len(bucket_counts):
            raise ValueError("len(bucket_limits) != len(bucket_counts), see the document.")
        summary = _summary.histogram_raw(
            tag, min, max, num, sum, sum_squares, bucket_limits, bucket_counts
        )
        self._get_file_writer().add_summary(summary, global_step, walltime)

    # ----------------------------------------------------------------------- images

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW"):
        """Log an image.

        Args:
            tag (str): the series' name.
            img_tensor (tensor or array): floats in [0, 1] or uint8 in [0, 255], laid out
                as ``dataformats``.
            global_step (int, optional): the step. Default: ``None``.
            walltime (float, optional): seconds since the epoch. Default: now.
            dataformats (str): ``"CHW"``, ``"HWC"``, ``"HW"`` (or another order of those
                letters); C is 1, 3 or 4. Default: ``"CHW"``.
        """
        summary = _summary.image(tag, img_tensor, dataformats=dataformats)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None, dataformats="NCHW"):
        """Log a batch of images, tiled into one (at most 8 per row)."""
        summary = _summary.image(tag, img_tensor, dataformats=dataformats)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_figure(self, tag, figure, global_step=None, close=True, walltime=None) -> None:
        """Log a matplotlib figure (or a list of them, tiled) as an image."""
        images = _figures_to_chw(figure, close)
        formats = "NCHW" if isinstance(figure, list) else "CHW"
        self.add_image(tag, images, global_step, walltime, dataformats=formats)

    # ----------------------------------------------------------------- audio, text

    def add_audio(self, tag, snd_tensor, global_step=None, sample_rate=44100, walltime=None):
        """Log a mono clip: samples in [-1, 1] (a (1, L) tensor or an (L,) one)."""
        summary = _summary.audio(tag, snd_tensor, sample_rate=sample_rate)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_text(self, tag, text_string, global_step=None, walltime=None) -> None:
        """Log a string (shown as markdown) under ``<tag>/text_summary``."""
        summary = _summary.text(tag, text_string)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    # ---------------------------------------------------------------------- hparams

    def add_hparams(
        self, hparam_dict, metric_dict, hparam_domain_discrete=None, run_name=None,
        global_step=None,
    ) -> None:  # fmt: skip
        """Log one run's hyperparameters with its final metrics (TensorBoard's HPARAMS
        tab), in a sub-run ``<log_dir>/<run_name>`` (default: the current time).

        Args:
            hparam_dict (dict): name -> int, float, str, bool or one-element tensor.
            metric_dict (dict): metric tag -> value; each is also logged as a scalar.
            hparam_domain_discrete (dict, optional): name -> the list of all its values.
            run_name (str, optional): the sub-run's folder name.
            global_step (int, optional): the step.
        """
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        experiment, start, end = _summary.hparams(hparam_dict, metric_dict, hparam_domain_discrete)
        run_name = run_name or str(time.time())
        folder = os.path.join(self._get_file_writer().get_logdir(), run_name)
        with SummaryWriter(log_dir=folder) as run:
            for proto in (experiment, start, end):
                run.file_writer.add_summary(proto, global_step)
            for tag, value in metric_dict.items():
                run.add_scalar(tag, value, global_step)

    # ------------------------------------------------------------------- PR curves

    def add_pr_curve(
        self, tag, labels, predictions, global_step=None, num_thresholds=127, weights=None,
        walltime=None,
    ) -> None:  # fmt: skip
        """Log a precision-recall curve of ``predictions`` in [0, 1] against 0/1 ``labels``."""
        labels, predictions = make_np(labels), make_np(predictions)
        summary = _summary.pr_curve(tag, labels, predictions, num_thresholds, weights)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_pr_curve_raw(
        self, tag, true_positive_counts, false_positive_counts, true_negative_counts,
        false_negative_counts, precision, recall, global_step=None, num_thresholds=127,
        weights=None, walltime=None,
    ) -> None:  # fmt: skip
        """Log a precision-recall curve from counts computed elsewhere."""
        summary = _summary.pr_curve_raw(
            tag, true_positive_counts, false_positive_counts, true_negative_counts,
            false_negative_counts, precision, recall, num_thresholds, weights,
        )  # fmt: skip
        self._get_file_writer().add_summary(summary, global_step, walltime)

    # -------------------------------------------------------------- custom scalars

    def add_custom_scalars(self, layout) -> None:
        """Lay out the custom-scalars tab: ``{category: {title: [kind, tags]}}``."""
        self._get_file_writer().add_summary(_summary.custom_scalars(layout))

    def add_custom_scalars_multilinechart(self, tags, category="default", title="untitled"):
        """One custom chart drawing the series ``tags`` together."""
        self.add_custom_scalars({category: {title: ["Multiline", tags]}})

    def add_custom_scalars_marginchart(self, tags, category="default", title="untitled"):
        """One custom chart of a value with its lower and upper series (three tags)."""
        if len(tags) != 3:
            raise AssertionError(f"Expected 3 tags, got {len(tags)}.")
        self.add_custom_scalars({category: {title: ["Margin", tags]}})

    # ------------------------------------------------------------------------ graphs

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True):
        """Log the graph of ``model`` traced on ``input_to_model`` (needs torch-jit's
        ``torch.jit.trace``).

        Args:
            model (nn.Module): the model.
            input_to_model (tensor or tuple of tensors): example inputs.
            verbose (bool): print the traced graph. Default: ``False``.
            use_strict_trace (bool): passed to ``torch.jit.trace`` as ``strict``.
                Default: ``True``.
        """
        from ._graph import graph

        self._get_file_writer().add_graph(graph(model, input_to_model, verbose, use_strict_trace))

    def add_onnx_graph(self, prototxt) -> None:
        """Not built here: it needs the ``onnx`` package's model reader."""
        raise NotImplementedError(
            "SummaryWriter.add_onnx_graph is not implemented in this project; log the "
            "model with add_graph instead"
        )

    # ------------------------------------------------------------- not built here

    def _not_built(self, name: str):
        raise NotImplementedError(f"SummaryWriter.{name} is not implemented in this project")

    def add_image_with_boxes(self, tag, img_tensor, box_tensor, *args, **kwargs) -> None:
        """Not built here (raises ``NotImplementedError``)."""
        self._not_built("add_image_with_boxes")

    def add_video(self, tag, vid_tensor, global_step=None, fps=4, walltime=None) -> None:
        """Not built here (raises ``NotImplementedError``)."""
        self._not_built("add_video")

    def add_embedding(self, mat, metadata=None, label_img=None, *args, **kwargs) -> None:
        """Not built here (raises ``NotImplementedError``)."""
        self._not_built("add_embedding")

    def add_mesh(self, tag, vertices, colors=None, faces=None, *args, **kwargs) -> None:
        """Not built here (raises ``NotImplementedError``)."""
        self._not_built("add_mesh")

    # ------------------------------------------------------------------ lifetime

    def flush(self) -> None:
        """Write every waiting event of every run folder to disk now."""
        if self.all_writers is None:
            return
        for writer in self.all_writers.values():
            writer.flush()

    def close(self) -> None:
        """Flush and close every event file (a second close does nothing; logging
        again opens a new file)."""
        if self.all_writers is None:
            return
        for writer in self.all_writers.values():
            writer.flush()
            writer.close()
        self.file_writer = self.all_writers = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()


def _figures_to_chw(figures, close):
    """RGB (C, H, W) uint8 arrays of matplotlib figures (stacked for a list)."""
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def render(figure):
        canvas = FigureCanvasAgg(figure)
        canvas.draw()
        width, height = figure.canvas.get_width_height()
        rgba = np.frombuffer(canvas.buffer_rgba(), dtype=np.uint8).reshape(height, width, 4)
        if close:
            plt.close(figure)
        return np.moveaxis(rgba[:, :, :3], 2, 0)

    if isinstance(figures, list):
        return np.stack([render(f) for f in figures])
    return render(figures)
