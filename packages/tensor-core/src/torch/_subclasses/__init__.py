"""``torch._subclasses``: PyTorch's tensor subclasses for tracing (fake tensors). This
project has none; the module answers the questions libraries ask about them."""
