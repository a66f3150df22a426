// particle.hlsli — the particle record shared by the simulation
// (particles.hlsl) and the renderer (sprites.hlsl).
//
// 48 bytes in a structured buffer: float3 + float pack into 16 bytes each.

#ifndef SAMPLES_PARTICLE_HLSLI
#define SAMPLES_PARTICLE_HLSLI

struct Particle
{
    float3 Position;  // world space, metres
    float  Age;       // seconds since the particle was spawned
    float3 Velocity;  // metres per second
    float  Lifetime;  // seconds it lives; 0 marks a free slot
    float4 Color;     // linear RGB and opacity
};

#endif // SAMPLES_PARTICLE_HLSLI
