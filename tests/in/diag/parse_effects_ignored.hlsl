// Effects-framework syntax is accepted and ignored, with a warning.
float Brightness < string UIName = "Brightness"; float UIMin = 0.0; > = 1.0;

float4 main() : SV_Target { return Brightness; }

technique Main {
    pass P0 { PixelShader = compile ps_5_0 main(); }
}
