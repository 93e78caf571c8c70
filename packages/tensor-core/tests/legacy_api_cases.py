"""Expressions of the PyTorch 0.4 migration that old scripts still use: ``torch.Tensor``'s
public name, ``volatile``, ``layout=`` on the creation functions, ``apply_``/``map_``/
``map2_``, ``set_default_tensor_type``, ``is_storage``, ``loss.data[0]`` and the
environment variables of ``torch.load``.

tools/golden/record_legacy_api.py records what real PyTorch gives
(golden/legacy_api.json); test_legacy_api.py compares. Each outcome holds the value (or
the error's type and first line) and the warnings raised. Cases in ``TYPE_ONLY`` compare
the error type only (the message is this project's own wording); cases in
``ANY_WARNINGS`` do not compare warnings (PyTorch warns once per process there, so the
order cases run in decides).
"""

from __future__ import annotations

import golden_describe  # beside this file (the recorder puts this folder on the path)

SETUP = '''
import io, os, fractions
t = torch.ones(2)
def load_with(env, **kwargs):
    """torch.load of a checkpoint holding a Fraction (not allowed by weights_only) under
    the environment variables ``env``; the loaded object's type name."""
    buffer = io.BytesIO()
    torch.save({"a": fractions.Fraction(1, 3)}, buffer)
    buffer.seek(0)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return type(torch.load(buffer, **kwargs)["a"]).__name__
    finally:
        for k, v in saved.items():
            if v is None:
                del os.environ[k]
            else:
                os.environ[k] = v
def enter_twice():
    cm = torch.sparse.check_sparse_tensor_invariants()
    with cm:
        with cm:
            pass
def forked_draw():
    torch.manual_seed(0)
    with torch.random.fork_rng():
        inside = torch.rand(2)
    return inside, torch.rand(2)
def default_after(t):
    try:
        torch.set_default_tensor_type(t)
        return torch.get_default_dtype(), torch.tensor([1.5]).dtype
    finally:
        torch.set_default_dtype(torch.float32)
'''

_CREATION = {
    "zeros": "torch.zeros(2, 3, layout=L)",
    "ones": "torch.ones(2, 3, layout=L)",
    "empty": "torch.empty(2, 3, layout=L).shape",
    "full": "torch.full((2, 3), 1.5, layout=L)",
    "arange": "torch.arange(3, layout=L)",
    "range": "torch.range(0, 2, layout=L)",
    "linspace": "torch.linspace(0, 1, 3, layout=L)",
    "logspace": "torch.logspace(0, 1, 3, layout=L)",
    "eye": "torch.eye(2, layout=L)",
    "empty_strided": "torch.empty_strided((2, 3), (3, 1), layout=L).shape",
    "rand": "torch.rand(2, layout=L).shape",
    "randn": "torch.randn(2, layout=L).shape",
    "randint": "torch.randint(3, (2,), layout=L).shape",
    "randperm": "torch.randperm(3, layout=L).shape",
    "normal": "torch.normal(0., 1., (2,), layout=L).shape",
    "zeros_like": "torch.zeros_like(torch.ones(2, 3), layout=L)",
    "ones_like": "torch.ones_like(torch.ones(2, 3), layout=L)",
    "empty_like": "torch.empty_like(torch.ones(2, 3), layout=L).shape",
    "full_like": "torch.full_like(torch.ones(2, 3), 2., layout=L)",
    "rand_like": "torch.rand_like(torch.ones(2, 3), layout=L).shape",
    "randn_like": "torch.randn_like(torch.ones(2, 3), layout=L).shape",
    "randint_like": "torch.randint_like(torch.ones(2, 3), 3, layout=L).shape",
    "new_zeros": "t.new_zeros(2, 3, layout=L)",
    "new_ones": "t.new_ones(2, layout=L)",
    "new_empty": "t.new_empty(2, layout=L).shape",
    "new_full": "t.new_full((2,), 1., layout=L)",
}
_LAYOUTS = {"strided": "torch.strided", "sparse": "torch.sparse_coo", "int": "3"}

CASES = {
    # the class's public name
    "tensor_module": "torch.Tensor.__module__",
    "tensor_repr": "repr(torch.Tensor)",
    "type_of_tensor": "repr(type(torch.ones(2)))",
    "type_is_tensor": "type(torch.ones(2)) is torch.Tensor",
    "old_pickle_path": "pickle.loads(b'ctorch._tensor\\nTensor\\n.') is torch.Tensor",
    "pickle_class": "pickle.loads(pickle.dumps(torch.Tensor)) is torch.Tensor",
    "pickle_tensor": "pickle.loads(pickle.dumps(torch.arange(3.)))",
    # volatile
    "volatile_read": "torch.ones(2).volatile",
    "volatile_set": "u = torch.ones(2); u.volatile = True; u.volatile",
    # sparse zeros in detail
    "sparse_zeros_grad": "torch.zeros(2, layout=torch.sparse_coo, requires_grad=True)",
    "sparse_zeros_0d": "torch.zeros((), layout=torch.sparse_coo)",
    "sparse_zeros_int": "torch.zeros(2, dtype=torch.int32, layout=torch.sparse_coo)",
    "sparse_empty": "torch.empty(2, 3, layout=torch.sparse_coo)",
    "sparse_zeros_coalesced": "torch.zeros(2, 3, layout=torch.sparse_coo).is_coalesced()",
    "sparse_zeros_like_f64": (
        "torch.zeros_like(torch.ones(2, 2), layout=torch.sparse_coo, dtype=torch.float64)"
    ),
    "zeros_like_of_sparse": "torch.zeros_like(torch.ones(2, 2).to_sparse())",
    "zeros_like_of_sparse_strided": (
        "torch.zeros_like(torch.ones(2, 2).to_sparse(), layout=torch.strided)"
    ),
    "ones_like_of_sparse": "torch.ones_like(torch.ones(2, 2).to_sparse())",
    "full_like_of_sparse": "torch.full_like(torch.ones(2, 2).to_sparse(), 0.)",
    "rand_like_of_sparse": "torch.rand_like(torch.ones(2, 2).to_sparse())",
    "randn_like_of_sparse": "torch.randn_like(torch.ones(2, 2).to_sparse())",
    "randint_like_of_sparse": "torch.randint_like(torch.ones(2, 2).to_sparse(), 3)",
    "ones_like_of_sparse_strided": (
        "torch.ones_like(torch.ones(2, 2).to_sparse(), layout=torch.strided)"
    ),
    "rand_like_of_sparse_strided": (
        "torch.rand_like(torch.ones(2, 2).to_sparse(), layout=torch.strided).shape"
    ),
    "empty_like_of_sparse": "torch.empty_like(torch.ones(2, 2).to_sparse())",
    "zeros_like_of_hybrid": "torch.zeros_like(torch.sparse_coo_tensor([[0]], [[1., 2.]], (2, 2)))",
    "zeros_layout_none": "torch.zeros(2, layout=None)",
    "zeros_layout_str": "torch.zeros(2, layout='strided')",
    # apply_, map_, map2_
    "apply_float": "torch.ones(3).apply_(lambda v: v * 2)",
    "apply_int": "torch.arange(4).apply_(lambda v: v * 3)",
    "apply_int_truncates": "torch.arange(4).apply_(lambda v: v / 2)",
    "apply_int_negative": "torch.arange(3).apply_(lambda v: -v - 0.7)",
    "apply_int8_overflow": "torch.arange(3, dtype=torch.int8).apply_(lambda v: v + 300)",
    "apply_int64_overflow": "torch.zeros(1, dtype=torch.int64).apply_(lambda v: 2 ** 70)",
    "apply_int64_float_overflow": "torch.zeros(1, dtype=torch.int64).apply_(lambda v: 1e300)",
    "apply_uint8_wraps": "torch.arange(3, dtype=torch.uint8).apply_(lambda v: v - 5)",
    "apply_uint8_overflow": "torch.arange(3, dtype=torch.uint8).apply_(lambda v: v + 300)",
    "apply_int_none": "torch.arange(3).apply_(lambda v: None)",
    "apply_int_str": "torch.arange(3).apply_(lambda v: 'a')",
    "apply_bool": "torch.tensor([True, False]).apply_(lambda v: not v)",
    "apply_bool_int": "torch.tensor([True, False]).apply_(lambda v: 2)",
    "apply_bool_none": "torch.tensor([True]).apply_(lambda v: None)",
    "apply_float_none": "torch.arange(4.).apply_(lambda v: None)",
    "apply_float_str": "torch.arange(4.).apply_(lambda v: 'a')",
    "apply_float_complex": "torch.ones(2).apply_(lambda v: 1j)",
    "apply_float_bool": "torch.ones(2).apply_(lambda v: True)",
    "apply_float_tensor": "torch.ones(2).apply_(lambda v: torch.tensor(3.))",
    "apply_half": "torch.ones(2, dtype=torch.float16).apply_(lambda v: v * 2)",
    "apply_half_overflow": "torch.ones(1, dtype=torch.float16).apply_(lambda v: 1e300)",
    "apply_bfloat16": "torch.ones(2, dtype=torch.bfloat16).apply_(lambda v: v * 2)",
    "apply_complex": "torch.ones(2, dtype=torch.complex64).apply_(lambda v: v * 2)",
    "apply_complex_none": "torch.ones(1, dtype=torch.complex64).apply_(lambda v: None)",
    "apply_argument_types": (
        "seen = []; torch.arange(2.).apply_(lambda v: seen.append(type(v).__name__) or v); "
        "torch.arange(2).apply_(lambda v: seen.append(type(v).__name__) or v); "
        "torch.ones(1, dtype=torch.complex64).apply_(lambda v: seen.append(type(v).__name__) "
        "or v); torch.ones(1, dtype=torch.bool).apply_(lambda v: seen.append(type(v).__name__) "
        "or v); seen"
    ),
    "apply_requires_grad": "torch.ones(2, requires_grad=True).apply_(lambda v: v)",
    "apply_transposed_order": (
        "seen = []; x = torch.arange(6.).reshape(2, 3); "
        "x.t().apply_(lambda a: seen.append(a) or a + 10); (seen, x)"
    ),
    "apply_view_writes_base": "x = torch.ones(2, 2); x[0].apply_(lambda a: 5); x",
    "apply_version": "x = torch.ones(2); x.apply_(lambda a: a); x._version",
    "apply_empty": "torch.ones(0).apply_(lambda a: 1 / 0)",
    "apply_0d": "torch.tensor(2.).apply_(lambda a: a * 3)",
    "apply_not_callable": "torch.zeros(3).apply_(3)",
    "apply_exception": "torch.ones(2).apply_(lambda v: 1 / 0)",
    "map_broadcast": "torch.zeros(2, 3).map_(torch.arange(3.), lambda a, b: a + b)",
    "map_bad_broadcast": "torch.ones(2).map_(torch.ones(3), lambda a, b: a)",
    "map_bad_broadcast_2d": "torch.ones(2, 3).map_(torch.ones(2), lambda a, b: a)",
    "map_dtype": "torch.zeros(3).map_(torch.arange(3), lambda a, b: a + b)",
    "map_not_tensor": "torch.zeros(3).map_([1, 2, 3], lambda a, b: a)",
    "map_not_callable": "torch.zeros(3).map_(torch.zeros(3), 3)",
    "map_requires_grad": "torch.ones(2, requires_grad=True).map_(torch.ones(2), lambda a, b: a)",
    "map_other_requires_grad": (
        "torch.ones(2).map_(torch.ones(2, requires_grad=True), lambda a, b: a)"
    ),
    "map2": (
        "torch.zeros(2, 3).map2_(torch.arange(3.), torch.ones(2, 1), lambda a, b, c: a + b * c)"
    ),
    "map2_dtype_x": (
        "torch.ones(2).map2_(torch.ones(2, dtype=torch.int64), torch.ones(2), lambda a, b, c: a)"
    ),
    "map2_dtype_y": (
        "torch.ones(2).map2_(torch.ones(2), torch.ones(2, dtype=torch.float64), lambda a, b, c: a)"
    ),
    "map2_not_tensor": "torch.ones(2).map2_(1, torch.ones(2), lambda a, b, c: a)",
    "map2_bad_broadcast": "torch.ones(2).map2_(torch.ones(3), torch.ones(2), lambda a, b, c: a)",
    "map2_requires_grad": (
        "torch.ones(2, requires_grad=True).map2_(torch.ones(2), torch.ones(2), lambda a, b, c: a)"
    ),
    # set_default_tensor_type
    "default_type_double": "default_after(torch.DoubleTensor)",
    "default_type_string": "default_after('torch.DoubleTensor')",
    "default_type_float": "default_after(torch.FloatTensor)",
    "default_type_half": "default_after(torch.HalfTensor)",
    "default_type_bfloat16": "default_after('torch.BFloat16Tensor')",
    "default_type_int": "default_after(torch.IntTensor)",
    "default_type_bad_name": "default_after('torch.Foo')",
    "default_type_number": "default_after(3)",
    "default_type_dtype": "default_after(torch.float64)",
    "default_type_sparse": "default_after(torch.sparse.FloatTensor)",
    "default_type_cuda": "default_after('torch.cuda.FloatTensor')",
    # is_storage
    "is_storage": (
        "[torch.is_storage(x) for x in (torch.ones(2).untyped_storage(), "
        "torch.FloatStorage(2), torch.ones(2), 3, None)]"
    ),
    # loss.data[0] and other indexing of 0-dim tensors
    "data_0_of_0d": "torch.tensor(3.0).data[0]",
    "index_0_of_0d": "torch.tensor(3)[0]",
    "index_negative_of_0d": "torch.tensor(3)[-1]",
    "index_1_of_0d": "torch.tensor(3)[1]",
    "setitem_negative_of_0d": "x = torch.tensor(3); x[-2] = 1; x",
    "setitem_0_of_0d": "x = torch.tensor(3); x[0] = 1; x",
    "slice_of_0d": "torch.tensor(3)[:]",
    "setitem_slice_of_0d": "x = torch.tensor(3); x[:] = 1; x",
    "tensor_index_of_0d": "torch.tensor(3)[torch.tensor(0)]",
    "list_index_of_0d": "torch.tensor(3)[[0]]",
    "tuple_index_of_0d": "torch.tensor(3)[0, 0]",
    "tuple1_index_of_0d": "torch.tensor(3)[(0,)]",
    "none_index_of_0d": "torch.tensor(3)[None]",
    "ellipsis_index_of_0d": "torch.tensor(3)[...]",
    "bool_index_of_0d": "torch.tensor(3)[True]",
    "data_0_of_1d": "torch.tensor([3.0]).data[0]",
    "too_many_1d": "torch.tensor([3])[0, 0]",
    # small public names (the public-names test's cheap gaps)
    "is_distributed": "(torch.is_distributed(t), t.is_distributed())",
    "get_device": "torch.get_device(t)",
    "is_conj_is_signed": (
        "(torch.is_conj(t), torch.is_signed(t), torch.is_signed(torch.ones(1, dtype=torch.uint8)))"
    ),
    "dim_order": "t.dim_order()",
    "dim_order_size_one": "(torch.ones(2, 1, 3).dim_order(), torch.ones(1, 1).dim_order())",
    "dim_order_transposed": "torch.ones(2, 3).t().dim_order()",
    "dim_order_channels_last": (
        "torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).dim_order()"
    ),
    "dim_order_ambiguous": "torch.ones(2, 1, 3).dim_order(ambiguity_check=True)",
    "dim_order_unambiguous": "torch.ones(2, 3).dim_order(ambiguity_check=True)",
    "storage_type": (
        "(repr(t.storage_type()), repr(torch.ones(2, dtype=torch.int8).storage_type()))"
    ),
    "const_data_ptr": "t.const_data_ptr() == t.data_ptr()",
    "is_sparse_csr": "(t.is_sparse_csr, torch.ones(2).to_sparse().is_sparse_csr)",
    "to_sparse_coo": "torch.tensor([[0., 2.], [3., 0.]]).to_sparse_coo()",
    "build_flags": (
        "(torch.compiled_with_cxx11_abi(), torch.is_vulkan_available(), torch.has_lapack, "
        "torch.has_spectral, torch.init_num_threads())"
    ),
    "warn_always": (
        "torch.set_warn_always(True); v = torch.is_warn_always_enabled(); "
        "torch.set_warn_always(False); (v, torch.is_warn_always_enabled())"
    ),
    "sym_functions": (
        "(torch.sym_int(3.7), torch.sym_int(-3.7), torch.sym_int(5), torch.sym_float(3), "
        "torch.sym_max(1, 2.5), torch.sym_min(1, 2), torch.sym_not(True), torch.sym_sqrt(4), "
        "torch.sym_ite(True, 1, 2), torch.sym_ite(False, 1, 2), torch.sym_sum([1, 2, 3]))"
    ),
    "norm_except_dim_0": "torch.norm_except_dim(torch.arange(6.).reshape(2, 3), 2, 0)",
    "norm_except_dim_1": "torch.norm_except_dim(torch.arange(6.).reshape(2, 3), 2, 1)",
    "norm_except_dim_all": "torch.norm_except_dim(torch.arange(6.).reshape(2, 3), 2, -1)",
    "norm_except_dim_middle": ("torch.norm_except_dim(torch.arange(24.).reshape(2, 3, 4), 1, 1)"),
    "norm_except_dim_3": "torch.norm_except_dim(torch.arange(6.).reshape(2, 3), 3, 0)",
    "empty_permuted": (
        "x = torch.empty_permuted((2, 3, 4), (0, 2, 1)); (x.shape, x.stride(), x.dtype)"
    ),
    "empty_permuted_dtype": ("torch.empty_permuted((2, 3), (1, 0), dtype=torch.int64).stride()"),
    "empty_permuted_bad": "torch.empty_permuted((2, 3), (0,))",
    "orgqr": (
        "a = torch.tensor([[2., 1.], [1., 3.], [1., 1.]]); torch.orgqr(a, torch.tensor([1.5, 0.5]))"
    ),
    "orgqr_method": ("torch.tensor([[2., 1.], [1., 3.]]).orgqr(torch.tensor([1.2, 0.]))"),
    "lu_solve_method": (
        "a = torch.tensor([[4., 1.], [2., 3.]]); lu, piv = torch.linalg.lu_factor(a); "
        "torch.tensor([[1.], [2.]]).lu_solve(lu, piv)"
    ),
    "removed_eig": "t.eig()",
    "removed_eig_vectors": "t.eig(eigenvectors=True)",
    "removed_lstsq": "t.lstsq(t)",
    "removed_solve": "t.solve(t)",
    "removed_symeig": "t.symeig()",
    "removed_reinforce": "t.reinforce(1.0)",
    "fork_rng": "forked_draw()",
    "fork_rng_disabled": (
        "torch.manual_seed(0); cm = torch.random.fork_rng(enabled=False); cm.__enter__(); "
        "a = torch.rand(1); cm.__exit__(None, None, None); (a, torch.rand(1))"
    ),
    "random_module": (
        "(torch.random.initial_seed is torch.initial_seed, "
        "torch.random.default_generator is torch.default_generator)"
    ),
    "sparse_invariants_switch": (
        "C = torch.sparse.check_sparse_tensor_invariants; a = C.is_enabled(); "
        "cm = C(); cm.__enter__(); b = C.is_enabled(); cm.__exit__(None, None, None); "
        "C.enable(); c = C.is_enabled(); C.disable(); (a, b, c, C.is_enabled())"
    ),
    "sparse_invariants_nested": "enter_twice()",
    "sparse_invariants_decorator": (
        "f = torch.sparse.check_sparse_tensor_invariants(False)"
        "(torch.sparse.check_sparse_tensor_invariants.is_enabled); f()"
    ),
    "to_dlpack": "type(torch.to_dlpack(torch.ones(2))).__name__",
    # torch.load's environment variables
    "load_default": "load_with({})",
    "load_force_no": "load_with({'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD': '1'})",
    "load_force_no_yes": "load_with({'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD': 'YES'})",
    "load_force_no_explicit": (
        "load_with({'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD': '1'}, weights_only=True)"
    ),
    "load_force_no_zero": "load_with({'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD': '0'})",
    "load_force_no_other": "load_with({'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD': 'on'})",
    "load_force": "load_with({'TORCH_FORCE_WEIGHTS_ONLY_LOAD': 'true'})",
    "load_force_explicit": (
        "load_with({'TORCH_FORCE_WEIGHTS_ONLY_LOAD': '1'}, weights_only=False)"
    ),
    "load_both": (
        "load_with({'TORCH_FORCE_WEIGHTS_ONLY_LOAD': '1', "
        "'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD': '1'}, weights_only=False)"
    ),
    "load_force_no_pickle_module": (
        "load_with({'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD': '1'}, pickle_module=pickle)"
    ),
    "load_force_pickle_module": (
        "load_with({'TORCH_FORCE_WEIGHTS_ONLY_LOAD': '1'}, pickle_module=pickle)"
    ),
}
for _name, _code in _CREATION.items():
    for _layout, _spelling in _LAYOUTS.items():
        CASES[f"layout_{_layout}_{_name}"] = _code.replace("layout=L", f"layout={_spelling}")

#: the weights-only refusal and the parser's overload list are worded by this project
TYPE_ONLY = {
    "load_default",
    "load_force_no_explicit",
    "load_force_no_zero",
    "load_force_no_other",
    "load_force",
    "load_force_explicit",
}
#: PyTorch warns once per process: whether a case sees the warning depends on order
ANY_WARNINGS = {name for name in CASES if name.startswith("default_type")} | {
    "is_storage",
    "zeros_like_of_hybrid",  # PyTorch's note (once) that sparse invariant checks are off
    "lu_solve_method",  # torch.lu_solve's deprecation warning (once); not raised here
}


def _describe(torch, value):
    return golden_describe.describe(torch, value, _repr_and_dtype)


def _repr_and_dtype(tensor) -> dict:
    return {"repr": repr(tensor), "dtype": str(tensor.dtype)}


def outcome(torch, code: str) -> dict:
    """What running ``code`` (statements joined by "; ", the last an expression) gives:
    the value or the error (builtin type and first line), and the warnings' texts."""
    import pickle

    namespace = {"torch": torch, "pickle": pickle, "__name__": "legacy_api_cases"}
    exec(SETUP, namespace)
    return golden_describe.warned_outcome(code, namespace, lambda v: _describe(torch, v))
