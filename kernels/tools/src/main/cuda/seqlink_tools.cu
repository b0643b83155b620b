// seqlink_tools.cu: the tools module's fat binary (io/seqlink/tools/seqlink-tools.fatbin): the benchmarks'
// work kernels, the article's scheme baselines and the fast-path prototypes (which the Java benchmark
// launches through the user-kernel API too), one translation unit for the reason seqlink_runtime.cu gives
// (SASS and loadable PTX from one source).
#include "work_kernels.cu"
#include "baselines.cu"
#include "fastpath_kernels.cu"
