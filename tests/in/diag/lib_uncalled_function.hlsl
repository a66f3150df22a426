// args: -fsyntax-only
// No profile and no entry point: the file is checked as a library, so a
// mistake in a function that nothing calls is still found.
cbuffer Lighting : register(b0) {
    float3 sunDirection;
    float3 sunColor;
};

float3 lambert(float3 n) {
    return sunColor * saturate(dot(n, sunDirection));
}

float3 halfLambert(float3 n) {
    float wrap = dot(n, sunDirecton) * 0.5 + 0.5;
    return sunColor * wrap * wrap;
}
