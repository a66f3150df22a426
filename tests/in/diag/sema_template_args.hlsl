// args: -T cs_6_0 -E main
template <typename T> struct Box { T v; };
[numthreads(1, 1, 1)]
void main() {
    Box<float, int> b;
    vector<float, 5> v;
}
