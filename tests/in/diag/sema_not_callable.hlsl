// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main() {
    float speed = 1;
    float d = speed(2);
}
