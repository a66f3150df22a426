// args: -T vs_6_0 -E main
// `vk::index` belongs to pixel shader outputs, beside `vk::location(0)`.
int main([[vk::index(1)]] int a : A) : B {
    return a;
}
