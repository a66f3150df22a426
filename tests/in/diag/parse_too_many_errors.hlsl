// A syntax error at almost every token: after 1000 recoveries the parser
// stops (one error for it), so the work spent on recovery stays bounded.
void main() {
    a
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
    x x x x x x x x x x x x x x x x x x x x
}
float never_parsed = ;
