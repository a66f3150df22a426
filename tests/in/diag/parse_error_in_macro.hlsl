// A syntax error inside a macro's expansion points at the macro body and
// says which use expanded it.
#define SCALE(x) ((x) * 2 +)

float4 main(float4 c : COLOR) : SV_Target {
    return SCALE(c);
}
