// args: -T lib_6_3 -fspv-target-env=vulkan1.2
// A closest-hit shader takes the payload and the hit attributes.
struct Payload { float4 color; };

[shader("closesthit")]
void hit(inout Payload p) {
    p.color = 1;
}
