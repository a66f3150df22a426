// Text that is no token: reported where it is active, not in #if 0.
#if 0
don't care ´
#endif
static const float a = 1.0 §;
static const float b = 2.0; "never closed
/* this comment never ends
