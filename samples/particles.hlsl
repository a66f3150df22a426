// particles.hlsl — one simulation step of a particle system (compute shader).
//
// Integrates gravity and air drag (semi-implicit Euler), bounces particles
// off a ground plane, fades them out at the end of their life, and appends
// the index of every particle that died this step to DeadList, from which
// the emitter takes free slots.
//
// Compile:  hlslc -spirv -T cs_6_0 -E main samples/particles.hlsl -Fo particles.spv
// Dispatch: (DIVIDE_ROUND_UP(ParticleCount, 256), 1, 1)
//
// Bindings, all in descriptor set 1 ([[vk::binding]]):
//   0  cbuffer SimParams                        uniform buffer
//   1  RWStructuredBuffer<Particle> Particles   storage buffer
//   2  AppendStructuredBuffer<uint> DeadList    storage buffer
//   3  DeadList's counter                       storage buffer (vk::counter_binding)

#include "common.hlsli"
#include "particle.hlsli"

[[vk::binding(0, 1)]]
cbuffer SimParams
{
    float3 Gravity;       // m/s^2, e.g. (0, -9.81, 0)
    float  DeltaTime;     // seconds since the last step
    float  Drag;          // fraction of velocity lost per second, as a rate
    float  Restitution;   // fraction of the vertical speed kept on a bounce
    float  GroundHeight;  // y of the ground plane
    uint   ParticleCount; // size of Particles
};

[[vk::binding(1, 1)]] RWStructuredBuffer<Particle> Particles;
[[vk::binding(2, 1)]] [[vk::counter_binding(3)]] AppendStructuredBuffer<uint> DeadList;

[numthreads(GROUP_SIZE_1D, 1, 1)]
void main(uint3 dispatchId : SV_DispatchThreadID)
{
    const uint index = dispatchId.x;
    if (index >= ParticleCount)
        return;

    Particle p = Particles[index];
    if (p.Lifetime <= 0.0f)
        return;  // a free slot

    p.Age += DeltaTime;
    if (p.Age >= p.Lifetime)
    {
        p.Lifetime = 0.0f;
        Particles[index] = p;
        DeadList.Append(index);
        return;
    }

    // Velocity first, then position with the new velocity: stable for the
    // stiff drag term where explicit Euler would overshoot.
    p.Velocity += Gravity * DeltaTime;
    p.Velocity *= exp(-Drag * DeltaTime);
    p.Position += p.Velocity * DeltaTime;

    if (p.Position.y < GroundHeight && p.Velocity.y < 0.0f)
    {
        // A little randomness per particle and bounce keeps a burst of
        // particles from bouncing in lockstep.
        float jitter = HashToUnitFloat(HashPcg(index ^ asuint(p.Age)));
        p.Position.y = GroundHeight;
        p.Velocity.y = -p.Velocity.y * Restitution * lerp(0.8f, 1.0f, jitter);
        p.Velocity.xz *= 0.9f;  // friction with the ground
    }

    // Fade out over the last quarter of the life.
    float remaining = 1.0f - p.Age / p.Lifetime;
    p.Color.a = saturate(remaining * 4.0f);

    Particles[index] = p;
}
