// The families of torch._C: each registers its Python entry points into the module
// (module.cpp calls them in this order).
#pragma once

#include <pybind11/pybind11.h>

void register_array_flags(pybind11::module_& m);       // common/array_flags.cpp
void register_slot_readers(pybind11::module_& m);      // common/slot_readers.cpp
void register_fork_gate(pybind11::module_& m);         // common/fork_gate.cpp
void register_process_settings(pybind11::module_& m);  // process/settings.cpp
void register_blas(pybind11::module_& m);              // blas/gemm.cpp
void register_small_matmul(pybind11::module_& m);      // blas/small_matmul.cpp (by register_blas)
void register_conv(pybind11::module_& m);              // conv/bindings.cpp
void register_elementwise(pybind11::module_& m);       // elementwise/bindings.cpp
void register_indexing(pybind11::module_& m);          // indexing/bindings.cpp
void register_nn_pooling(pybind11::module_& m);        // nn/pooling.cpp
void register_nn_recurrent(pybind11::module_& m);      // nn/recurrent.cpp
void register_norm(pybind11::module_& m);              // norm/bindings.cpp
void register_optim(pybind11::module_& m);             // optim/bindings.cpp
void register_random(pybind11::module_& m);            // random/bindings.cpp
