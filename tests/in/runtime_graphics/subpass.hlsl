// Two subpasses: PSFirst writes a colour and a depth that identify the
// pixel; PSSecond reads both back through subpass inputs, at the same
// pixel, and writes them out combined.

[[vk::input_attachment_index(0)]] SubpassInput<float4> color : register(t0);
[[vk::input_attachment_index(1)]] SubpassInput<float> depth : register(t1);

float4 VSMain(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * 2.0 - 1.0, 0.5, 1.0);
}

struct First {
    float4 color : SV_Target0;
    float depth : SV_Depth;
};

First PSFirst(float4 pos : SV_Position) {
    // Pixel centres: x + 0.5, y + 0.5.
    float2 p = pos.xy - 0.5;
    First o;
    o.color = float4(p.x, p.y, p.x * 16.0 + p.y, 7.0);
    o.depth = (p.y * 16.0 + p.x) / 256.0;
    return o;
}

float4 read_color(SubpassInput<float4> s) {
    return s.SubpassLoad();
}

float4 PSSecond(float4 pos : SV_Position) : SV_Target {
    float4 c = read_color(color);
    float d = depth.SubpassLoad();
    return float4(c.x * 2.0, c.y + 100.0, c.z - c.w, d * 256.0);
}
