//! Open documents and LSP positions.
//!
//! LSP positions are (line, character) where lines end at `\n`, `\r\n` or
//! `\r`, and `character` counts UTF-16 code units (the default
//! `positionEncoding`, LSP 3.17 "Position"). The compiler works in byte
//! offsets; [`LineIndex`] converts both ways, clamping out-of-range
//! positions as the specification asks (a character past the end of a line
//! means the end of that line).

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// Byte offsets at which lines start, in the LSP sense of lines.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 1;
                }
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { starts }
    }

    /// Whether a line starts at byte `at` of `text`: after a `\n`, or
    /// after a `\r` that no `\n` follows.
    fn starts_at(bytes: &[u8], at: usize) -> bool {
        at == 0
            || match bytes.get(at - 1) {
                Some(b'\n') => true,
                Some(b'\r') => bytes.get(at) != Some(&b'\n'),
                _ => false,
            }
    }

    /// Updates the index after bytes `start..old_end` of the text were
    /// replaced by `new_len` bytes, giving `text`: the lines before the
    /// change are kept, those after it shifted, and only the changed
    /// bytes (and one on each side, where a `\r\n` may have formed or
    /// split) are scanned again. What [`LineIndex::new`] of `text` gives,
    /// without reading a large file whole on every keystroke.
    fn replace(&mut self, text: &str, start: usize, old_end: usize, new_len: usize) {
        let bytes = text.as_bytes();
        // Whether a line starts at `s` depends on bytes `s - 1` and `s`:
        // old starts before `start` and from `old_end + 2` on are kept.
        let first = self.starts.partition_point(|&s| s < start);
        let last = self.starts.partition_point(|&s| s < old_end + 2);
        let rescan_end = (start + new_len + 1).min(bytes.len());
        let rescanned: Vec<usize> = (start..=rescan_end)
            .filter(|&s| Self::starts_at(bytes, s))
            .collect();
        let added = rescanned.len();
        self.starts.splice(first..last, rescanned);
        for s in &mut self.starts[first + added..] {
            *s = *s - old_end + start + new_len;
        }
    }

    /// The byte range of line `line`'s content, without its terminator.
    fn line_content(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts[line];
        let end = match self.starts.get(line + 1) {
            Some(&next) => {
                let b = text.as_bytes();
                if next >= 2 && b[next - 2] == b'\r' && b[next - 1] == b'\n' {
                    next - 2
                } else {
                    next - 1
                }
            }
            None => text.len(),
        };
        (start, end.max(start))
    }

    /// The byte offset of `pos` in `text`. A line past the end gives the
    /// end of the text; a character past the end of its line gives the end
    /// of the line; a position inside a surrogate pair gives the start of
    /// its character.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let line = pos.line as usize;
        if line >= self.starts.len() {
            return text.len();
        }
        let (start, end) = self.line_content(text, line);
        let mut units = 0u32;
        for (i, c) in text[start..end].char_indices() {
            let next = units + c.len_utf16() as u32;
            if next > pos.character {
                return start + i;
            }
            units = next;
        }
        end
    }

    /// The LSP position of byte `offset` (clamped to the text, and back to
    /// the start of a character it falls inside).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position {
            line: line as u32,
            character: character as u32,
        }
    }

    /// The LSP range of bytes `start..end`.
    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range {
            start: self.position(text, start),
            end: self.position(text, end.max(start)),
        }
    }
}

/// An open document: its text as the editor has it.
#[derive(Debug)]
pub struct Document {
    /// The URI exactly as the client sent it (publishing under the same
    /// string lets every client match it).
    pub uri: lsp_types::Uri,
    pub version: i32,
    pub text: String,
    index: LineIndex,
}

impl Document {
    pub fn new(uri: lsp_types::Uri, version: i32, text: String) -> Self {
        let index = LineIndex::new(&text);
        Document {
            uri,
            version,
            text,
            index,
        }
    }

    /// Applies one change: a whole new text (no range) or a replacement of
    /// a range, in positions of the text as it stands before this change
    /// (changes of one notification apply one after another).
    pub fn apply(&mut self, change: TextDocumentContentChangeEvent) {
        match change.range {
            None => {
                self.text = change.text;
                self.index = LineIndex::new(&self.text);
            }
            Some(range) => {
                let mut start = self.index.offset(&self.text, range.start);
                let mut end = self.index.offset(&self.text, range.end);
                if start > end {
                    std::mem::swap(&mut start, &mut end);
                }
                self.text.replace_range(start..end, &change.text);
                self.index
                    .replace(&self.text, start, end, change.text.len());
            }
        }
    }

    /// The line index of [`Document::text`].
    pub fn lines(&self) -> &LineIndex {
        &self.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf16_columns() {
        // 'é' is 2 bytes and 1 UTF-16 unit; '𝄞' is 4 bytes and 2 units.
        let text = "aé𝄞b\nx";
        let li = LineIndex::new(text);
        assert_eq!(li.offset(text, pos(0, 0)), 0);
        assert_eq!(li.offset(text, pos(0, 2)), 3);
        assert_eq!(li.offset(text, pos(0, 4)), 7);
        assert_eq!(li.offset(text, pos(0, 3)), 3, "inside the surrogate pair");
        assert_eq!(li.offset(text, pos(0, 99)), 8, "end of the line");
        assert_eq!(li.offset(text, pos(1, 0)), 9);
        assert_eq!(li.offset(text, pos(7, 0)), text.len());
        assert_eq!(li.position(text, 7), pos(0, 4));
        assert_eq!(li.position(text, 8), pos(0, 5));
        assert_eq!(li.position(text, 9), pos(1, 0));
        assert_eq!(li.position(text, 5), pos(0, 2), "inside '𝄞'");
        assert_eq!(li.position(text, 100), pos(1, 1));
    }

    #[test]
    fn line_terminators() {
        let text = "a\r\nb\rc\n\nd";
        let li = LineIndex::new(text);
        assert_eq!(li.offset(text, pos(1, 0)), 3);
        assert_eq!(li.offset(text, pos(2, 0)), 5);
        assert_eq!(li.offset(text, pos(3, 0)), 7);
        assert_eq!(li.offset(text, pos(4, 0)), 8);
        assert_eq!(li.offset(text, pos(0, 5)), 1, "not into the \\r\\n");
        assert_eq!(li.position(text, 5), pos(2, 0));
    }

    #[test]
    fn incremental_changes() {
        let uri: lsp_types::Uri = "file:///a.hlsl".parse().unwrap();
        let mut d = Document::new(uri, 1, "float x;\nint y;\n".into());
        let edit = |l0, c0, l1, c1, t: &str| TextDocumentContentChangeEvent {
            range: Some(Range {
                start: pos(l0, c0),
                end: pos(l1, c1),
            }),
            range_length: None,
            text: t.into(),
        };
        d.apply(edit(1, 0, 1, 3, "uint"));
        assert_eq!(d.text, "float x;\nuint y;\n");
        d.apply(edit(0, 0, 0, 0, "/* é */ "));
        assert_eq!(d.text, "/* é */ float x;\nuint y;\n");
        // Positions after the 'é' count it as one unit.
        d.apply(edit(0, 14, 0, 15, "z"));
        assert_eq!(d.text, "/* é */ float z;\nuint y;\n");
        d.apply(edit(0, 16, 1, 0, ""));
        assert_eq!(d.text, "/* é */ float z;uint y;\n");
        d.apply(TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "new".into(),
        });
        assert_eq!(d.text, "new");
        // Reversed and out-of-range ranges do not panic.
        d.apply(edit(5, 0, 0, 1, "!"));
        assert_eq!(d.text, "n!");
    }

    /// Random edits at random (often invalid) positions over text with
    /// multi-byte characters and every line terminator: no panic, and the
    /// offset of a position that came from an offset is that offset.
    #[test]
    fn random_edits_never_panic() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n.max(1)
        };
        let pieces = ["a", "é", "𝄞", "\n", "\r\n", "\r", " ", "#error x", "中"];
        let uri: lsp_types::Uri = "file:///r.hlsl".parse().unwrap();
        let mut d = Document::new(uri, 0, String::new());
        for _ in 0..2000 {
            let mut insert = String::new();
            for _ in 0..next(4) {
                insert.push_str(pieces[next(pieces.len() as u64) as usize]);
            }
            let lines = d.text.lines().count() as u64 + 2;
            let p = |next: &mut dyn FnMut(u64) -> u64| pos(next(lines) as u32, next(12) as u32);
            let (a, b) = (p(&mut next), p(&mut next));
            d.apply(TextDocumentContentChangeEvent {
                range: Some(Range { start: a, end: b }),
                range_length: None,
                text: insert,
            });
            let li = LineIndex::new(&d.text);
            // The index updated edit by edit is the one made afresh.
            assert_eq!(d.index.starts, li.starts, "after {:?}", (a, b));
            let at = next(d.text.len() as u64 + 1) as usize;
            if d.text.is_char_boundary(at)
                && !(at > 0
                    && d.text.as_bytes()[at - 1] == b'\r'
                    && d.text.as_bytes().get(at) == Some(&b'\n'))
            {
                assert_eq!(li.offset(&d.text, li.position(&d.text, at)), at);
            }
        }
    }
}
