// Expression semantics: assignments as values, compound assignments with
// conversions, increments of components and elements, the comma
// operator, mixed signed/unsigned arithmetic and comparisons, shift
// amounts modulo 32, signed remainder.
RWStructuredBuffer<int> input;
RWStructuredBuffer<int> output;

struct Counter { int n; int2 v; };

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint t = id.x;
    int a = input[t];
    int b = input[t + 4];
    int base = t * 16;

    int x, y, z;
    x = y = z = a + 1;
    output[base + 0] = x + y + z;

    int c = b;
    int d = (c += 3) * 2;
    output[base + 1] = c * 100 + d;

    int i = a;
    i += 1.75;          // i = int(float(i) + 1.75)
    output[base + 2] = i;

    float f = a;
    f /= 2;             // float division
    output[base + 3] = (int)(f * 4);

    int2 v = int2(a, b);
    v.y++;
    ++v.x;
    int old = v.x--;
    output[base + 4] = v.x * 1000 + v.y * 10 + old;

    int arr[3] = { a, b, 7 };
    arr[t % 3] += 5;
    arr[1]++;
    output[base + 5] = arr[0] + arr[1] * 100 + arr[2] * 10000;

    Counter k;
    k.n = 0;
    k.v = int2(1, 2);
    k.n += k.v.y;
    k.v.x <<= 3;
    output[base + 6] = k.n * 100 + k.v.x;

    int e = (a, b);     // comma: the last operand
    output[base + 7] = e;

    uint u = 3;
    // -1 converts to uint: 0xffffffff > 3.
    output[base + 8] = (a < 0 && (uint)a > u) ? 1 : 0;
    output[base + 9] = (int)((uint)b / 2u);
    output[base + 10] = a >> (t + 32);      // amount modulo 32
    output[base + 11] = b << (33 + t);
    output[base + 12] = a % 3;
    output[base + 13] = b / -2;
    int m = min(a, b) * max(a, b);
    output[base + 14] = m;
    output[base + 15] = (a > b) + (a == a) * 2 + (a != b) * 4;
}
