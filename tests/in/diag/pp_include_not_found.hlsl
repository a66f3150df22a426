// An include that is nowhere: the message says where it looked.
#include "pp_no_such_file.hlsli"
#include <vk/pp_no_such_header.h>
