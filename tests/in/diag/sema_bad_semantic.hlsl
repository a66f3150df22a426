// args: -T cs_6_0 -E main
struct Input {
    uint3 id : SV_DispatchThreadID;
    float weight;
};
[numthreads(1, 1, 1)]
void main(Input input, uint lane : TEXCOORD0) {}
