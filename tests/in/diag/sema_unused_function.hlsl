// args: -T cs_6_0 -E main
// Functions the entry point never calls are still checked for language
// errors, as DXC does; stage-only problems in them are not reported.
RWStructuredBuffer<float> o;

float never_called(float3 v) {
    float2 w = v.xyq;
    return undefined_name + w.x;
}

void pixel_helper(float x) {
    if (x < 0) discard;
}

[numthreads(1, 1, 1)]
void main() { o[0] = 1; }
