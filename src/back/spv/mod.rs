//! The SPIR-V backend: IR → SPIR-V words with rspirv.

/// SPIR-V disassembly text of a module (rspirv's format).
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    match rspirv::dr::load_words(words) {
        Ok(module) => module.disassemble(),
        Err(e) => format!("; could not disassemble: {e}\n"),
    }
}
