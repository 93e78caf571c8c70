"""The expressions of the random samplers' golden cases: evaluated with ``torch`` and
``dtype`` (float32 and float64) after ``torch.manual_seed(0)``, recorded under PyTorch
2.13 by tools/golden/record_distributions.py into golden/random_samplers.json and
compared by test_random_samplers.py."""

CASES = {
    "standard_gamma": "torch._standard_gamma(torch.tensor([0.05, 0.3, 1.0, 2.5, 7.0, 40.0] * 4, dtype=dtype))",
    "standard_gamma_zero": "torch._standard_gamma(torch.tensor([0.0, 1.0], dtype=dtype))",
    "poisson": "torch.poisson(torch.tensor([0.0, 0.5, 3.0, 9.9, 10.0, 55.0, 1e4], dtype=dtype))",
    "binomial": (
        "torch.binomial(torch.tensor([0.0, 5.0, 50.0, 200.0, 1000.0, 3.0, 30.0], dtype=dtype), "
        "torch.tensor([0.5, 0.3, 0.5, 0.9, 0.02, 0.99, 1.0], dtype=dtype))"
    ),
    "sample_dirichlet": "torch._sample_dirichlet(torch.tensor([[0.5, 1.0, 3.0], [10.0, 0.1, 2.0]], dtype=dtype))",
    "then_normal": "(torch._standard_gamma(torch.tensor([0.5, 3.0], dtype=dtype)), torch.randn(3, dtype=dtype))",
    "generator": "torch.poisson(torch.tensor([4.0, 40.0], dtype=dtype), generator=torch.Generator().manual_seed(5))",
    "gamma_grad": (
        "torch._standard_gamma_grad(torch.tensor([0.5, 0.7, 2.0, 5.0, 9.0, 12.0, 45.0], dtype=dtype), "
        "torch.tensor([0.1, 0.5, 1.0, 3.0, 9.0, 12.0, 50.0], dtype=dtype))"
    ),
    "dirichlet_grad": (
        "torch._dirichlet_grad(torch.tensor([0.01, 0.3, 0.5, 0.9, 0.99, 0.4], dtype=dtype), "
        "torch.tensor([0.5, 2.0, 10.0, 3.0, 1.0, 8.0], dtype=dtype), "
        "torch.tensor([1.0, 5.0, 20.0, 4.0, 1.5, 20.0], dtype=dtype))"
    ),
    "gamma_half": "torch._standard_gamma(torch.ones(2, dtype=torch.half))",
    "poisson_negative": "torch.poisson(torch.tensor([-1.0]))",
    "poisson_long": "torch.poisson(torch.tensor([1]))",
    "binomial_dtypes": "torch.binomial(torch.ones(2), torch.ones(2, dtype=torch.double))",
    "dirichlet_half": "torch._sample_dirichlet(torch.ones(2, dtype=torch.half))",
    "gamma_backward": "(lambda a: (torch._standard_gamma(a).sum().backward(), a.grad, type(torch._standard_gamma(a).grad_fn).__name__)[1:])(torch.tensor([0.5, 3.0], dtype=dtype, requires_grad=True))",
    "xlogy_backward": "(lambda x, y: (torch.xlogy(x, y).sum().backward(), x.grad)[1])(torch.tensor([0.0, 1.0, 0.0, 0.0], dtype=dtype, requires_grad=True), torch.tensor([0.5, 0.3, 0.0, -1.0], dtype=dtype))",
    "cholesky_ex_batch": "torch.linalg.cholesky_ex(torch.tensor([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 2.0], [2.0, 1.0]]], dtype=dtype)).info",
}
