// out and inout parameters are copies: written back after the call.
RWStructuredBuffer<int> output;

void split(int v, out int hi, out int lo) {
    hi = v / 10;
    lo = v % 10;
}

void bump(inout int a, inout int b) {
    a = a + 1;
    b = b * 2;
}

int twice(inout int x) {
    x = x * 2;
    return x + 1;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int v = (int)id.x * 7 + 3;
    int h, l;
    split(v, h, l);
    int a = v;
    // The same variable passed twice: the last copy-back wins.
    bump(a, a);
    int arr[2] = { 1, 2 };
    int r = twice(arr[id.x % 2]);
    int2 pair = int2(5, 6);
    split(v + 1, pair.y, pair.x);
    output[id.x * 6 + 0] = h;
    output[id.x * 6 + 1] = l;
    output[id.x * 6 + 2] = a;
    output[id.x * 6 + 3] = r * 100 + arr[0] * 10 + arr[1];
    output[id.x * 6 + 4] = pair.x;
    output[id.x * 6 + 5] = pair.y;
}
