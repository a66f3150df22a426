// args: -T cs_6_0 -E main
string greeting = "hello";
string first;

[numthreads(1, 1, 1)]
void main() {}
