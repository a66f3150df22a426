// switch with fall-through, default in the middle, nested breaks.
RWStructuredBuffer<int> output;

int classify(int x) {
    int r = 0;
    switch (x % 6) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    default:
        r += 100;
    case 2:
        r += 1000;
        break;
    case 3: {
        for (int i = 0; i < 4; i++) {
            if (i == 2)
                break;
            r += 5;
        }
        break;
    }
    case -1:
        return -7;
    }
    return r;
}

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    output[id.x] = classify((int)id.x - 3);
}
