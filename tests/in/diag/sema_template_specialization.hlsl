// args: -T cs_6_2 -E main -enable-16bit-types
// A specialisation given twice, two partial specialisations that match one
// instance equally, and a specialisation of a struct that is no template.
template <typename T> struct Trait { static const uint size = 0; };
template <> struct Trait<half> { static const uint size = 2; };
template <> struct Trait<half> { static const uint size = 3; };

template <typename A, typename B> struct Pair { static const int which = 0; };
template <typename A> struct Pair<A, int> { static const int which = 1; };
template <typename B> struct Pair<int, B> { static const int which = 2; };

struct Plain { int x; };
template <> struct Plain<int> { int y; };

RWStructuredBuffer<int> o;

[numthreads(1, 1, 1)]
void main() {
    o[0] = Pair<float, int>::which + Pair<int, float>::which;
    o[1] = Pair<int, int>::which;
}
