// args: -T vs_6_0 -E main
// A specialization constant is set by the pipeline: it cannot be `static`.
[[vk::constant_id(1)]] const int visible = 3;
[[vk::constant_id(2)]] static const int hidden = 4;

float4 main() : SV_Position {
    return float4(visible, hidden, 0, 1);
}
