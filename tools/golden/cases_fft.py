# ruff: noqa: E501 - a table of expressions: one per string, long ones included
"""Expressions of ``torch.fft`` whose results the tests compare with real PyTorch's
(recorded by record_fft.py into packages/tensor-core/tests/golden/fft.json, compared by
packages/tensor-core/tests/_ops/test_fft.py): values, dtypes and shapes, gradients, and
for bad input the exception type and message.

Each entry is Python source evaluated with ``torch`` in scope and the names of SETUP;
statements are separated by "; ", the last one is the expression recorded.
"""

SETUP = """
x = torch.tensor([1.0, -2.0, 3.5, 0.25, -1.0, 2.0])
m = torch.arange(12.0).reshape(3, 4) * 0.5 - 1.5
z = torch.tensor([1 + 2j, -0.5 + 1j, 3 - 1j, 0.5j, 2 + 0j])
zm = torch.complex(m, m.flip(0))
i = torch.tensor([1, 2, 3, 4])
"""

ONE_DIM = [
    "torch.fft.fft(x)",
    "torch.fft.fft(x.double())",
    "torch.fft.fft(i)",
    "torch.fft.fft(i > 2)",
    "torch.fft.fft(z)",
    "torch.fft.fft(z.to(torch.complex128), norm='ortho')",
    "torch.fft.fft(x, n=8)",
    "torch.fft.fft(x, n=3, norm='forward')",
    "torch.fft.fft(m, dim=0)",
    "torch.fft.fft(m, 5, 0, 'ortho')",
    "torch.fft.ifft(x)",
    "torch.fft.ifft(z, n=7)",
    "torch.fft.ifft(m, dim=-2, norm='forward')",
    "torch.fft.ifft(torch.fft.fft(x))",
    "torch.fft.rfft(x)",
    "torch.fft.rfft(x, n=5)",
    "torch.fft.rfft(m.double(), dim=0, norm='ortho')",
    "torch.fft.rfft(i)",
    "torch.fft.irfft(torch.fft.rfft(x))",
    "torch.fft.irfft(z)",
    "torch.fft.irfft(z, n=5, norm='ortho')",
    "torch.fft.irfft(x)",
    "torch.fft.irfft(m, dim=0)",
    "torch.fft.irfft(torch.ones(1), n=1)",
    "torch.fft.hfft(z)",
    "torch.fft.hfft(z, n=9, norm='forward')",
    "torch.fft.hfft(x.double())",
    "torch.fft.ihfft(x)",
    "torch.fft.ihfft(x, n=5, norm='ortho')",
    "torch.fft.ihfft(m, dim=0)",
]

N_DIM = [
    "torch.fft.fftn(m)",
    "torch.fft.fftn(m, s=(2, 5))",
    "torch.fft.fftn(m, s=(-1, 2))",
    "torch.fft.fftn(m, s=(6,))",
    "torch.fft.fftn(m, dim=0)",
    "torch.fft.fftn(m, dim=())",
    "torch.fft.fftn(torch.tensor(3.0))",
    "torch.fft.fftn(zm, norm='ortho')",
    "torch.fft.ifftn(zm, s=(4, 4), dim=(1, 0))",
    "torch.fft.rfftn(m)",
    "torch.fft.rfftn(m, dim=(1, 0))",
    "torch.fft.rfftn(m, s=(2, 3), norm='forward')",
    "torch.fft.irfftn(zm)",
    "torch.fft.irfftn(zm, s=(3, 5))",
    "torch.fft.irfftn(zm, s=(-1,))",
    "torch.fft.irfftn(zm, dim=(1, 0))",
    "torch.fft.hfftn(zm)",
    "torch.fft.hfftn(zm, s=(4, 5), norm='ortho')",
    "torch.fft.ihfftn(m)",
    "torch.fft.ihfftn(m, dim=(0,))",
    "torch.fft.fft2(m)",
    "torch.fft.fft2(m.reshape(1, 3, 4), s=(2, 2))",
    "torch.fft.ifft2(zm, norm='forward')",
    "torch.fft.rfft2(m)",
    "torch.fft.irfft2(zm)",
    "torch.fft.irfft2(zm, s=(3, 3))",
    "torch.fft.hfft2(zm)",
    "torch.fft.ihfft2(m)",
]

HELPERS = [
    "torch.fft.fftfreq(5)",
    "torch.fft.fftfreq(6, 0.1)",
    "torch.fft.fftfreq(7, d=2.5, dtype=torch.float64)",
    "torch.fft.fftfreq(4, d=torch.tensor(2.0))",
    "torch.fft.fftfreq(0)",
    "torch.fft.fftfreq(1)",
    "torch.fft.fftfreq(3, requires_grad=True).requires_grad",
    "o = torch.empty(0, dtype=torch.float64); torch.fft.fftfreq(4, out=o); o",
    "torch.fft.rfftfreq(5)",
    "torch.fft.rfftfreq(6, 0.25)",
    "torch.fft.rfftfreq(7, dtype=torch.float64)",
    "torch.fft.fftshift(torch.arange(5))",
    "torch.fft.fftshift(torch.arange(6))",
    "torch.fft.fftshift(m)",
    "torch.fft.fftshift(m, dim=1)",
    "torch.fft.fftshift(m, dim=(-2,))",
    "torch.fft.ifftshift(torch.arange(5))",
    "torch.fft.ifftshift(m)",
    "torch.fft.ifftshift(torch.fft.fftshift(m))",
    "torch.fft.fftshift(torch.fft.fftfreq(6))",
]

OUT = [
    "o = torch.empty(0, dtype=torch.complex64); torch.fft.fft(x, out=o); o",
    "o = torch.empty(0, dtype=torch.complex128); r = torch.fft.fft(x, out=o); r is o, o",
    "o = torch.empty(0, dtype=torch.complex64); torch.fft.rfft2(m, out=o); o",
    "o = torch.empty(0); torch.fft.irfft(z, out=o); o",
    "o = torch.empty(0, dtype=torch.float64); torch.fft.hfft(z, out=o); o",
    "torch.fft.fft(x, out=torch.empty(0))",
    "torch.fft.irfft(z, out=torch.empty(0, dtype=torch.complex64))",
    "torch.fft.fftfreq(4, out=torch.empty(0, dtype=torch.int64))",
]

GRADIENTS = [
    "a = x.double().requires_grad_(); torch.fft.fft(a).abs().sum().backward(); a.grad",
    "a = x.double().requires_grad_(); torch.fft.rfft(a, n=8).abs().sum().backward(); a.grad",
    "a = x.double().requires_grad_(); torch.fft.ihfft(a, norm='ortho').abs().sum().backward(); a.grad",
    "a = z.to(torch.complex128).requires_grad_(); torch.fft.irfft(a).pow(2).sum().backward(); a.grad",
    "a = z.to(torch.complex128).requires_grad_(); torch.fft.hfft(a, n=7).pow(2).sum().backward(); a.grad",
    "a = z.to(torch.complex128).requires_grad_(); torch.fft.ifft(a, n=3).abs().sum().backward(); a.grad",
    "a = m.double().requires_grad_(); torch.fft.rfftn(a).abs().sum().backward(); a.grad",
    "a = zm.to(torch.complex128).requires_grad_(); torch.fft.irfftn(a, s=(3, 5)).pow(2).sum().backward(); a.grad",
    "a = x.requires_grad_(); type(torch.fft.fft(a).grad_fn).__name__",
    "a = z.requires_grad_(); type(torch.fft.fft(a).grad_fn).__name__",
    "a = x.requires_grad_(); type(torch.fft.rfft(a).grad_fn).__name__",
    "a = z.requires_grad_(); type(torch.fft.irfft(a).grad_fn).__name__",
    "a = z.requires_grad_(); type(torch.fft.hfft(a).grad_fn).__name__",
    "a = x.requires_grad_(); type(torch.fft.ifft(a).grad_fn).__name__",
    "a = x.requires_grad_(); torch.fft.fft(a, out=torch.empty(0, dtype=torch.complex64))",
]

ERRORS = [
    "torch.fft.fft(x, n=0)",
    "torch.fft.fft(x, n=-1)",
    "torch.fft.fft(x, dim=1)",
    "torch.fft.fft(x, dim=-2)",
    "torch.fft.fft(x, norm='bad')",
    "torch.fft.fft(x, norm=1)",
    "torch.fft.fft(x, n=2.5)",
    "torch.fft.fft(x, dim=(0,))",
    "torch.fft.fft([1.0, 2.0])",
    "torch.fft.fft(torch.tensor(1.0))",
    "torch.fft.fft(torch.empty(0))",
    "torch.fft.fft(x.half())",
    "torch.fft.fft(x.bfloat16())",
    "torch.fft.rfft(x.half())",
    "torch.fft.irfft(x.half())",
    "torch.fft.rfft(z)",
    "torch.fft.ihfft(z)",
    "torch.fft.rfftn(zm)",
    "torch.fft.rfft2(zm)",
    "torch.fft.ihfftn(zm)",
    "torch.fft.ihfft2(zm)",
    "torch.fft.fft2(m, out=torch.empty(0))",
    "torch.fft.irfftn(zm, out=torch.empty(0, dtype=torch.complex64))",
    "torch.fft.hfft2(zm, out=torch.empty(0, dtype=torch.complex64))",
    "torch.fft.ihfft2(m, out=torch.empty(0))",
    "torch.fft.fftn(m, s=(2, 2), dim=1)",
    "torch.fft.fftn(m, dim=2)",
    "torch.fft.fft(x, n=True)",
    "torch.fft.irfft(torch.ones(1))",
    "torch.fft.hfft(torch.ones(1))",
    "torch.fft.fft2(x)",
    "torch.fft.fftn(x, s=(2, 3))",
    "torch.fft.fftn(m, s=(2, 3, 4))",
    "torch.fft.fftn(m, dim=(0, 0))",
    "torch.fft.fftn(m, s=(2,), dim=(0, 1))",
    "torch.fft.fftn(m, s=(0, 2))",
    "torch.fft.fftn(m, s=(-2, 2))",
    "torch.fft.rfftn(m, dim=())",
    "torch.fft.rfftn(torch.tensor(3.0))",
    "torch.fft.fftn(m, norm='backwards')",
    "torch.fft.fftfreq(-1)",
    "torch.fft.fftfreq(4.0)",
    "torch.fft.fftfreq(4, dtype=torch.int64)",
    "torch.fft.fftfreq(4, dtype=torch.complex64)",
    "torch.fft.fftshift(m, dim=2)",
]

GROUPS = {
    "one_dim": ONE_DIM,
    "n_dim": N_DIM,
    "helpers": HELPERS,
    "out": OUT,
    "gradients": GRADIENTS,
    "errors": ERRORS,
}
