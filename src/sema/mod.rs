//! Semantic analysis: names, types, overloads, intrinsics and storage-class
//! rules; lowers the AST to the IR.
