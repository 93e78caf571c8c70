// The optimizer kernels compiled for one instruction set (see optim_kernels.inc).
#define TORCH_CORE_OPTIM_ISA baseline
#include "optim_kernels.inc"
