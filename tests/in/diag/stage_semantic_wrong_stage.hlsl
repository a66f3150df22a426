// args: -T gs_6_0 -E main
// SV_DomainLocation is a domain shader input, SV_OutputControlPointID a
// hull shader input, SV_TessFactor a hull output or domain input.
struct V { float4 pos : SV_Position; };
struct O { float4 pos : SV_Position; float f : SV_TessFactor; };

[maxvertexcount(1)]
void main(point V p[1], float3 loc : SV_DomainLocation, uint cp : SV_OutputControlPointID,
          inout PointStream<O> s) {
    O o;
    o.pos = p[0].pos;
    o.f = loc.x + cp;
    s.Append(o);
}
