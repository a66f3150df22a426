// wireframe.hlsl — a solid mesh with an anti-aliased wireframe on top, in
// one pass (vertex, geometry and pixel shaders).
//
// The geometry shader gives each corner of a triangle its distance, in
// pixels, to the opposite edge; interpolated without perspective, the
// smallest of the three is the pixel's distance to the nearest edge, which
// the pixel shader turns into a smooth line.
//
// Compile:  hlslc -spirv -T vs_6_0 -E WireVS samples/wireframe.hlsl -Fo wireframe.vs.spv
//           hlslc -spirv -T gs_6_0 -E WireGS samples/wireframe.hlsl -Fo wireframe.gs.spv
//           hlslc -spirv -T ps_6_0 -E WirePS samples/wireframe.hlsl -Fo wireframe.ps.spv
//
// Bindings: b0 cbuffer WireParams -> descriptor set 0, binding 0.

cbuffer WireParams : register(b0)
{
    float4x4 WorldViewProjection;
    float4   FillColor;
    float4   WireColor;
    float2   ViewportSize;  // pixels
    float    LineWidth;     // pixels
};

struct WireVertex
{
    float4 Position : SV_Position;
};

struct WirePixel
{
    float4 Position : SV_Position;
    noperspective float3 EdgeDistance : EDGE_DISTANCE;
};

WireVertex WireVS(float3 position : POSITION)
{
    WireVertex output;
    output.Position = mul(WorldViewProjection, float4(position, 1.0f));
    return output;
}

float2 ToPixels(float4 clipPosition)
{
    return (clipPosition.xy / clipPosition.w * 0.5f + 0.5f) * ViewportSize;
}

[maxvertexcount(3)]
void WireGS(triangle WireVertex input[3], inout TriangleStream<WirePixel> stream)
{
    float2 p0 = ToPixels(input[0].Position);
    float2 p1 = ToPixels(input[1].Position);
    float2 p2 = ToPixels(input[2].Position);

    // Twice the triangle's area over an edge's length is the height of the
    // opposite corner above that edge.
    float2 edge0 = p2 - p1;
    float2 edge1 = p2 - p0;
    float2 edge2 = p1 - p0;
    float doubleArea = abs(edge1.x * edge2.y - edge1.y * edge2.x);

    float3 heights = doubleArea / float3(length(edge0), length(edge1), length(edge2));

    WirePixel vertex;
    vertex.Position = input[0].Position;
    vertex.EdgeDistance = float3(heights.x, 0.0f, 0.0f);
    stream.Append(vertex);
    vertex.Position = input[1].Position;
    vertex.EdgeDistance = float3(0.0f, heights.y, 0.0f);
    stream.Append(vertex);
    vertex.Position = input[2].Position;
    vertex.EdgeDistance = float3(0.0f, 0.0f, heights.z);
    stream.Append(vertex);
}

float4 WirePS(WirePixel input) : SV_Target
{
    float distance = min(input.EdgeDistance.x, min(input.EdgeDistance.y, input.EdgeDistance.z));
    // 1 on the edge, falling smoothly to 0 one line width away.
    float wire = exp2(-2.0f * (distance * distance) / (LineWidth * LineWidth));
    return lerp(FillColor, WireColor, wire);
}
