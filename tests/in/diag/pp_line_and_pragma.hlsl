// Malformed #line and _Pragma, and a #warning.
#line fifty
#line 10 20
#warning deprecated: use the new shader
_Pragma("pack_matrix(row_major)"
