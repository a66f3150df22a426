// Clears an image to a colour. Includes nothing: editing common.hlsli does
// not rebuild it.

cbuffer Clear : register(b0)
{
    float4 colour;
};

RWTexture2D<float4> target : register(u1);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    target[id.xy] = colour;
}
