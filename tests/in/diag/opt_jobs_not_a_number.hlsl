// args: -T cs_6_0 -E main -j 0
// -j is the number of jobs a batch (--jobs-file) compiles at once: at
// least one.
[numthreads(1, 1, 1)] void main() {}
