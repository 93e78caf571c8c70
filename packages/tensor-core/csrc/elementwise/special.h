// Special functions NumPy lacks (erf and friends, the gamma family). Each works in double
// precision; float32 tensors are computed in double and rounded.
#pragma once

namespace torch_core {

double digamma(double x);
double trigamma(double x);
double erfinv(double y);

}  // namespace torch_core
