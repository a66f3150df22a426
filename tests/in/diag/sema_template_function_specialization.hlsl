// args: -T cs_6_0 -E main
// A function template specialised twice for one argument, and a
// specialisation of a function that is no template.
template <typename T> uint code(T x) { return 1; }
template <> uint code<float>(float x) { return 2; }
template <> uint code<float>(float x) { return 3; }

uint plain(uint x) { return x; }
template <> uint plain<uint>(uint x) { return 0; }

RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main() {
    o[0] = code(1.0f);
}
