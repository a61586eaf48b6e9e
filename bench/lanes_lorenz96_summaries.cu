// lanes_bench's measurement of Lorenz 96 with LORENZ96_SITES sites, keeping summaries: a
// translation unit of its own per size, as each instantiates as many kernels as one without.
#define LANES_SUMMARIES 1
#include "lanes_lorenz96.cu"
