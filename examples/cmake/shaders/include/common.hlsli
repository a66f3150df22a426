// Included by blur.hlsl and fullscreen.hlsl, not by clear.hlsl: editing it
// rebuilds those shaders and not clear.

#ifndef BLUR_RADIUS
#define BLUR_RADIUS 1
#endif

static const float BLUR_WEIGHT = 1.0 / (2 * BLUR_RADIUS + 1);

// sRGB to linear, roughly.
float3 srgb_to_linear(float3 c)
{
    return c * c;
}
