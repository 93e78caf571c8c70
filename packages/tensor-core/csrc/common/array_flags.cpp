// torch._C.all_c_contiguous(*operands): whether every NumPy array among the arguments is
// C-contiguous (other arguments, e.g. Python scalars, are ignored). The pointwise fast
// paths ask this on every call, to keep PyTorch's output layout for channels-last and
// transposed inputs; `array.flags.c_contiguous` builds a flags object each time and cost
// ~10% of an 8x8 add, this reads the flag directly.
#define NPY_NO_DEPRECATED_API NPY_1_22_API_VERSION
#define NPY_TARGET_VERSION NPY_1_22_API_VERSION
#include <Python.h>
#include <numpy/arrayobject.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace {

PyObject* all_c_contiguous(PyObject*, PyObject* const* args, Py_ssize_t count) {
  for (Py_ssize_t i = 0; i < count; ++i) {
    if (PyArray_Check(args[i]) &&
        !PyArray_IS_C_CONTIGUOUS(reinterpret_cast<PyArrayObject*>(args[i])))
      Py_RETURN_FALSE;
  }
  Py_RETURN_TRUE;
}

PyMethodDef all_c_contiguous_def = {
    "all_c_contiguous",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(all_c_contiguous)),
    METH_FASTCALL,
    "True if every NumPy array among the arguments is C-contiguous.",
};

}  // namespace

// A plain CPython function (no pybind11 dispatch): it runs on every small pointwise op.
void register_array_flags(py::module_& m) {
  if (PyArray_ImportNumPyAPI() < 0) throw py::error_already_set();
  PyObject* function =
      PyCFunction_NewEx(&all_c_contiguous_def, nullptr, m.attr("__name__").ptr());
  if (function == nullptr) throw py::error_already_set();
  m.add_object("all_c_contiguous", py::reinterpret_steal<py::object>(function));
}
