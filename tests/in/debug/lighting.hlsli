// Shared by debug_lights.hlsl: a light and how much of it reaches a point.
// Lines ending in `//@` are statements: the debug-info test expects a
// DebugLine for each.

struct Light
{
    float3 position;
    float  radius;
    float4 color;
};

float Falloff(Light light, float3 p)
{
    float d = distance(light.position, p);       //@
    float t = saturate(1.0 - d / light.radius);  //@
    return t * t;                                //@
}
