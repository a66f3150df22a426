// args: -T ps_6_1 -E main
// Pixel system values declared with types their built-ins cannot hold.
float4 main(float2 bary : SV_Barycentrics,
            float coverage : SV_Coverage,
            int inner : SV_InnerCoverage,
            float2 rate : SV_ShadingRate,
            out float stencil : SV_StencilRef) : SV_Target {
    stencil = 1;
    return float4(bary, coverage, inner + rate.x);
}
