// The convolution kernels compiled for one instruction set (see conv_kernels.inc).
#define TORCH_CORE_CONV_ISA avx512
#include "conv_kernels.inc"
