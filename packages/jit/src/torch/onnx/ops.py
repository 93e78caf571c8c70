"""torch.onnx.ops: PyTorch's custom ONNX ops for its dynamo exporter. This exporter
translates standard ops only; the namespace exists so that ``torch.onnx.ops`` imports."""

__all__: list[str] = []
