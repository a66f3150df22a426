// args: -T vs_6_0 -E main
// Each semantic names one input and one output.
struct In {
    float4 f : ABC;
};

struct Out {
    float4 g : abc;
};

void main(int a : ABC, In c,
          out int u : ABC, out Out w, inout float4 pos : SV_Position) {
    u = a;
    w.g = c.f;
}
