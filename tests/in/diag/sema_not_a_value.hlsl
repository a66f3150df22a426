// args: -T cs_6_0 -E main
float scale() { return 2; }
namespace math { static const float pi = 3.14; }
[numthreads(1, 1, 1)]
void main() {
    float x = scale + 1;
}
