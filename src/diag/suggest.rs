//! "Did you mean" suggestions for unknown names.

/// Levenshtein distance between two strings.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely
/// misspelling: differing only in case, or within a third of its length.
///
/// An unknown name is compared with every name in scope (hundreds in a
/// large file, on every edit in the language server), so a candidate whose
/// length alone puts it out of reach is skipped, and the two rows of the
/// distance table are reused.
pub fn closest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let lower: Vec<char> = name.to_ascii_lowercase().chars().collect();
    let limit = (lower.len() / 3).max(1);
    let mut rows = (Vec::new(), Vec::new(), Vec::new());
    let mut best: Option<(usize, &'c str)> = None;
    for c in candidates {
        if c == name || c.chars().count().abs_diff(lower.len()) > limit {
            continue;
        }
        let d = distance_with(&lower, c, &mut rows);
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c.len()) < (bd, bc.len())) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// [`edit_distance`] between `a` (as characters) and `b` compared
/// case-insensitively (ASCII), with the caller's buffers.
fn distance_with(
    a: &[char],
    b: &str,
    (b_chars, prev, cur): &mut (Vec<char>, Vec<usize>, Vec<usize>),
) -> usize {
    b_chars.clear();
    b_chars.extend(b.chars().map(|c| c.to_ascii_lowercase()));
    prev.clear();
    prev.extend(0..=b_chars.len());
    for (i, &ca) in a.iter().enumerate() {
        cur.clear();
        cur.resize(b_chars.len() + 1, i + 1);
        for (j, &cb) in b_chars.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        std::mem::swap(prev, cur);
    }
    prev[b_chars.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_suggested() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            closest("velocity", ["pos", "vel", "velocty"]),
            Some("velocty")
        );
        assert_eq!(closest("Main", ["main", "other"]), Some("main"));
        assert_eq!(closest("x", ["position"]), None);
        // Of equally close candidates, the shortest; then the first.
        assert_eq!(closest("colr", ["colour", "color", "cola"]), Some("cola"));
        assert_eq!(closest("Tint", ["tInt", "TINT"]), Some("tInt"));
    }
}
