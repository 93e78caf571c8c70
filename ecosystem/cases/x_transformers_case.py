"""x-transformers: a small decoder-only language model, forward and one training step."""

import json

import x_transformers
from x_transformers import Decoder, TransformerWrapper

import torch


def main():
    torch.manual_seed(0)
    model = TransformerWrapper(
        num_tokens=50, max_seq_len=16, attn_layers=Decoder(dim=32, depth=2, heads=4)
    )
    tokens = torch.randint(0, 50, (2, 16))
    logits = model(tokens)
    loss = torch.nn.functional.cross_entropy(
        logits[:, :-1].reshape(-1, 50), tokens[:, 1:].reshape(-1)
    )
    loss.backward()
    grad_norm = sum(p.grad.pow(2).sum() for p in model.parameters() if p.grad is not None).sqrt()
    result = {
        "version": getattr(x_transformers, "__version__", "see requirements"),
        "parameters": sum(p.numel() for p in model.parameters()),
        "logits_shape": list(logits.shape),
        "logits_sum": logits.sum().item(),
        "loss": loss.item(),
        "grad_norm": grad_norm.item(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
