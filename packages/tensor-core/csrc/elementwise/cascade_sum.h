// The sum of a contiguous float array added up in the order PyTorch's CPU kernel uses
// (its "cascade sum"), so small sums agree with PyTorch to the last bit; reference:
// torch/_sum_ref.py. Why native: the order needs a loop NumPy cannot express quickly,
// and a call here costs less than np.add.reduce on small arrays.
#pragma once

#include <cstddef>

namespace torch_core {

// Exact PyTorch order up to 32768 elements (PyTorch splits longer arrays across threads);
// longer arrays are summed in the same order on one thread.
template <typename T>
T cascade_sum(const T* a, std::size_t n);

}  // namespace torch_core
