// args: -T cs_6_0 -E main
struct V {
    nointerpolation linear float a : A;
    centroid sample float b : B;
    row_major column_major float4x4 m : M;
};
[numthreads(1, 1, 1)]
void main() {}
