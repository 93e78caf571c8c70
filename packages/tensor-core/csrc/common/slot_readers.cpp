// torch._C.slot_reader(cls, name), history_reader(cls, stale) and result_history_writer(cls):
// the readers of a Tensor's fields that torch._interface.tensors gives sibling packages, and
// its writer of a recorded result's history. The autograd engine
// calls them for every input of every op it records and every node it runs; as Python
// functions each costs a frame (~4x an attribute read), as operator.attrgetter a generic
// attribute lookup. These read the slot at its offset where the object's type resolves the
// name to the class's own member descriptor (a subclass may replace a field by a
// property: then, and for objects of other types, they fall back to getattr).
#include <Python.h>
#include <structmember.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace {

// One field, as the function's `self` tuple keeps it: (name, descriptor, offset).
constexpr Py_ssize_t kFieldItems = 3;

// New reference, or nullptr with an exception set.
PyObject* read_field(PyObject* field, PyObject* obj) {
  PyObject* name = PyTuple_GET_ITEM(field, 0);
  if (_PyType_Lookup(Py_TYPE(obj), name) == PyTuple_GET_ITEM(field, 1)) {
    const Py_ssize_t offset = PyLong_AsSsize_t(PyTuple_GET_ITEM(field, 2));
    PyObject* value = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + offset);
    if (value != nullptr) return Py_NewRef(value);
  }
  return PyObject_GetAttr(obj, name);  // raises AttributeError for an unset slot
}

// self: (cls, field)
PyObject* slot_read(PyObject* self, PyObject* obj) {
  PyTypeObject* cls = reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(self, 0));
  PyObject* field = PyTuple_GET_ITEM(self, 1);
  if (Py_TYPE(obj) == cls || PyType_IsSubtype(Py_TYPE(obj), cls)) return read_field(field, obj);
  return PyObject_GetAttr(obj, PyTuple_GET_ITEM(field, 0));
}

// self: (cls, stale, requires_grad, base, view_version, version_counter, grad_fn) with a
// field tuple each. torch._interface.tensors.history documents the result.
PyObject* history_read(PyObject* self, PyObject* obj) {
  PyTypeObject* cls = reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(self, 0));
  if (Py_TYPE(obj) != cls && !PyType_IsSubtype(Py_TYPE(obj), cls)) Py_RETURN_FALSE;
  PyObject* flag = read_field(PyTuple_GET_ITEM(self, 2), obj);
  if (flag == nullptr) return nullptr;
  const int requires_grad = PyObject_IsTrue(flag);
  Py_DECREF(flag);
  if (requires_grad < 0) return nullptr;
  if (!requires_grad) Py_RETURN_FALSE;
  PyObject* base = read_field(PyTuple_GET_ITEM(self, 3), obj);
  if (base == nullptr) return nullptr;
  const bool is_view = base != Py_None;
  Py_DECREF(base);
  if (is_view) {  // stale when the shared counter moved since the view's node was made
    PyObject* made_at = read_field(PyTuple_GET_ITEM(self, 4), obj);
    if (made_at == nullptr) return nullptr;
    PyObject* counter = read_field(PyTuple_GET_ITEM(self, 5), obj);
    if (counter == nullptr) {
      Py_DECREF(made_at);
      return nullptr;
    }
    PyObject* now = PySequence_GetItem(counter, 0);
    Py_DECREF(counter);
    if (now == nullptr) {
      Py_DECREF(made_at);
      return nullptr;
    }
    const int moved = PyObject_RichCompareBool(made_at, now, Py_NE);
    Py_DECREF(made_at);
    Py_DECREF(now);
    if (moved < 0) return nullptr;
    if (moved) return Py_NewRef(PyTuple_GET_ITEM(self, 1));
  }
  return read_field(PyTuple_GET_ITEM(self, 6), obj);
}

// Set a field: the slot itself where the type resolves it to the class's descriptor.
int write_field(PyObject* field, PyObject* obj, PyObject* value) {
  PyObject* name = PyTuple_GET_ITEM(field, 0);
  if (_PyType_Lookup(Py_TYPE(obj), name) == PyTuple_GET_ITEM(field, 1)) {
    const Py_ssize_t offset = PyLong_AsSsize_t(PyTuple_GET_ITEM(field, 2));
    PyObject** slot = reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + offset);
    Py_XSETREF(*slot, Py_NewRef(value));
    return 0;
  }
  return PyObject_SetAttr(obj, name, value);
}

// self: (cls, category name, dtype, grad_fn, requires_grad, base, view_version, version_)
// with a field tuple each; args: (t, node). torch._interface.tensors.set_result_history
// documents it.
PyObject* result_history_write(PyObject* self, PyObject* const* args, Py_ssize_t count) {
  if (count != 2) {
    PyErr_SetString(PyExc_TypeError, "set_result_history(t, node) takes 2 arguments");
    return nullptr;
  }
  PyObject* t = args[0];
  PyTypeObject* cls = reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(self, 0));
  if (Py_TYPE(t) != cls && !PyType_IsSubtype(Py_TYPE(t), cls)) {
    PyErr_Format(PyExc_TypeError, "set_result_history: expected a Tensor, got %s",
                 Py_TYPE(t)->tp_name);
    return nullptr;
  }
  PyObject* dtype = read_field(PyTuple_GET_ITEM(self, 2), t);
  if (dtype == nullptr) return nullptr;
  PyObject* category = PyObject_GetAttr(dtype, PyTuple_GET_ITEM(self, 1));
  Py_DECREF(dtype);
  if (category == nullptr) return nullptr;
  const long kind = PyLong_AsLong(category);
  Py_DECREF(category);
  if (kind == -1 && PyErr_Occurred()) return nullptr;
  if (kind < 2) Py_RETURN_FALSE;  // integer and bool results never require grad
  if (write_field(PyTuple_GET_ITEM(self, 3), t, args[1]) < 0 ||
      write_field(PyTuple_GET_ITEM(self, 4), t, Py_True) < 0)
    return nullptr;
  PyObject* base = read_field(PyTuple_GET_ITEM(self, 5), t);
  if (base == nullptr || base == Py_None) return base;
  // a view: its node is current for the shared counter's present version
  PyObject* counter = read_field(PyTuple_GET_ITEM(self, 7), t);
  PyObject* now = counter == nullptr ? nullptr : PySequence_GetItem(counter, 0);
  Py_XDECREF(counter);
  if (now == nullptr || write_field(PyTuple_GET_ITEM(self, 6), t, now) < 0) {
    Py_XDECREF(now);
    Py_DECREF(base);
    return nullptr;
  }
  Py_DECREF(now);
  return base;
}

PyMethodDef result_history_def = {
    "set_result_history",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(result_history_write)),
    METH_FASTCALL, "Record an op's result's node (torch._C.result_history_writer)."};

PyMethodDef slot_read_def = {"slot_reader", slot_read, METH_O,
                             "Read one field of a tensor (torch._C.slot_reader)."};
PyMethodDef history_read_def = {"history", history_read, METH_O,
                                "What an engine reads of an op's input (torch._C.history_reader)."};

// (name, descriptor, offset) of cls's slot `name`; TypeError unless it is an object slot
// that cls itself declares.
py::tuple field_of(const py::type& cls, const py::str& name) {
  PyObject* interned = name.ptr();
  Py_INCREF(interned);
  PyUnicode_InternInPlace(&interned);
  py::str key = py::reinterpret_steal<py::str>(interned);
  PyObject* descr = PyDict_GetItemWithError(
      reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_dict, key.ptr());  // borrowed
  if (descr == nullptr && PyErr_Occurred()) throw py::error_already_set();
  if (descr == nullptr || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
    throw py::type_error("slot_reader: '" + std::string(name) + "' is not a slot of " +
                         std::string(py::str(cls.attr("__name__"))));
  }
  PyMemberDef* member = reinterpret_cast<PyMemberDescrObject*>(descr)->d_member;
  if (member->type != T_OBJECT_EX && member->type != T_OBJECT) {
    throw py::type_error("slot_reader: '" + std::string(name) + "' is not an object slot");
  }
  return py::make_tuple(key, py::reinterpret_borrow<py::object>(descr), member->offset);
}

py::object function_of(PyMethodDef* def, py::tuple self) {
  PyObject* function = PyCFunction_NewEx(def, self.ptr(), nullptr);
  if (function == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(function);
}

py::object slot_reader(const py::type& cls, const py::str& name) {
  return function_of(&slot_read_def, py::make_tuple(cls, field_of(cls, name)));
}

py::object history_reader(const py::type& cls, const py::object& stale) {
  return function_of(&history_read_def,
                     py::make_tuple(cls, stale, field_of(cls, py::str("_requires_grad")),
                                    field_of(cls, py::str("_base")),
                                    field_of(cls, py::str("_view_version")),
                                    field_of(cls, py::str("_version_")),
                                    field_of(cls, py::str("_grad_fn"))));
}

py::object result_history_writer(const py::type& cls) {
  return function_of(&result_history_def,
                     py::make_tuple(cls, py::str("_category"), field_of(cls, py::str("_dtype")),
                                    field_of(cls, py::str("_grad_fn")),
                                    field_of(cls, py::str("_requires_grad")),
                                    field_of(cls, py::str("_base")),
                                    field_of(cls, py::str("_view_version")),
                                    field_of(cls, py::str("_version_"))));
}

}  // namespace

void register_slot_readers(py::module_& m) {
  m.def("slot_reader", &slot_reader, py::arg("cls"), py::arg("name"),
        "A one-argument function reading slot `name` of instances of `cls` (getattr for "
        "other objects, or where a subclass replaces the slot).");
  m.def("history_reader", &history_reader, py::arg("cls"), py::arg("stale"),
        "torch._interface.tensors.history as a native function (`stale`: its STALE_VIEW).");
  m.def("result_history_writer", &result_history_writer, py::arg("cls"),
        "torch._interface.tensors.set_result_history as a native function.");
}
