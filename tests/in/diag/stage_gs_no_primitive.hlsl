// args: -T gs_6_0 -E main
// The vertex array needs a primitive type, and there must be a stream.
struct V { float4 pos : SV_Position; };

[maxvertexcount(3)]
void main(V t[3]) {
}
