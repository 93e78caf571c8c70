# ruff: noqa: E501  (a table of sources, one per string)
"""Module and functional cases that the torch-nn tests compare with real PyTorch (see
record_nn.py). Everything a test needs is written into the golden files, so the tests
never import this.

A module case is ``(family, constructor source, inputs, options)``. Inputs are specs:
``("randn", shape)`` float32 normal values, ``("rand", shape)`` uniform in [0, 1),
``("int", shape, high)`` int64 in [0, high), ``("value", nested list, dtype)``.
Options: ``train`` (default False: the module runs in eval mode), ``no_grad`` (skip
gradients), ``kwargs`` (keyword inputs as source), ``lazy`` (a ``Lazy*`` module: the
recorded state is taken after a first call in eval mode; with ``"load"`` the test loads
it into the uninitialized module, with ``"call"`` (the lazy instance norms, whose
uninitialized state_dict PyTorch cannot load) the test first calls the module once in
eval mode, as the recorder did).
"""

R, U = "randn", "rand"


def r(*shape):
    return (R, shape)


def u(*shape):
    return (U, shape)


def i(high, *shape):
    return ("int", shape, high)


def v(values, dtype="int64"):
    return ("value", values, dtype)


MODULES = [
    # linear
    ("linear", "nn.Linear(5, 3)", [r(4, 5)], {}),
    ("linear", "nn.Linear(5, 3, bias=False)", [r(2, 7, 5)], {}),
    ("linear", "nn.Bilinear(3, 4, 2)", [r(5, 3), r(5, 4)], {}),
    ("linear", "nn.Identity(3, k=1)", [r(2, 3)], {}),
    # conv
    ("conv", "nn.Conv1d(3, 4, 3)", [r(2, 3, 9)], {}),
    ("conv", "nn.Conv1d(4, 4, 3, stride=2, padding=1, groups=2, bias=False)", [r(2, 4, 8)], {}),
    ("conv", "nn.Conv2d(3, 4, 3, padding=1)", [r(2, 3, 6, 5)], {}),
    (
        "conv",
        "nn.Conv2d(2, 6, (3, 2), stride=(2, 1), dilation=(1, 2), groups=2)",
        [r(2, 2, 9, 8)],
        {},
    ),
    ("conv", "nn.Conv2d(2, 3, 3, padding='same', padding_mode='reflect')", [r(1, 2, 5, 6)], {}),
    ("conv", "nn.Conv2d(2, 3, 3, padding=2, padding_mode='circular')", [r(1, 2, 5, 6)], {}),
    ("conv", "nn.Conv2d(2, 3, 3, padding=1, padding_mode='replicate')", [r(2, 5, 6)], {}),
    ("conv", "nn.Conv3d(2, 3, 2, stride=2)", [r(1, 2, 4, 4, 4)], {}),
    ("conv", "nn.ConvTranspose1d(3, 2, 3, stride=2)", [r(2, 3, 5)], {}),
    (
        "conv",
        "nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1, groups=2)",
        [r(1, 4, 4, 3)],
        {},
    ),
    ("conv", "nn.ConvTranspose3d(2, 2, 2, stride=2, bias=False)", [r(1, 2, 2, 3, 2)], {}),
    # pooling
    ("pooling", "nn.MaxPool1d(3, stride=2, padding=1)", [r(2, 3, 9)], {}),
    ("pooling", "nn.MaxPool2d(2)", [r(2, 3, 6, 6)], {}),
    (
        "pooling",
        "nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True, return_indices=True)",
        [r(1, 2, 7, 6)],
        {},
    ),
    ("pooling", "nn.MaxPool3d(2, stride=1)", [r(1, 2, 3, 4, 3)], {}),
    ("pooling", "nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False)", [r(2, 3, 9)], {}),
    ("pooling", "nn.AvgPool2d(3, stride=2, padding=1)", [r(2, 2, 7, 6)], {}),
    ("pooling", "nn.AvgPool2d(2, ceil_mode=True, divisor_override=3)", [r(1, 2, 5, 5)], {}),
    ("pooling", "nn.AvgPool3d(2)", [r(1, 2, 4, 4, 4)], {}),
    ("pooling", "nn.AdaptiveAvgPool1d(4)", [r(2, 3, 10)], {}),
    ("pooling", "nn.AdaptiveAvgPool2d((3, 2))", [r(2, 3, 7, 5)], {}),
    ("pooling", "nn.AdaptiveAvgPool3d(2)", [r(1, 2, 5, 4, 3)], {}),
    ("pooling", "nn.AdaptiveMaxPool1d(3)", [r(2, 3, 8)], {}),
    ("pooling", "nn.AdaptiveMaxPool2d((2, 3), return_indices=True)", [r(1, 2, 5, 7)], {}),
    ("pooling", "nn.LPPool1d(2, 3, stride=2)", [u(2, 3, 9)], {}),
    ("pooling", "nn.LPPool2d(1.5, 2)", [u(1, 2, 6, 4)], {}),
    # activations
    *[
        ("activation", src, [r(3, 4, 5)], {})
        for src in [
            "nn.ReLU()",
            "nn.ReLU6()",
            "nn.LeakyReLU(0.2)",
            "nn.ELU(alpha=0.7)",
            "nn.CELU(1.3)",
            "nn.SELU()",
            "nn.GELU()",
            "nn.GELU(approximate='tanh')",
            "nn.SiLU()",
            "nn.Mish()",
            "nn.Sigmoid()",
            "nn.Tanh()",
            "nn.Softplus(beta=2, threshold=3)",
            "nn.Softsign()",
            "nn.Hardtanh(-0.5, 0.7)",
            "nn.Hardsigmoid()",
            "nn.Hardswish()",
            "nn.Threshold(0.1, -2.0)",
            "nn.Tanhshrink()",
            "nn.Softshrink(0.3)",
            "nn.Hardshrink(0.4)",
            "nn.LogSigmoid()",
            "nn.Softmax(dim=1)",
            "nn.LogSoftmax(dim=-1)",
            "nn.Softmin(dim=0)",
            "nn.Softmax2d()",
            "nn.GLU(dim=1)",
            "nn.PReLU()",
            "nn.RReLU(0.1, 0.3)",
        ]
    ],  # fmt: skip
    ("activation", "nn.PReLU(4, init=0.1)", [r(2, 4, 3)], {}),
    ("activation", "nn.GLU()", [r(3, 6)], {}),
    # normalisation
    ("normalization", "nn.BatchNorm1d(3)", [r(4, 3)], {"train": True}),
    ("normalization", "nn.BatchNorm1d(3, momentum=None)", [r(4, 3, 5)], {"train": True}),
    ("normalization", "nn.BatchNorm2d(3, affine=False)", [r(2, 3, 4, 4)], {"train": True}),
    ("normalization", "nn.BatchNorm2d(3)", [r(2, 3, 4, 4)], {}),
    ("normalization", "nn.BatchNorm3d(2, track_running_stats=False)", [r(2, 2, 3, 3, 2)], {}),
    ("normalization", "nn.InstanceNorm1d(3, affine=True)", [r(2, 3, 6)], {"train": True}),
    (
        "normalization",
        "nn.InstanceNorm2d(3, track_running_stats=True)",
        [r(2, 3, 4, 5)],
        {"train": True},
    ),
    ("normalization", "nn.InstanceNorm3d(2)", [r(2, 2, 3, 3, 3)], {}),
    ("normalization", "nn.LayerNorm(5)", [r(3, 4, 5)], {}),
    ("normalization", "nn.LayerNorm([4, 5], elementwise_affine=False)", [r(3, 4, 5)], {}),
    ("normalization", "nn.LayerNorm(5, bias=False)", [r(3, 5)], {}),
    ("normalization", "nn.GroupNorm(2, 4)", [r(3, 4, 5)], {}),
    ("normalization", "nn.RMSNorm(5)", [r(3, 5)], {}),
    ("normalization", "nn.LocalResponseNorm(3)", [r(2, 5, 4)], {}),
    ("normalization", "nn.LocalResponseNorm(2, alpha=0.01, beta=0.5, k=2.0)", [r(2, 5, 3, 4)], {}),
    (
        "normalization",
        "nn.CrossMapLRN2d(3, alpha=0.01, beta=0.5, k=2.0)",
        [r(2, 5, 3, 4)],
        {"no_grad": True},
    ),
    ("normalization", "nn.CrossMapLRN2d(2)", [r(2, 5, 3, 4)], {"no_grad": True}),
    ("normalization", "nn.SyncBatchNorm(3)", [r(4, 3, 2)], {"train": True}),
    # dropout in eval mode is the identity
    ("dropout", "nn.Dropout(0.3)", [r(4, 5)], {}),
    ("dropout", "nn.Dropout2d(0.3)", [r(2, 3, 4, 4)], {}),
    ("dropout", "nn.AlphaDropout(0.3)", [r(4, 5)], {}),
    # sparse
    ("sparse", "nn.Embedding(10, 3)", [i(10, 4, 5)], {}),
    ("sparse", "nn.Embedding(10, 3, padding_idx=2)", [v([[2, 1, 2], [0, 5, 9]])], {}),
    ("sparse", "nn.Embedding(10, 3, max_norm=1.0)", [v([1, 4, 4, 7])], {}),
    ("sparse", "nn.Embedding(10, 3, scale_grad_by_freq=True)", [v([[1, 4, 4], [7, 1, 4]])], {}),
    ("sparse", "nn.EmbeddingBag(10, 3)", [i(10, 3, 4)], {}),
    (
        "sparse",
        "nn.EmbeddingBag(10, 3, mode='sum')",
        [v([1, 2, 4, 5, 4, 3, 2, 9]), v([0, 3, 5])],
        {},
    ),
    (
        "sparse",
        "nn.EmbeddingBag(10, 3, mode='max')",
        [v([1, 2, 4, 5, 4, 3, 2, 9]), v([0, 3, 5])],
        {},
    ),
    # shapes and resampling
    ("flatten", "nn.Flatten()", [r(2, 3, 4)], {}),
    ("flatten", "nn.Flatten(0, 1)", [r(2, 3, 4)], {}),
    ("flatten", "nn.Unflatten(1, (2, 3))", [r(4, 6)], {}),
    ("misc", "nn.PixelShuffle(2)", [r(1, 8, 3, 3)], {}),
    ("misc", "nn.PixelUnshuffle(2)", [r(1, 2, 4, 6)], {}),
    ("misc", "nn.ChannelShuffle(2)", [r(1, 6, 2, 2)], {}),
    ("misc", "nn.Upsample(scale_factor=2)", [r(1, 2, 3, 3)], {}),
    ("misc", "nn.Upsample(size=(5, 4), mode='bilinear', align_corners=False)", [r(1, 2, 3, 3)], {}),
    ("misc", "nn.UpsamplingBilinear2d(scale_factor=2)", [r(1, 1, 2, 3)], {}),
    ("misc", "nn.Fold((4, 5), 2)", [r(1, 12, 12)], {}),
    ("misc", "nn.Unfold(2, padding=1, stride=2)", [r(1, 3, 4, 5)], {}),
    ("misc", "nn.PairwiseDistance()", [r(4, 5), r(4, 5)], {}),
    ("misc", "nn.CosineSimilarity(dim=1)", [r(4, 5), r(4, 5)], {}),
    ("padding", "nn.ConstantPad1d((1, 2), 3.5)", [r(2, 3, 4)], {}),
    ("padding", "nn.ZeroPad2d((1, 0, 2, 1))", [r(1, 2, 3, 3)], {}),
    ("padding", "nn.ReflectionPad1d(2)", [r(2, 3, 4)], {}),
    ("padding", "nn.ReflectionPad2d((1, 1, 2, 0))", [r(1, 2, 3, 4)], {}),
    ("padding", "nn.ReplicationPad2d(2)", [r(1, 2, 3, 3)], {}),
    ("padding", "nn.ReplicationPad3d(1)", [r(1, 1, 2, 2, 2)], {}),
    ("padding", "nn.CircularPad1d(2)", [r(1, 2, 4)], {}),
    ("padding", "nn.CircularPad2d(1)", [r(1, 2, 3, 3)], {}),
    ("padding", "nn.ConstantPad3d(1, -1.0)", [r(1, 1, 2, 2, 2)], {}),
    # losses: (input, target[, ...])
    ("loss", "nn.L1Loss()", [r(3, 4), r(3, 4)], {}),
    ("loss", "nn.MSELoss(reduction='sum')", [r(3, 4), r(3, 4)], {}),
    ("loss", "nn.MSELoss(reduction='none')", [r(3, 4), r(3, 4)], {}),
    ("loss", "nn.CrossEntropyLoss()", [r(4, 5), i(5, 4)], {}),
    (
        "loss",
        "nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]), label_smoothing=0.1)",
        [r(4, 3, 2), i(3, 4, 2)],
        {},
    ),
    (
        "loss",
        "nn.CrossEntropyLoss(ignore_index=1, reduction='sum')",
        [r(6, 3), v([0, 1, 2, 1, 0, 2])],
        {},
    ),
    ("loss", "nn.CrossEntropyLoss()", [r(3, 4), ("softmax", (3, 4))], {}),
    ("loss", "nn.NLLLoss()", [("log_softmax", (4, 5)), i(5, 4)], {}),
    (
        "loss",
        "nn.NLLLoss(weight=torch.tensor([0.2, 1.0, 3.0]))",
        [("log_softmax", (5, 3)), i(3, 5)],
        {},
    ),
    ("loss", "nn.BCELoss()", [u(3, 4), u(3, 4)], {}),
    ("loss", "nn.BCELoss(weight=torch.tensor([1.0, 2.0, 0.5, 1.5]))", [u(3, 4), u(3, 4)], {}),
    ("loss", "nn.BCEWithLogitsLoss()", [r(3, 4), u(3, 4)], {}),
    (
        "loss",
        "nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5, 3.0]))",
        [r(3, 4), u(3, 4)],
        {},
    ),
    (
        "loss",
        "nn.KLDivLoss(reduction='batchmean')",
        [("log_softmax", (3, 4)), ("softmax", (3, 4))],
        {},
    ),
    (
        "loss",
        "nn.KLDivLoss(log_target=True)",
        [("log_softmax", (3, 4)), ("log_softmax", (3, 4))],
        {},
    ),
    ("loss", "nn.HuberLoss(delta=0.5)", [r(3, 4), r(3, 4)], {}),
    ("loss", "nn.SmoothL1Loss(beta=0.5)", [r(3, 4), r(3, 4)], {}),
    ("loss", "nn.SoftMarginLoss()", [r(3, 4), ("sign", (3, 4))], {}),
    ("loss", "nn.MultiLabelSoftMarginLoss()", [r(3, 4), ("binary", (3, 4))], {}),
    ("loss", "nn.MultiMarginLoss()", [r(4, 5), i(5, 4)], {}),
    (
        "loss",
        "nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.tensor([1.0, 2.0, 0.5]))",
        [r(4, 3), i(3, 4)],
        {},
    ),
    ("loss", "nn.MultiLabelMarginLoss()", [r(2, 4), v([[3, 0, -1, 1], [1, 2, 3, -1]])], {}),
    ("loss", "nn.MarginRankingLoss(margin=0.3)", [r(5), r(5), ("sign", (5,))], {}),
    ("loss", "nn.HingeEmbeddingLoss(margin=0.5)", [r(3, 4), ("sign", (3, 4))], {}),
    ("loss", "nn.CosineEmbeddingLoss(margin=0.2)", [r(4, 5), r(4, 5), ("sign", (4,))], {}),
    ("loss", "nn.TripletMarginLoss(margin=0.5)", [r(4, 5), r(4, 5), r(4, 5)], {}),
    ("loss", "nn.TripletMarginLoss(p=1, swap=True)", [r(4, 5), r(4, 5), r(4, 5)], {}),
    ("loss", "nn.PoissonNLLLoss()", [r(3, 4), ("poisson", (3, 4))], {}),
    ("loss", "nn.PoissonNLLLoss(log_input=False, full=True)", [u(3, 4), ("poisson", (3, 4))], {}),
    ("loss", "nn.GaussianNLLLoss()", [r(3, 4), r(3, 4), u(3, 4)], {}),
    ("loss", "nn.GaussianNLLLoss(full=True, reduction='sum')", [r(3, 4), r(3, 4), u(3, 1)], {}),
    (
        "loss",
        "nn.CTCLoss()",
        [("log_softmax3", (6, 2, 4)), v([[1, 2, 2], [3, 1, 0]]), v([6, 5]), v([3, 2])],
        {},
    ),
    (
        "loss",
        "nn.CTCLoss(blank=3, reduction='sum')",
        [("log_softmax3", (5, 2, 4)), v([1, 2, 0, 0, 1]), v([5, 4]), v([2, 3])],
        {},
    ),
    ("loss", "nn.L1Loss(size_average=False)", [r(3, 4), r(3, 4)], {}),
    ("loss", "nn.MSELoss(reduce=False)", [r(3, 4), r(3, 4)], {}),
    # recurrent
    ("rnn", "nn.RNN(3, 4)", [r(5, 2, 3)], {}),
    ("rnn", "nn.RNN(3, 4, num_layers=2, nonlinearity='relu', batch_first=True)", [r(2, 5, 3)], {}),
    ("rnn", "nn.LSTM(3, 4)", [r(5, 2, 3)], {}),
    ("rnn", "nn.LSTM(3, 4, num_layers=2, bidirectional=True)", [r(5, 2, 3)], {}),
    ("rnn", "nn.LSTM(3, 5, proj_size=2, batch_first=True)", [r(2, 4, 3)], {}),
    ("rnn", "nn.GRU(3, 4)", [r(5, 2, 3)], {}),
    ("rnn", "nn.GRU(3, 4, num_layers=2, bidirectional=True, bias=False)", [r(4, 3)], {}),
    ("rnn", "nn.RNNCell(3, 4)", [r(2, 3)], {}),
    ("rnn", "nn.LSTMCell(3, 4)", [r(2, 3)], {}),
    ("rnn", "nn.GRUCell(3, 4)", [r(2, 3)], {}),
]

MODULES += [
    ("transformer", "nn.MultiheadAttention(8, 2)", [r(5, 3, 8), r(4, 3, 8), r(4, 3, 8)], {}),
    (
        "transformer",
        "nn.MultiheadAttention(8, 2, batch_first=True, add_bias_kv=True, add_zero_attn=True, kdim=6, vdim=5)",
        [r(3, 5, 8), r(3, 4, 6), r(3, 4, 5)],
        {
            "kwargs": {
                "key_padding_mask": v(
                    [[False, False, True, True], [False] * 4, [False, True, False, False]], "bool"
                )
            }
        },
    ),
    (
        "transformer",
        "nn.MultiheadAttention(8, 4, bias=False)",
        [r(5, 2, 8), r(5, 2, 8), r(5, 2, 8)],
        {"kwargs": {"attn_mask": ("causal_bool", 5), "average_attn_weights": ("const", False)}},
    ),
    ("transformer", "nn.MultiheadAttention(6, 3)", [r(4, 6), r(5, 6), r(5, 6)], {}),
    ("transformer", "nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)", [r(5, 3, 8)], {}),
    (
        "transformer",
        "nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=True, activation='gelu', batch_first=True)",
        [r(3, 5, 8)],
        {
            "kwargs": {
                "src_key_padding_mask": v(
                    [[False] * 5, [False, False, False, True, True], [False] * 4 + [True]], "bool"
                )
            }
        },
    ),
    (
        "transformer",
        "nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)",
        [r(4, 3, 8), r(6, 3, 8)],
        {"kwargs": {"tgt_mask": ("causal_float", 4)}},
    ),
    (
        "transformer",
        "nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True)",
        [r(4, 3, 8), r(6, 3, 8)],
        {},
    ),
    (
        "transformer",
        "nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=1, dim_feedforward=16, dropout=0.0)",
        [r(6, 2, 8), r(4, 2, 8)],
        {},
    ),
]

MODULES += [
    ("utils", "nn.utils.spectral_norm(nn.Linear(4, 3))", [r(2, 4)], {"train": True}),
    (
        "utils",
        "nn.utils.spectral_norm(nn.Conv2d(2, 3, 3), n_power_iterations=3)",
        [r(1, 2, 5, 5)],
        {"train": True},
    ),
    ("utils", "nn.utils.spectral_norm(nn.ConvTranspose2d(2, 3, 3))", [r(1, 2, 4, 4)], {}),
    ("utils", "nn.utils.weight_norm(nn.Linear(4, 3))", [r(2, 4)], {}),
    ("utils", "nn.utils.weight_norm(nn.Conv1d(2, 3, 3), dim=None)", [r(2, 2, 6)], {}),
    ("utils", "nn.utils.weight_norm(nn.Conv2d(2, 3, 2), dim=1)", [r(1, 2, 4, 4)], {}),
]

# modules without a case above: containers, lazy modules, the rest of each family
MODULES += [
    ("container", "nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))", [r(5, 4)], {}),
    (
        "container",
        "nn.Sequential(OrderedDict([('conv', nn.Conv1d(2, 3, 2)), ('bn', nn.BatchNorm1d(3)), ('act', nn.Tanh())]))",
        [r(2, 2, 5)],
        {"train": True},
    ),
    ("container", "nn.DataParallel(nn.Linear(3, 2))", [r(4, 3)], {}),
    ("linear", "nn.LazyLinear(3)", [r(4, 5)], {"lazy": "load"}),
    ("conv", "nn.LazyConv1d(4, 3)", [r(2, 3, 7)], {"lazy": "load"}),
    ("conv", "nn.LazyConv2d(4, 3, padding=1)", [r(2, 3, 5, 4)], {"lazy": "load"}),
    ("conv", "nn.LazyConv3d(2, 2)", [r(1, 2, 3, 3, 3)], {"lazy": "load"}),
    ("conv", "nn.LazyConvTranspose1d(2, 3, stride=2)", [r(2, 3, 4)], {"lazy": "load"}),
    ("conv", "nn.LazyConvTranspose2d(2, 3)", [r(1, 3, 3, 4)], {"lazy": "load"}),
    ("conv", "nn.LazyConvTranspose3d(2, 2)", [r(1, 2, 2, 3, 2)], {"lazy": "load"}),
    ("normalization", "nn.LazyBatchNorm1d()", [r(4, 3)], {"lazy": "load", "train": True}),
    ("normalization", "nn.LazyBatchNorm2d()", [r(2, 3, 3, 4)], {"lazy": "load", "train": True}),
    ("normalization", "nn.LazyBatchNorm3d()", [r(2, 2, 2, 3, 2)], {"lazy": "load"}),
    ("normalization", "nn.LazyInstanceNorm1d(affine=True)", [r(2, 3, 6)], {"lazy": "call"}),
    (
        "normalization",
        "nn.LazyInstanceNorm2d(track_running_stats=True)",
        [r(2, 3, 4, 5)],
        {"lazy": "call", "train": True},
    ),
    ("normalization", "nn.LazyInstanceNorm3d()", [r(1, 2, 3, 3, 3)], {"lazy": "call"}),
    ("pooling", "nn.AdaptiveMaxPool3d(2)", [r(1, 2, 4, 5, 3)], {}),
    ("pooling", "nn.LPPool3d(2, 2)", [u(1, 2, 4, 4, 4)], {}),
    ("pooling", "nn.MaxUnpool1d(2)", [r(1, 2, 3), v([[[1, 2, 5], [0, 3, 4]]])], {}),
    ("pooling", "nn.MaxUnpool2d(2)", [r(1, 1, 2, 2), v([[[[0, 3], [9, 14]]]])], {}),
    ("pooling", "nn.MaxUnpool3d(2)", [r(1, 1, 1, 1, 2), v([[[[[5, 10]]]]])], {}),
    ("dropout", "nn.Dropout1d(0.3)", [r(2, 3, 4)], {}),
    ("dropout", "nn.Dropout3d(0.3)", [r(1, 2, 2, 2, 2)], {}),
    ("dropout", "nn.FeatureAlphaDropout(0.3)", [r(2, 3, 4)], {}),
    ("padding", "nn.ConstantPad2d((1, 0, 2, 1), -0.5)", [r(1, 2, 3, 3)], {}),
    ("padding", "nn.ZeroPad1d((2, 1))", [r(2, 3, 4)], {}),
    ("padding", "nn.ZeroPad3d(1)", [r(1, 1, 2, 2, 2)], {}),
    ("padding", "nn.ReflectionPad3d(1)", [r(1, 1, 2, 3, 3)], {}),
    ("padding", "nn.ReplicationPad1d((1, 3))", [r(2, 3, 4)], {}),
    ("padding", "nn.CircularPad3d(1)", [r(1, 1, 2, 2, 3)], {}),
    ("misc", "nn.UpsamplingNearest2d(size=(5, 4))", [r(1, 2, 3, 2)], {}),
    ("loss", "nn.TripletMarginWithDistanceLoss(margin=0.5)", [r(4, 5), r(4, 5), r(4, 5)], {}),
    (
        "loss",
        "nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(p=1), swap=True, reduction='sum')",
        [r(4, 5), r(4, 5), r(4, 5)],
        {},
    ),
    ("loss", "nn.NLLLoss2d()", [("log_softmax", (2, 3, 2, 2)), i(3, 2, 2, 2)], {}),
    ("loss", "nn.NLLLoss(reduction='none')", [("log_softmax", (2, 3, 4)), i(3, 2, 4)], {}),
    ("rnn", "nn.GRU(3, 4)", [r(5, 2, 3), r(1, 2, 4)], {}),
    ("rnn", "nn.RNN(3, 4, batch_first=True, bidirectional=True)", [r(2, 5, 3), r(2, 2, 4)], {}),
    (
        "transformer",
        "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, norm=nn.LayerNorm(8), enable_nested_tensor=False)",
        [r(5, 2, 8)],
        {},
    ),
    (
        "transformer",
        "nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2)",
        [r(2, 4, 8), r(2, 5, 8)],
        {},
    ),
    # parametrizations (torch.nn.utils.parametrize / parametrizations): the state_dict holds
    # parametrizations.weight.original(0/1) and the parametrizations' buffers
    ("parametrize", "nn.utils.parametrizations.weight_norm(nn.Linear(5, 3))", [r(4, 5)], {}),
    (
        "parametrize",
        "nn.utils.parametrizations.weight_norm(nn.Conv2d(2, 3, 3), dim=None)",
        [r(1, 2, 5, 5)],
        {},
    ),
    (
        "parametrize",
        "nn.utils.parametrizations.weight_norm(nn.Conv1d(2, 4, 3), dim=1)",
        [r(2, 2, 6)],
        {},
    ),
    (
        "parametrize",
        "nn.utils.parametrizations.spectral_norm(nn.Linear(5, 3))",
        [r(4, 5)],
        {"train": True},
    ),
    (
        "parametrize",
        "nn.utils.parametrizations.spectral_norm(nn.Linear(5, 3), n_power_iterations=3)",
        [r(4, 5)],
        {},
    ),
    (
        "parametrize",
        "nn.utils.parametrizations.spectral_norm(nn.Conv2d(2, 3, 3))",
        [r(1, 2, 5, 5)],
        {"train": True},
    ),
    (
        "parametrize",
        "nn.utils.parametrizations.spectral_norm(nn.ConvTranspose2d(2, 3, 2), n_power_iterations=2)",
        [r(1, 2, 3, 3)],
        {"train": True},
    ),
    ("parametrize", "nn.utils.parametrizations.orthogonal(nn.Linear(4, 4))", [r(3, 4)], {}),
    (
        "parametrize",
        "nn.utils.parametrizations.orthogonal(nn.Linear(4, 4), orthogonal_map='cayley')",
        [r(3, 4)],
        {},
    ),
    ("parametrize", "nn.utils.parametrizations.orthogonal(nn.Linear(3, 5))", [r(2, 3)], {}),
    ("parametrize", "nn.utils.parametrizations.orthogonal(nn.Linear(5, 3))", [r(2, 5)], {}),
    (
        "parametrize",
        "nn.utils.parametrizations.orthogonal(nn.Linear(3, 5), orthogonal_map='matrix_exp')",
        [r(2, 3)],
        {},
    ),
    (
        "parametrize",
        "nn.utils.parametrizations.orthogonal(nn.Linear(4, 4), use_trivialization=False)",
        [r(3, 4)],
        {},
    ),
    (
        "parametrize",
        "nn.utils.parametrize.register_parametrization(nn.Linear(4, 3), 'weight', nn.Tanh())",
        [r(2, 4)],
        {},
    ),
    (
        "parametrize",
        "nn.utils.parametrize.register_parametrization(nn.utils.parametrize.register_parametrization(nn.Linear(4, 3), 'weight', nn.Tanh()), 'weight', nn.Hardtanh(-0.2, 0.2))",
        [r(2, 4)],
        {},
    ),
    (
        "parametrize",
        "nn.utils.parametrize.register_parametrization(nn.utils.parametrizations.weight_norm(nn.Linear(4, 3)), 'bias', nn.Softsign())",
        [r(2, 4)],
        {},
    ),
]

# repr strings (the module is built and printed)
REPRS = [
    "nn.Linear(3, 4)", "nn.Linear(3, 4, bias=False)", "nn.Bilinear(2, 3, 4)", "nn.Identity()",
    "nn.Conv1d(3, 4, 3)", "nn.Conv2d(3, 4, (3, 5), stride=2, padding=(1, 2), dilation=2, groups=1, bias=False)",
    "nn.Conv2d(4, 4, 3, padding='same', groups=2, padding_mode='reflect')",
    "nn.Conv3d(1, 2, 3, padding='valid')", "nn.ConvTranspose2d(3, 4, 3, stride=2, output_padding=1)",
    "nn.MaxPool2d(2)", "nn.MaxPool1d(3, stride=1, padding=1, dilation=2, ceil_mode=True)",
    "nn.AvgPool1d(3)", "nn.AvgPool2d(3, stride=2)", "nn.AvgPool3d((1, 2, 2))",
    "nn.AdaptiveAvgPool2d((5, 7))", "nn.AdaptiveMaxPool1d(3)", "nn.LPPool2d(2, 3)",
    "nn.MaxUnpool2d(2)", "nn.MaxUnpool1d(2, stride=1)",
    "nn.ReLU()", "nn.ReLU(inplace=True)", "nn.ReLU6()", "nn.LeakyReLU()", "nn.LeakyReLU(0.2, True)",
    "nn.ELU()", "nn.CELU(0.5)", "nn.SELU()", "nn.GELU()", "nn.SiLU()", "nn.Mish()",
    "nn.Sigmoid()", "nn.Tanh()", "nn.Softplus()", "nn.Softsign()", "nn.Hardtanh()",
    "nn.Hardsigmoid()", "nn.Hardswish()", "nn.Threshold(0.1, 20)", "nn.Tanhshrink()",
    "nn.Softshrink()", "nn.Hardshrink()", "nn.LogSigmoid()", "nn.Softmax(dim=1)",
    "nn.LogSoftmax()", "nn.Softmin(1)", "nn.Softmax2d()", "nn.GLU()", "nn.PReLU(3)",
    "nn.RReLU()", "nn.BatchNorm1d(3)", "nn.BatchNorm2d(3, momentum=None, affine=False)",
    "nn.BatchNorm3d(3, eps=0.001, track_running_stats=False)", "nn.InstanceNorm2d(3)",
    "nn.LayerNorm(4)", "nn.LayerNorm([2, 3], elementwise_affine=False)", "nn.GroupNorm(2, 4)",
    "nn.RMSNorm(3)", "nn.LocalResponseNorm(2)", "nn.CrossMapLRN2d(3)", "nn.SyncBatchNorm(3)", "nn.Dropout()", "nn.Dropout(0.2, inplace=True)",
    "nn.Dropout1d()", "nn.Dropout2d(0.1)", "nn.AlphaDropout()", "nn.FeatureAlphaDropout()",
    "nn.Embedding(10, 3)", "nn.Embedding(10, 3, padding_idx=-1, max_norm=2.0, norm_type=1.0, scale_grad_by_freq=True)",
    "nn.EmbeddingBag(10, 3)", "nn.EmbeddingBag(10, 3, mode='sum', padding_idx=0)",
    "nn.Flatten()", "nn.Unflatten(1, (2, 3))", "nn.PixelShuffle(2)", "nn.PixelUnshuffle(2)",
    "nn.ChannelShuffle(2)", "nn.Upsample(scale_factor=2)", "nn.Upsample(size=(3, 4), mode='bilinear')",
    "nn.UpsamplingNearest2d(scale_factor=2)", "nn.Fold((4, 5), 2)", "nn.Unfold(2, padding=1)",
    "nn.PairwiseDistance()", "nn.CosineSimilarity()", "nn.ConstantPad1d(2, 3.5)",
    "nn.ConstantPad2d((1, 2, 3, 4), 0.0)", "nn.ZeroPad2d(1)", "nn.ReflectionPad1d(2)",
    "nn.ReplicationPad3d(1)", "nn.CircularPad2d((1, 0, 1, 0))",
    "nn.L1Loss()", "nn.MSELoss()", "nn.CrossEntropyLoss()", "nn.NLLLoss()", "nn.BCELoss()",
    "nn.BCEWithLogitsLoss()", "nn.KLDivLoss()", "nn.HuberLoss()", "nn.SmoothL1Loss()",
    "nn.SoftMarginLoss()", "nn.MultiLabelSoftMarginLoss()", "nn.MultiMarginLoss()",
    "nn.MarginRankingLoss()", "nn.HingeEmbeddingLoss()", "nn.CosineEmbeddingLoss()",
    "nn.TripletMarginLoss()", "nn.PoissonNLLLoss()", "nn.GaussianNLLLoss()", "nn.CTCLoss()",
    "nn.RNN(3, 4)", "nn.RNN(3, 4, num_layers=2, nonlinearity='relu', bias=False, batch_first=True, dropout=0.5, bidirectional=True)",
    "nn.LSTM(3, 4, proj_size=2)", "nn.GRU(3, 4, 2)", "nn.RNNCell(3, 4)", "nn.RNNCell(3, 4, bias=False, nonlinearity='relu')",
    "nn.LSTMCell(3, 4)", "nn.GRUCell(3, 4)", "nn.MultiheadAttention(8, 2)",
    "nn.MultiheadAttention(8, 2, kdim=3, vdim=4, add_bias_kv=True)",
    "nn.TransformerEncoderLayer(8, 2, 16)", "nn.TransformerDecoderLayer(8, 2, 16, activation='gelu')",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 2, enable_nested_tensor=False)",
    "nn.Transformer(8, 2, 1, 1, 16)",
    "nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 3), nn.Tanh()))",
    "nn.Sequential(OrderedDict([('conv', nn.Conv2d(1, 2, 3)), ('act', nn.ReLU())]))",
    "nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])",
    "nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.ReLU(), nn.Linear(2, 3)])",
    "nn.ModuleList()", "nn.Sequential()",
    "nn.ModuleDict({'a': nn.ReLU(), 'b': nn.Sequential(nn.Linear(1, 1))})",
    "nn.ParameterList([nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(3, 4, dtype=torch.float64))])",
    "nn.ParameterList([nn.Parameter(torch.zeros(2))])",
    "nn.ParameterDict({'a': nn.Parameter(torch.zeros(2)), 'b': nn.Parameter(torch.ones(1, 2))})",
    "nn.ParameterDict({'scale': nn.Parameter(torch.ones(1))})",
    "nn.AdaptiveAvgPool1d(3)", "nn.AdaptiveAvgPool3d((1, None, 3))", "nn.AdaptiveMaxPool2d(2, return_indices=True)",
    "nn.AdaptiveMaxPool3d(2)", "nn.MaxPool3d(2, return_indices=True)", "nn.MaxUnpool3d(2, padding=1)",
    "nn.LPPool1d(2, 3)", "nn.LPPool3d(1.5, 2, stride=1, ceil_mode=True)",
    "nn.ConvTranspose1d(2, 3, 3, dilation=2, padding_mode='zeros')", "nn.ConvTranspose3d(1, 2, (1, 2, 2), stride=(1, 2, 2), bias=False)",
    "nn.Dropout3d()", "nn.InstanceNorm1d(3, affine=True)", "nn.InstanceNorm3d(2, track_running_stats=True)",
    "nn.CircularPad1d(1)", "nn.CircularPad3d(1)", "nn.ConstantPad3d(1, 2.0)", "nn.ReflectionPad2d(1)",
    "nn.ReflectionPad3d((1, 0, 1, 0, 1, 0))", "nn.ReplicationPad1d(2)", "nn.ReplicationPad2d((1, 0, 1, 0))",
    "nn.ZeroPad1d(2)", "nn.ZeroPad3d(1)", "nn.UpsamplingBilinear2d(scale_factor=2)",
    "nn.MultiLabelMarginLoss()", "nn.TripletMarginWithDistanceLoss()", "nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance(), margin=0.5)",
    "nn.NLLLoss2d()", "nn.CrossEntropyLoss(weight=torch.ones(3), label_smoothing=0.1)", "nn.L1Loss(reduction='sum')",
    "nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 2, norm=nn.LayerNorm(8))",
    "nn.LazyLinear(3)", "nn.LazyLinear(3, bias=False)", "nn.LazyConv1d(4, 3)", "nn.LazyConv2d(4, 3, stride=2)", "nn.LazyConv3d(2, 2)",
    "nn.LazyConvTranspose1d(2, 3)", "nn.LazyConvTranspose2d(2, 3, output_padding=0)", "nn.LazyConvTranspose3d(2, 2)",
    "nn.LazyBatchNorm1d()", "nn.LazyBatchNorm2d(momentum=None)", "nn.LazyBatchNorm3d(affine=False)",
    "nn.LazyInstanceNorm1d()", "nn.LazyInstanceNorm2d(affine=True)", "nn.LazyInstanceNorm3d(track_running_stats=True)",
    "nn.DataParallel(nn.Linear(2, 2))",
    "nn.Sequential(nn.Sequential(nn.Sequential(nn.ReLU())), nn.ModuleDict({'x': nn.ModuleList([nn.Tanh(), nn.Tanh()])}))",
    "nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))",
    "nn.utils.parametrizations.spectral_norm(nn.Conv2d(2, 3, 3))",
    "nn.utils.parametrizations.orthogonal(nn.Linear(3, 5))",
    "nn.utils.parametrize.register_parametrization(nn.utils.parametrize.register_parametrization(nn.BatchNorm1d(2), 'running_mean', nn.Tanh()), 'running_mean', nn.ReLU())",
    "nn.Sequential(nn.utils.parametrizations.weight_norm(nn.Linear(3, 2)), nn.ReLU())",
]  # fmt: skip

# nn.functional expressions over deterministic inputs; results or exception messages
FUNCTIONAL_SETUP = """
x = torch.linspace(-3, 3, 24).reshape(2, 3, 4)
img = torch.linspace(-1, 2, 2 * 3 * 5 * 4).reshape(2, 3, 5, 4)
p = torch.softmax(torch.linspace(-1, 1, 12).reshape(3, 4), 1)
t = torch.tensor([0, 3, 1])
"""
FUNCTIONAL = [
    "F.one_hot(torch.tensor([0, 2, 1]))",
    "F.one_hot(torch.tensor([[0], [2]]), 4)",
    "F.one_hot(torch.tensor([0.0]))",
    "F.one_hot(torch.tensor([5]), 3)",
    "F.normalize(x)",
    "F.normalize(x, p=1, dim=-1)",
    "F.pdist(x[0])",
    "F.pairwise_distance(x[0], x[1], p=3)",
    "F.cosine_similarity(x[0], x[1], dim=0)",
    "F.softmax(x, dim=1)",
    "F.log_softmax(x, dim=2, dtype=torch.float64)",
    "F.softmin(x, 0)",
    "F.relu6(x)",
    "F.elu(x, 0.5)",
    "F.leaky_relu(x, 0.3)",
    "F.gelu(x, approximate='tanh')",
    "F.hardtanh(x, -2.0, 2.5)",
    "F.threshold(x, 0.5, -1.0)",
    "F.glu(x, 2)",
    "F.softplus(x, beta=0.5)",
    "F.rrelu(x, 0.1, 0.3)",
    "F.linear(x, torch.ones(2, 4), torch.tensor([0.5, -0.5]))",
    "F.bilinear(x[0], x[1], torch.linspace(-1, 1, 32).reshape(2, 4, 4))",
    "F.conv2d(img, torch.linspace(-1, 1, 3 * 3 * 2 * 2).reshape(3, 3, 2, 2), padding='same')",
    "F.conv1d(x, torch.ones(2, 3, 2), stride=2)",
    "F.conv_transpose2d(img, torch.linspace(-1, 1, 3 * 2 * 2 * 2).reshape(3, 2, 2, 2), stride=2)",
    "F.max_pool2d(img, 2, return_indices=True)",
    "F.max_pool2d_with_indices(img, 3, 1, 1)",
    "F.avg_pool2d(img, 2, ceil_mode=True)",
    "F.adaptive_avg_pool2d(img, (2, 3))",
    "F.adaptive_max_pool1d(x, 2, return_indices=True)",
    "F.lp_pool1d(x.abs(), 2, 2)",
    "F.max_unpool2d(*F.max_pool2d(img, 2, return_indices=True), 2)",
    "F.unfold(img, 2, stride=2)",
    "F.fold(F.unfold(img, 2), (5, 4), 2)",
    "F.interpolate(img, scale_factor=2, mode='nearest')",
    "F.interpolate(img, size=(7, 3), mode='bilinear', align_corners=True)",
    "F.interpolate(x, size=6, mode='linear')",
    "F.pad(x, (1, 2), mode='reflect')",
    "F.pad(x, (1, 1, 2, 0), value=-1.0)",
    "F.pixel_shuffle(torch.arange(16.0).reshape(1, 4, 2, 2), 2)",
    "F.channel_shuffle(img, 3)",
    "F.layer_norm(x, (4,))",
    "F.group_norm(img, 3)",
    "F.instance_norm(img)",
    "F.local_response_norm(img, 2)",
    "F.batch_norm(img, torch.zeros(3), torch.ones(3), training=False)",
    "F.rms_norm(x, (4,), eps=1e-6)",
    "F.dropout(x, 0.5, training=False)",
    "F.dropout(x, 1.5)",
    "F.embedding(t, torch.linspace(0, 1, 20).reshape(5, 4), padding_idx=1)",
    "F.embedding_bag(t, torch.linspace(0, 1, 20).reshape(5, 4), torch.tensor([0, 2]), mode='sum')",
    "F.cross_entropy(x[0].t(), torch.tensor([0, 1, 2, 1]), label_smoothing=0.2)",
    "F.cross_entropy(x, torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]]), reduction='none')",
    "F.nll_loss(torch.log(p), torch.tensor([0, 3, 1]), size_average=False)",
    "F.nll_loss(torch.log(p), torch.tensor([0, 3, 1]), reduce=False)",
    "F.mse_loss(x[0], x[1], size_average=True, reduce=True)",
    "F.l1_loss(x[0], x[1], reduction='sum')",
    "F.smooth_l1_loss(x[0], x[1], beta=2.0)",
    "F.huber_loss(x[0], x[1], delta=2.0)",
    "F.binary_cross_entropy(p, torch.ones(3, 4) * 0.3)",
    "F.binary_cross_entropy_with_logits(x[0], torch.ones(3, 4) * 0.3, pos_weight=torch.ones(4) * 2)",
    "F.kl_div(torch.log(p), p.flip(0), reduction='batchmean')",
    "F.poisson_nll_loss(x[0], torch.ones(3, 4) * 2, full=True)",
    "F.gaussian_nll_loss(x[0], x[1], torch.ones(3, 1) * 0.5)",
    "F.hinge_embedding_loss(x[0], torch.tensor([1.0, -1.0, 1.0, -1.0]))",
    "F.margin_ranking_loss(x[0, 0], x[1, 0], torch.tensor([1.0, -1.0, 1.0, -1.0]))",
    "F.soft_margin_loss(x[0], torch.ones(3, 4))",
    "F.multi_margin_loss(x[0], torch.tensor([0, 3, 1]))",
    "F.multilabel_margin_loss(x[0], torch.tensor([[0, 3, -1, 0], [1, -1, 0, 0], [3, 2, 1, 0]]))",
    "F.multilabel_soft_margin_loss(x[0], (x[1] > 0).float())",
    "F.cosine_embedding_loss(x[0], x[1], torch.tensor([1.0, -1.0, 1.0]))",
    "F.triplet_margin_loss(x[0], x[1], x[0].flip(0))",
    "F.triplet_margin_with_distance_loss(x[0], x[1], x[0].flip(0), swap=True)",
    "F.ctc_loss(torch.log_softmax(img[0].permute(1, 2, 0).reshape(5, 4, 3), 2), torch.tensor([[1, 2], [1, 1], [2, 1], [1, 2]]), [5, 5, 4, 3], [2, 2, 2, 1])",
    "F.conv_tbc(x.permute(2, 0, 1).contiguous(), torch.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4), torch.ones(4), 1)",
    "torch.nn.grad.conv2d_input(img.shape, torch.linspace(-1, 1, 3 * 3 * 2 * 2).reshape(3, 3, 2, 2), img[:, :, :4, :3] * 1)",
    "torch.nn.grad.conv1d_weight(x, (2, 3, 2), x[:, :2, :3], stride=1)",
    "torch.nn.utils.fuse_linear_bn_weights(torch.linspace(-1, 1, 8).reshape(2, 4), torch.tensor([0.3, -0.1]), torch.tensor([0.1, 0.2]), torch.tensor([1.5, 0.5]), 1e-5, torch.tensor([2.0, 3.0]), torch.tensor([0.5, 0.25]))",
    "F.scaled_dot_product_attention(x, x.flip(1), x * 2)",
    "F.scaled_dot_product_attention(img[0], img[1], img[0], is_causal=True)",
    "F.scaled_dot_product_attention(x, x, x, attn_mask=torch.tensor([[True, False, True]] * 3), scale=0.3)",
    "F.scaled_dot_product_attention(img, img[:, :1], img[:, :1], enable_gqa=True)",
    "(torch.manual_seed(5), F.rrelu(x, training=True))[1]",
    "(torch.manual_seed(5), F.dropout(x, 0.3))[1]",
    "(torch.manual_seed(5), F.dropout2d(img, 0.5))[1]",
    "(torch.manual_seed(5), F.dropout1d(x, 0.5))[1]",
    "(torch.manual_seed(5), F.alpha_dropout(x, 0.4, True))[1]",
    "(torch.manual_seed(5), F.feature_alpha_dropout(img, 0.4, True))[1]",
    "(torch.manual_seed(5), F.gumbel_softmax(x, tau=0.5))[1]",
    "(torch.manual_seed(5), F.gumbel_softmax(x, hard=True, dim=1))[1]",
    "F.mse_loss(x[0], x[1], reduction='avg')",
    "F.cross_entropy(x[0], torch.tensor([0, 7, 1]))",
    "F.affine_grid(torch.tensor([[[1.0, 0.2, 0.1], [0.0, 0.9, -0.1]]]), (1, 1, 2, 3), align_corners=False)",
    "F.grid_sample(img, F.affine_grid(torch.tensor([[[0.9, 0.1, 0.0], [0.0, 1.1, 0.1]]]).expand(2, 2, 3), (2, 3, 3, 2), align_corners=False), align_corners=False)",
]

# torch.nn.utils.parametrize behaviours: each case runs its setup (statements, with
# deterministic values) and records the result expression (tensors, lists, strings) or
# the exception raised by the setup or the expression
PARAMETRIZE_SETUP = """
from torch.nn.utils import parametrize as P, parametrizations as PZ
def fill(m, scale=0.3, shift=0.05):
    with torch.no_grad():
        for v in m.state_dict().values():
            if v.is_floating_point():
                v.copy_(torch.linspace(-1, 1, v.numel()).reshape(v.shape) * scale + shift)
    return m
class Scale(nn.Module):
    def forward(self, X):
        return X * 2
    def right_inverse(self, X):
        return X / 2
class Split(nn.Module):
    def forward(self, A, B):
        return A + B
    def right_inverse(self, X):
        return X * 0.25, X * 0.75
class Sym(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).mT
"""
PARAMETRIZE = {
    "keys_weight_norm": ("m = PZ.weight_norm(nn.Linear(3, 2))", "[list(m.state_dict()), [n for n, _ in m.named_parameters()], type(m).__name__]"),
    "keys_spectral_norm": ("m = PZ.spectral_norm(nn.Linear(3, 2))", "[list(m.state_dict()), [n for n, _ in m.named_buffers()], [n for n, _ in m.named_modules()]]"),
    "keys_orthogonal": ("m = PZ.orthogonal(nn.Linear(3, 5))", "[list(m.state_dict()), m.parametrizations.weight[0].orthogonal_map.name]"),
    "keys_buffer": ("m = P.register_parametrization(nn.BatchNorm1d(2), 'running_mean', Scale())", "[list(m.state_dict()), [n for n, _ in m.named_buffers()]]"),
    "keys_split": ("m = fill(P.register_parametrization(nn.Linear(2, 2), 'weight', Split()))", "[list(m.state_dict()), m.parametrizations.weight.original0.requires_grad]"),
    "original_is_the_weight": ("m = nn.Linear(3, 3); w = m.weight; P.register_parametrization(m, 'weight', Sym())", "[m.parametrizations.weight.original is w, type(m.parametrizations.weight).__name__]"),
    "is_parametrized": ("m = P.register_parametrization(nn.Linear(3, 3), 'weight', Sym())", "[P.is_parametrized(m), P.is_parametrized(m, 'weight'), P.is_parametrized(m, 'bias'), P.is_parametrized(nn.Linear(1, 1)), P.type_before_parametrizations(m).__name__]"),
    "right_inverse_init": ("w = torch.linspace(-1, 1, 4).reshape(2, 2); m = nn.Linear(2, 2); m.weight.data.copy_(w); P.register_parametrization(m, 'weight', Scale())", "[m.parametrizations.weight.original, m.weight]"),
    "assign_right_inverse": ("m = P.register_parametrization(nn.Linear(2, 2), 'weight', Scale()); m.weight = torch.tensor([[1.0, 2.0], [3.0, 4.0]])", "[m.parametrizations.weight.original, m.weight]"),
    "assign_weight_norm": ("m = PZ.weight_norm(nn.Linear(2, 2)); m.weight = torch.tensor([[3.0, 4.0], [0.0, -2.0]])", "[m.parametrizations.weight.original0, m.parametrizations.weight.original1, m.weight]"),
    "assign_no_inverse": ("m = P.register_parametrization(nn.Linear(2, 2), 'weight', Sym())", "setattr(m, 'weight', torch.eye(2))"),
    "assign_orthogonal_shape": ("m = PZ.orthogonal(nn.Linear(3, 2))", "setattr(m, 'weight', torch.ones(3, 3))"),
    "assign_orthogonal_notriv": ("m = PZ.orthogonal(nn.Linear(4, 4), orthogonal_map='householder', use_trivialization=False); m.weight = torch.linalg.qr(torch.linspace(-1, 1, 16).reshape(4, 4) + 2 * torch.eye(4)).Q", "[m.weight, m.parametrizations.weight.original]"),
    "assign_orthogonal_triv": ("m = PZ.orthogonal(nn.Linear(3, 3)); m.weight = torch.linspace(-1, 1, 9).reshape(3, 3) + torch.eye(3)", "[m.weight, m.parametrizations.weight.original, m.parametrizations.weight[0].base]"),
    "remove_leave": ("m = fill(P.register_parametrization(nn.Linear(3, 3), 'weight', Sym())); w = m.weight; P.remove_parametrizations(m, 'weight')", "[type(m).__name__, list(m.state_dict()), m.weight, hasattr(m, 'parametrizations'), type(m.weight).__name__]"),
    "remove_original": ("m = fill(P.register_parametrization(nn.Linear(3, 3), 'weight', Sym())); P.remove_parametrizations(m, 'weight', leave_parametrized=False)", "[list(m.state_dict()), m.weight]"),
    "remove_split": ("m = fill(P.register_parametrization(nn.Linear(2, 2), 'weight', Split())); P.remove_parametrizations(m, 'weight')", "[list(m.state_dict()), m.weight, type(m.weight).__name__]"),
    "remove_split_original": ("m = P.register_parametrization(nn.Linear(2, 2), 'weight', Split())", "P.remove_parametrizations(m, 'weight', leave_parametrized=False)"),
    "remove_missing": ("m = P.register_parametrization(nn.Linear(2, 2), 'weight', Sym())", "P.remove_parametrizations(m, 'bias')"),
    "remove_one_of_two": ("m = fill(P.register_parametrization(P.register_parametrization(nn.Linear(2, 2), 'weight', Sym()), 'bias', Scale())); P.remove_parametrizations(m, 'weight')", "[type(m).__name__, list(m.state_dict()), m.bias]"),
    "missing_name": ("m = nn.Linear(2, 2)", "P.register_parametrization(m, 'nothing', Sym())"),
    "shape_check": ("m = nn.Linear(2, 2)", "P.register_parametrization(m, 'weight', nn.Flatten(0))"),
    "shape_unsafe": ("m = fill(P.register_parametrization(nn.Linear(2, 2), 'weight', nn.Flatten(0), unsafe=True))", "[m.weight, list(m.state_dict())]"),
    "cached": ("m = P.register_parametrization(nn.Linear(2, 2), 'weight', Sym())\nplain = m.weight is m.weight\nwith P.cached():\n    inside = m.weight is m.weight\nafter = m.weight is m.weight", "[plain, inside, after]"),
    "pickle": ("import pickle; m = P.register_parametrization(nn.Linear(2, 2), 'weight', Sym())", "pickle.dumps(m)"),
    "deepcopy": ("import copy; m = fill(PZ.weight_norm(nn.Linear(2, 2))); c = copy.deepcopy(m)", "[type(c).__name__, list(c.state_dict()), c.weight, c.weight.grad_fn is not None, c.parametrizations.weight.original0 is m.parametrizations.weight.original0]"),
    "orthogonal_map_error": ("m = nn.Linear(3, 3)", "PZ.orthogonal(m, orthogonal_map='foo')"),
    "orthogonal_vector_error": ("m = nn.BatchNorm1d(3)", "PZ.orthogonal(m)"),
    "spectral_dim_error": ("m = nn.Linear(3, 3)", "PZ.spectral_norm(m, dim=3)"),
    "spectral_iterations_error": ("m = nn.Linear(3, 3)", "PZ.spectral_norm(m, n_power_iterations=0)"),
    "spectral_transposed_dim": ("m = PZ.spectral_norm(nn.ConvTranspose2d(3, 2, 2))", "[m.parametrizations.weight[0].dim, list(m.parametrizations.weight[0]._u.shape), list(m.parametrizations.weight[0]._v.shape)]"),
    "weight_norm_old_layout": ("old = fill(nn.Linear(3, 2)); g = old.weight.norm(dim=1, keepdim=True); state = {'weight_g': g, 'weight_v': old.weight.detach(), 'bias': old.bias.detach()}; m = PZ.weight_norm(nn.Linear(3, 2)); result = m.load_state_dict(state)", "[repr(result), m.weight, m.parametrizations.weight.original0]"),
}  # fmt: skip
