// args: -T vs_6_1 -E main
// Pixel-only system values in a vertex shader, and a vertex-only one
// written as an output.
struct Out {
    float4 pos : SV_Position;
    uint stencil : SV_StencilRef;
    uint start : SV_StartVertexLocation;
};
Out main(float3 bary : SV_Barycentrics, uint coverage : SV_Coverage) {
    Out o;
    o.pos = float4(bary, coverage);
    o.stencil = 0;
    o.start = 0;
    return o;
}
