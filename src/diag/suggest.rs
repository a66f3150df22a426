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
pub fn closest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let lower = name.to_ascii_lowercase();
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(&c.to_ascii_lowercase(), &lower), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, c)| (d, c.len()))
        .map(|(_, c)| c)
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
    }
}
