// args: -T cs_6_0 -E main
// Near misses of declared names, members, functions and intrinsics.
struct Particle { float3 position; float3 velocity; };
RWStructuredBuffer<Particle> particles;
static const float gravity = 9.8;

float3 integrate(float3 p, float3 v) { return p + v; }

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Particle p = particles[id.x];
    p.velocty.y -= gravty;
    p.position = integrat(p.position, p.velocity);
    p.position = saturat(p.position);
    particles[id.x] = p;
}
