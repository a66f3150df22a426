// A directive the preprocessor does not know; in a skipped group it is fine.
#if 0
#import "skipped.h"
#endif
#import "shader.h"
