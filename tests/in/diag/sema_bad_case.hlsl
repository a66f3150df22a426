// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main(uint i : SV_GroupIndex) {
    switch (i) {
    case 1:
        break;
    case i:
        break;
    case 1:
        break;
    }
}
