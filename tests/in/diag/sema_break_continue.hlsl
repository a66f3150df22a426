// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main() {
    break;
    switch (1) {
    case 1:
        continue;
    }
}
