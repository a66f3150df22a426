// ## must form one token.
#define JOIN(a, b) a ## b
static const int v = JOIN(1, +) 2;
