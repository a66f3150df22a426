// args: -T ds_6_0 -E main
// A domain shader reads an OutputPatch, not an InputPatch, and needs its
// domain.
struct CP { float4 pos : POSITION; };

float4 main(float2 uv : SV_DomainLocation, InputPatch<CP, 4> cp) : SV_Position {
    return cp[0].pos * uv.x;
}
