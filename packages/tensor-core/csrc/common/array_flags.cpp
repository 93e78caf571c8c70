// torch._C.all_c_contiguous(*operands): whether every NumPy array among the arguments is
// C-contiguous (other arguments, e.g. Python scalars, are ignored). The pointwise fast
// paths ask this on every call, to keep PyTorch's output layout for channels-last and
// transposed inputs; `array.flags.c_contiguous` builds a flags object each time and cost
// ~10% of an 8x8 add, this reads the flag directly.
// torch._C.array_address(array): where a NumPy array's first element is. Every new view
// asks it (its storage offset); `array.__array_interface__` builds a dict for it (~0.8 us).
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

PyObject* array_address(PyObject*, PyObject* array) {
  if (!PyArray_Check(array)) {
    PyErr_SetString(PyExc_TypeError, "array_address: expected a NumPy array");
    return nullptr;
  }
  return PyLong_FromVoidPtr(PyArray_DATA(reinterpret_cast<PyArrayObject*>(array)));
}

PyMethodDef array_address_def = {
    "array_address",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(array_address)),
    METH_O,
    "The address of a NumPy array's first element (its __array_interface__ data pointer).",
};

PyMethodDef all_c_contiguous_def = {
    "all_c_contiguous",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(all_c_contiguous)),
    METH_FASTCALL,
    "True if every NumPy array among the arguments is C-contiguous.",
};

}  // namespace

// Plain CPython functions (no pybind11 dispatch): they run on every small op.
void register_array_flags(py::module_& m) {
  if (PyArray_ImportNumPyAPI() < 0) throw py::error_already_set();
  for (PyMethodDef* def : {&all_c_contiguous_def, &array_address_def}) {
    PyObject* function = PyCFunction_NewEx(def, nullptr, m.attr("__name__").ptr());
    if (function == nullptr) throw py::error_already_set();
    m.add_object(def->ml_name, py::reinterpret_steal<py::object>(function));
  }
}
