// args: -T cs_6_0 -E main
// A struct declared ahead but never defined has no members to lay out.
struct Material;
float roughness(Material m);
[numthreads(1, 1, 1)]
void main() {
    Material m;
}
