// args: -T ps_6_0 -E main
// `const static` members declared without a value must be defined before
// they are used: in a struct, and in an instance of a struct template.
template <uint N, typename T = float>
struct Weights {
    const static T w[N];
};

struct Table {
    const static float entries[2];
    const static float scale;
};
const static float Table::scale = 2.0;

static int index = 1;

float4 main() : SV_Target {
    return Table::entries[index] * Table::scale + Weights<2>::w[index];
}
