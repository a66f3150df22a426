//! What reflection reads back from the SPIR-V words: the version, the
//! capabilities and extensions, the entry points' names and their execution
//! modes. Only the module's first sections are scanned (SPIR-V 2.4, "Logical
//! Layout of a Module": capabilities, extensions, imports, memory model,
//! entry points, execution modes come first, in that order).

use spirv::Op;

/// The parts of a SPIR-V module's header sections that reflection reports.
#[derive(Debug, Default)]
pub struct Summary {
    /// (major, minor) from the header.
    pub version: (u8, u8),
    pub capabilities: Vec<String>,
    pub extensions: Vec<String>,
    /// `OpEntryPoint`s in module order: (result id of the function, name).
    pub entry_points: Vec<(u32, String)>,
    /// Execution modes of each function id, readable (`LocalSize 8 8 1`).
    pub execution_modes: Vec<(u32, String)>,
}

impl Summary {
    /// The readable execution modes of the entry point on function `id`.
    pub fn modes_of(&self, id: u32) -> Vec<String> {
        self.execution_modes
            .iter()
            .filter(|(f, _)| *f == id)
            .map(|(_, m)| m.clone())
            .collect()
    }
}

/// Scans `words`; a malformed module gives what could be read before the
/// damage (never a panic).
pub fn summarize(words: &[u32]) -> Summary {
    let mut s = Summary::default();
    if words.len() < 5 || words[0] != spirv::MAGIC_NUMBER {
        return s;
    }
    s.version = (
        ((words[1] >> 16) & 0xff) as u8,
        ((words[1] >> 8) & 0xff) as u8,
    );
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        let opcode = words[i] & 0xffff;
        if count == 0 || i + count > words.len() {
            break;
        }
        let operands = &words[i + 1..i + count];
        i += count;
        match Op::from_u32(opcode) {
            Some(Op::Capability) => {
                if let Some(c) = operands
                    .first()
                    .and_then(|&c| spirv::Capability::from_u32(c))
                {
                    s.capabilities.push(format!("{c:?}"));
                }
            }
            Some(Op::Extension) => s.extensions.push(string_operand(operands).0),
            Some(Op::ExtInstImport | Op::MemoryModel) => {}
            Some(Op::EntryPoint) => {
                if operands.len() >= 2 {
                    let (name, _) = string_operand(&operands[2..]);
                    s.entry_points.push((operands[1], name));
                }
            }
            Some(Op::ExecutionMode | Op::ExecutionModeId) => {
                let Some((&function, rest)) = operands.split_first() else {
                    continue;
                };
                let Some((&mode, args)) = rest.split_first() else {
                    continue;
                };
                let mut text = match spirv::ExecutionMode::from_u32(mode) {
                    Some(m) => format!("{m:?}"),
                    None => format!("ExecutionMode{mode}"),
                };
                let id = Op::from_u32(opcode) == Some(Op::ExecutionModeId);
                for a in args {
                    text.push(' ');
                    if id {
                        text.push('%');
                    }
                    text.push_str(&a.to_string());
                }
                s.execution_modes.push((function, text));
            }
            // Debug names come next: nothing further is needed.
            _ => break,
        }
    }
    s
}

/// A nul-terminated UTF-8 string packed into words (little-endian bytes),
/// and the number of words it took.
fn string_operand(words: &[u32]) -> (String, usize) {
    let mut bytes = Vec::new();
    for (n, w) in words.iter().enumerate() {
        for b in w.to_le_bytes() {
            if b == 0 {
                return (String::from_utf8_lossy(&bytes).into_owned(), n + 1);
            }
            bytes.push(b);
        }
    }
    (String::from_utf8_lossy(&bytes).into_owned(), words.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(s: &str) -> Vec<u32> {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        while !b.len().is_multiple_of(4) {
            b.push(0);
        }
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    fn inst(op: Op, operands: &[u32]) -> Vec<u32> {
        let mut v = vec![((operands.len() as u32 + 1) << 16) | op as u32];
        v.extend_from_slice(operands);
        v
    }

    #[test]
    fn reads_the_first_sections() {
        let mut w = vec![spirv::MAGIC_NUMBER, 0x0001_0300, 0, 10, 0];
        w.extend(inst(Op::Capability, &[spirv::Capability::Shader as u32]));
        w.extend(inst(
            Op::Extension,
            &pack("SPV_KHR_storage_buffer_storage_class"),
        ));
        w.extend(inst(Op::MemoryModel, &[0, 1]));
        let mut ep = vec![spirv::ExecutionModel::GLCompute as u32, 4];
        ep.extend(pack("main"));
        ep.push(7);
        w.extend(inst(Op::EntryPoint, &ep));
        w.extend(inst(
            Op::ExecutionMode,
            &[4, spirv::ExecutionMode::LocalSize as u32, 8, 4, 1],
        ));
        w.extend(inst(Op::Name, &[4]));
        // A later execution mode must not be read after the debug section starts.
        w.extend(inst(
            Op::ExecutionMode,
            &[4, spirv::ExecutionMode::OriginUpperLeft as u32],
        ));
        let s = summarize(&w);
        assert_eq!(s.version, (1, 3));
        assert_eq!(s.capabilities, vec!["Shader"]);
        assert_eq!(s.extensions, vec!["SPV_KHR_storage_buffer_storage_class"]);
        assert_eq!(s.entry_points, vec![(4, "main".to_string())]);
        assert_eq!(s.modes_of(4), vec!["LocalSize 8 4 1"]);
    }

    #[test]
    fn broken_modules_do_not_panic() {
        assert!(summarize(&[]).capabilities.is_empty());
        let mut w = vec![spirv::MAGIC_NUMBER, 0x0001_0000, 0, 10, 0];
        w.push((9 << 16) | Op::Capability as u32); // claims more words than there are
        assert!(summarize(&w).capabilities.is_empty());
        w.push(0); // a zero word count
        let mut w2 = vec![spirv::MAGIC_NUMBER, 0x0001_0000, 0, 10, 0, 0];
        w2.extend(inst(Op::EntryPoint, &[5]));
        assert!(summarize(&w2).entry_points.is_empty());
        assert!(summarize(&w).capabilities.is_empty());
    }
}
