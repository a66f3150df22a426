// args: -T cs_6_0 -E main
[[vk::binding(0)]] Texture2D a;
[[vk::binding(0)]] Texture2D b;
[numthreads(1, 1, 1)]
void main() {
    error_to_show_warnings = 1;
}
