// Local arrays: initialiser lists, dynamic indexing, 2D arrays, copies.
RWStructuredBuffer<int> output;

int sum3(int a[3]) {
    return a[0] + a[1] + a[2];
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int a[] = { 5, 6, 7, 8 };
    int grid[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
    float2 pts[2] = { float2(1, 2), float2(3, 4) };
    uint i = id.x;
    a[i] *= 10;
    grid[i % 2][i % 3] = -1;
    int b[3] = grid[1];
    int c[4] = a;
    c[0] = 99;
    output[id.x * 6 + 0] = a[i];
    output[id.x * 6 + 1] = a[(i + 1) % 4];
    output[id.x * 6 + 2] = grid[1][i % 3];
    output[id.x * 6 + 3] = sum3(b);
    output[id.x * 6 + 4] = c[0] + a[0];
    output[id.x * 6 + 5] = (int)pts[i % 2].y;
}
