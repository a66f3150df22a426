// Malformed #define lines; the rest of the file goes on.
#define
#define 2PI 6.28
#define STR(x) #y
#define CAT(a, b) a ## b ##
#define SAME(x, x) x
#undef
static const float pi = 3.14;
