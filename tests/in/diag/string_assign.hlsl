// args: -T cs_6_0 -E main
// A `string` keeps the text it was initialized with.
string greeting = "hello";

[numthreads(1, 1, 1)]
void main() {
    greeting = "goodbye";
    printf(greeting);
}
