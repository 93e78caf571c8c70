// The optimizer kernels compiled for one instruction set (see optim_kernels.inc).
#define TORCH_CORE_OPTIM_ISA avx512
#include "optim_kernels.inc"
