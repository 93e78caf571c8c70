"""Optimizers fed sparse COO gradients (what ``nn.Embedding(sparse=True)`` produces:
uncoalesced, with repeated rows), as recorded from PyTorch 2.13 by
tools/golden/record_sparse_grad.py (golden/sparse_steps.json; test_sparse_steps.py
compares): the parameters after three steps, or the error PyTorch raises.
"""

from __future__ import annotations

from optim_snippets import describe, expression_outcome

SETUP = '''
import warnings
warnings.simplefilter("ignore")  # PyTorch's note that sparse invariant checks are off
O = torch.optim
ROWS = ([1, 2, 1], [4, 2], [0, 1, 5, 1])
def sparse_grad(step, p):
    """A gradient like an embedding's: the rows of ROWS[step], values from p itself."""
    rows = torch.tensor(ROWS[step % 3])
    values = 2 * p.detach()[rows] + 1
    return torch.sparse_coo_tensor(rows.unsqueeze(0), values, p.shape)
def train(make, steps=3, dense=False, zero=True):
    torch.manual_seed(0)
    p = torch.randn(6, 3, requires_grad=True)
    opt = make([p])
    for step in range(steps):
        if zero:
            opt.zero_grad()
        grad = sparse_grad(step, p)
        p.grad = grad.to_dense() if dense else grad
        opt.step()
    return p.detach()
'''

CASES = {
    "sgd": "train(lambda p: O.SGD(p, lr=0.1))",
    "sgd_momentum": "train(lambda p: O.SGD(p, lr=0.1, momentum=0.9))",
    "sgd_momentum_dampening": "train(lambda p: O.SGD(p, lr=0.1, momentum=0.9, dampening=0.5))",
    "sgd_nesterov": "train(lambda p: O.SGD(p, lr=0.1, momentum=0.9, nesterov=True))",
    "sgd_maximize": "train(lambda p: O.SGD(p, lr=0.1, maximize=True))",
    "sgd_weight_decay": "train(lambda p: O.SGD(p, lr=0.1, weight_decay=0.1))",
    "sgd_foreach": "train(lambda p: O.SGD(p, lr=0.1, momentum=0.9, foreach=True))",
    "sgd_fused": "train(lambda p: O.SGD(p, lr=0.1, fused=True))",
    "sgd_accumulated": "train(lambda p: O.SGD(p, lr=0.1, momentum=0.5), zero=False)",
    "adagrad": "train(lambda p: O.Adagrad(p, lr=0.1))",
    "adagrad_lr_decay": "train(lambda p: O.Adagrad(p, lr=0.1, lr_decay=0.1, "
    "initial_accumulator_value=0.2))",
    "adagrad_eps": "train(lambda p: O.Adagrad(p, lr=0.1, eps=0.5))",
    "adagrad_maximize": "train(lambda p: O.Adagrad(p, lr=0.1, maximize=True))",
    "adagrad_foreach": "train(lambda p: O.Adagrad(p, lr=0.1, foreach=True))",
    "adagrad_weight_decay": "train(lambda p: O.Adagrad(p, lr=0.1, weight_decay=0.1))",
    "sparse_adam": "train(lambda p: O.SparseAdam(p, lr=0.1))",
    "sparse_adam_betas": "train(lambda p: O.SparseAdam(p, lr=0.05, betas=(0.8, 0.9), eps=1e-6))",
    "sparse_adam_maximize": "train(lambda p: O.SparseAdam(p, lr=0.1, maximize=True))",
    "sparse_adam_dense_grad": "train(lambda p: O.SparseAdam(p, lr=0.1), dense=True)",
    "zero_grad_keeps_sparse": "p = torch.zeros(3, 2); "
    "p.grad = torch.sparse_coo_tensor([[1, 1]], torch.ones(2, 2), (3, 2)); "
    "O.SGD([p], lr=0.1).zero_grad(set_to_none=False); "
    "(p.grad.is_sparse, p.grad._nnz(), p.grad.to_dense().tolist())",
    **{
        f"refused_{name.lower()}": f"train(lambda p: O.{name}(p, lr=0.1), steps=1)"
        for name in (
            "Adam",
            "AdamW",
            "Adamax",
            "RMSprop",
            "Rprop",
            "Adadelta",
            "ASGD",
            "NAdam",
            "RAdam",
        )
    },
}


def _tensor(value):
    return {"values": value.tolist(), "dtype": str(value.dtype)}


def outcome(torch, code: str) -> dict:
    namespace = {"torch": torch}
    exec(SETUP, namespace)
    return expression_outcome(code, namespace, lambda value: describe(value, torch, _tensor))
