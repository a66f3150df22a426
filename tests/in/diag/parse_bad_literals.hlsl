// Literals that do not fit, or are not valid.
uint big = 123456789012345678901234567890;
uint oct = 09;
