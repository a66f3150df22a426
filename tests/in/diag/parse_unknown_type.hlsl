// A misspelt type name is named as such, in a declaration at any level.
Textur2D tex;

float4 main(float2 uv : TEXCOORD) : SV_Target {
    flaot4 c = 0;
    return c;
}
