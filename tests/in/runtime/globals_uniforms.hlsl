// Plain globals are uniforms in the $Globals cbuffer.
float gain;
int bias;
float4 weights;

RWStructuredBuffer<float> output;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    output[id.x] = gain * weights[id.x] + bias;
}
