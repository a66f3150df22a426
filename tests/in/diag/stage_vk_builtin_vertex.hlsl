// args: -T vs_6_0 -E main
// `vk::builtin`: no location beside it; each built-in has its type and
// its places.
[[vk::location(5), vk::builtin("HelperInvocation")]]
int main([[vk::location(4), vk::builtin("PointSize")]] int size : A) : C {
    return size;
}
