// seqlink_tools.cu: the tools module's fat binary (io/seqlink/tools/seqlink-tools.fatbin): the benchmarks'
// work kernels and the article's scheme baselines, one translation unit for the reason seqlink_runtime.cu
// gives (SASS and loadable PTX from one source).
#include "work_kernels.cu"
#include "baselines.cu"
