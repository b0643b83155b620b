// seqlink_runtime.cu: the runtime fat binary (io/seqlink/kernels/seqlink.fatbin) = the channel steps and
// the link probe, nothing else: one file per concern, compiled here as ONE translation unit.
//
// Why one unit: nvcc builds a fat binary (SASS for sm_80/sm_90 plus PTX that newer GPUs JIT-compile at
// load) from one source; joining separately compiled files needs -rdc and device linking, whose output
// carries no loadable PTX. io.seqlink.gpu.RuntimeFatbinContentsTest checks the kernel names the result
// holds against KernelNames in Java.
#include "publish.cu"
#include "consume.cu"
#include "ack.cu"
#include "probe.cu"
