// args: -T lib_6_3 -fspv-target-env=vulkan1.2
// A helper shared by two entries is checked against each entry's stage,
// not only the first: ReportHit is for intersection shaders.
struct Payload { float4 color; };
struct Attribs { float2 uv; };
void report(float t) {
    Attribs a = { float2(0, 0) };
    ReportHit(t, 0, a);
}
[shader("intersection")]
void sphere() { report(RayTCurrent()); }
[shader("closesthit")]
void shade(inout Payload p, in Attribs a) { report(1); p.color = 1; }
