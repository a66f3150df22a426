// args: -T ps_6_0 -E main
// Integers are not interpolated: only `nointerpolation` fits them.
struct PSInput {
    linear        int   a : A;
    centroid      uint2 b : B;
    noperspective bool  c : C;
    sample        int3  d : D;
    nointerpolation int e : E;
    linear        float f : F;
};

float4 main(PSInput i) : SV_Target {
    return float4(i.a + i.b.x + i.d.x + i.e, i.c, i.f, 1);
}
