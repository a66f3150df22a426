// args: -T cs_6_0 -E main
uint fib(uint n) {
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}
uint ping(uint n);
uint pong(uint n) { return n == 0 ? 0 : ping(n - 1); }
uint ping(uint n) { return pong(n); }
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main() {
    o[0] = fib(10) + ping(3);
}
