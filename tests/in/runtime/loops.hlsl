// for, while, do-while with break and continue.
RWStructuredBuffer<uint> output;

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint n = id.x;
    uint s = 0;
    for (uint i = 0; i < n; ++i) {
        if (i % 3 == 1)
            continue;
        s += i;
    }
    uint w = 0;
    uint k = n;
    while (true) {
        if (k == 0)
            break;
        w += k * k;
        k--;
    }
    uint d = 0;
    uint j = 0;
    do {
        d += j;
        j += 2;
    } while (j < n);
    uint nested = 0;
    [loop] for (uint a = 0; a < 4; a++) {
        [unroll] for (uint b = 0; b < 3; b++) {
            if (a == b)
                continue;
            if (a + b > n)
                break;
            nested += a * 10 + b;
        }
    }
    output[id.x * 4 + 0] = s;
    output[id.x * 4 + 1] = w;
    output[id.x * 4 + 2] = d;
    output[id.x * 4 + 3] = nested;
}
