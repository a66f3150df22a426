// args: -T cs_6_0 -E compute_main
[numthreads(1, 1, 1)]
void other_kernel() {}
[numthreads(1, 1, 1)]
void ComputeMain() {}
float helper() { return 0; }
