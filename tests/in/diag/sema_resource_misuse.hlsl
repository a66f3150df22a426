// args: -T cs_6_0 -E main
struct Bad { float a; };
[[vk::push_constant]] float not_a_struct;
[numthreads(1, 1, 1)]
void main() {}
