// Function and struct templates.
template <typename T>
T square(T x) {
    return x * x;
}

template <typename T, int N>
struct Stack {
    T items[N];
    int count;

    void push(T v) {
        items[count] = v;
        count++;
    }
    T sum() {
        T s = (T)0;
        for (int i = 0; i < count; i++)
            s += items[i];
        return s;
    }
};

RWStructuredBuffer<float> output;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Stack<float, 4> s;
    s.count = 0;
    s.push(1.5);
    s.push((float)id.x);
    Stack<int, 2> t;
    t.count = 0;
    t.push(3);
    t.push(square((int)id.x));
    output[id.x * 3 + 0] = s.sum();
    output[id.x * 3 + 1] = (float)t.sum();
    output[id.x * 3 + 2] = square<float>(id.x + 0.5);
}
