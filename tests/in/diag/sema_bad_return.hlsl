// args: -T cs_6_0 -E main
int count() {
    return;
}
void nothing() {
    return 5;
}
[numthreads(1, 1, 1)]
void main() {
    count();
    nothing();
}
