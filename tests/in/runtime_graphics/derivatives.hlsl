// ddx/ddy of SV_Position and of a varying linear in screen space.

struct VSOut {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

VSOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    VSOut o;
    o.pos = float4(uv * 2.0 - 1.0, 0.0, 1.0);
    o.uv = uv * 16.0; // 32 units over 32 pixels: one a pixel
    return o;
}

float4 PSMain(VSOut i) : SV_Target {
    return float4(ddx(i.pos.x), ddy(i.pos.y) + ddx(i.pos.y) * 10.0,
                  ddx_fine(i.uv.x), ddy_coarse(i.uv.y));
}
