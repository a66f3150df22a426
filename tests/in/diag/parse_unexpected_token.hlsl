// Several independent errors, each reported once.
struct S {
    float a b;
    float c;
};

float f(float x) {
    float y = x * ;
    return y +) 1;
}

float g() { return 2; }
