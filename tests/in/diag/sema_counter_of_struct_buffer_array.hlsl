// args: -T cs_6_0 -E main
RWStructuredBuffer<int> rw[2];
ConsumeStructuredBuffer<int> cons[2];
AppendStructuredBuffer<int> app[2];
RWStructuredBuffer<int> o;

struct Holder {
    RWStructuredBuffer<int> rw[2];
    ConsumeStructuredBuffer<int> cons[2];
    AppendStructuredBuffer<int> app[2];

    void push(int v) {
        app[1].Append(v);
    }
};

[numthreads(1, 1, 1)]
void main() {
    Holder h;
    h.rw = rw;
    h.cons = cons;
    h.app = app;
    // Elements themselves are fine without their counters.
    h.rw[0][0] = 1;
    h.rw[1].IncrementCounter();
    o[0] = h.cons[0].Consume();
    h.push(3);
}
