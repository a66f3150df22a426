// Shared by the shaders: the weights of a box blur.

#ifndef BLUR_RADIUS
#define BLUR_RADIUS 2
#endif

static const float WEIGHT = 1.0 / (2 * BLUR_RADIUS + 1);

float4 tinted(float4 c, float3 tint)
{
    return float4(c.rgb * tint, c.a);
}
