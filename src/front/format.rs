//! The formatter (`hlslc -format`, the language server's formatting): one
//! canonical layout for HLSL that changes no token and keeps every comment
//! and preprocessor line.
//!
//! The layout: one statement or declaration a line (see `statements`);
//! indentation by block (`IndentWidth` spaces or tabs; a line
//! inside unclosed parentheses or brackets one level deeper; `case` labels
//! at their switch's block level and their statements one deeper), one
//! space around binary operators, after commas and keywords, none inside
//! parentheses and brackets, around `.` and `::`, inside template
//! brackets (`vector<float, 2>`) or after a cast (`(float4)x`); block
//! braces attached to their line or on their own line
//! (`BreakBeforeBraces`); attributes of file-scope declarations on a line
//! of their own; at most one blank line; no trailing spaces; one newline
//! at the end. A statement the source breaks where it cannot end (inside
//! parentheses, after an operator or a comma, before an operator) is
//! joined (`join`); a line longer than `ColumnLimit` breaks after a comma
//! inside parentheses or a binary operator (where the rest then fits, the
//! shallowest, the loosest), its continuation one level deeper.
//! Initializer lists and `struct` and `enum` bodies keep their lines.
//! Preprocessor lines are kept as written, at column 0; comments as
//! written, a comment on its own line indented as the code around it.
//! Template brackets and comparisons look alike to a lexer: `angles`
//! tells them apart from the tokens around them, and a `<` or `>` it
//! cannot place keeps the spacing it had (`casts` tells indexing `[` from
//! attributes and finds casts). Formatting
//! formatted text changes nothing.

use super::lexer::{self, Token};
use angles::Angle;

mod angles;
mod casts;
mod join;

/// Where a block's `{` goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BraceStyle {
    /// At the end of the line that opens the block.
    Attach,
    /// On a line of its own.
    Allman,
}

/// The formatter's settings (those of a `.clang-format` file it reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatOptions {
    /// Spaces per level (`IndentWidth`).
    pub indent_width: usize,
    /// A tab per level instead (`UseTab`).
    pub use_tabs: bool,
    /// The longest line wanted (0: no limit): longer lines break after
    /// commas inside parentheses.
    pub column_limit: usize,
    /// Where a block's `{` goes (`BreakBeforeBraces`).
    pub braces: BraceStyle,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions {
            indent_width: 4,
            use_tabs: false,
            column_limit: 100,
            braces: BraceStyle::Attach,
        }
    }
}

impl FormatOptions {
    /// The settings of a `.clang-format` file (`IndentWidth`, `UseTab`,
    /// `ColumnLimit`, `BreakBeforeBraces`; other keys are ignored) over
    /// these.
    pub fn with_clang_format(mut self, text: &str) -> FormatOptions {
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("");
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match key.trim() {
                "IndentWidth" => {
                    if let Ok(n) = value.parse() {
                        self.indent_width = n;
                    }
                }
                "ColumnLimit" => {
                    if let Ok(n) = value.parse() {
                        self.column_limit = n;
                    }
                }
                "UseTab" => self.use_tabs = !matches!(value, "Never" | "false"),
                "BreakBeforeBraces" => {
                    self.braces = match value {
                        "Allman" | "GNU" | "Whitesmiths" => BraceStyle::Allman,
                        _ => BraceStyle::Attach,
                    }
                }
                _ => {}
            }
        }
        self
    }
}

/// The settings for formatting `file` from the nearest `.clang-format` (or
/// `_clang-format`) in its directory or one above, over the defaults;
/// `None` when there is no such file.
pub fn options_for(file: &std::path::Path) -> Option<FormatOptions> {
    let start = std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf());
    start.ancestors().skip(1).find_map(|dir| {
        [".clang-format", "_clang-format"].iter().find_map(|name| {
            let text = std::fs::read_to_string(dir.join(name)).ok()?;
            Some(FormatOptions::default().with_clang_format(&text))
        })
    })
}

/// One thing on a line.
#[derive(Clone, Debug)]
enum Item<'t> {
    Tok(Token, &'t str, /* space before in the source */ bool),
    Comment(&'t str),
}

impl Item<'_> {
    /// The token, if the item is one.
    fn token(&self) -> Option<Token> {
        match self {
            Item::Tok(k, ..) => Some(*k),
            Item::Comment(_) => None,
        }
    }
}

/// A line of the source: a preprocessor line (verbatim), a blank one, or
/// items.
#[derive(Clone, Debug)]
enum Line<'t> {
    Preprocessor(&'t str),
    Blank,
    Code(Vec<Item<'t>>),
}

/// `text` in the canonical layout; `None` when it has text the lexer
/// cannot read (which the formatter would not know how to keep).
pub fn format(text: &str, options: &FormatOptions) -> Option<String> {
    let lines = statements(attributes(join::join(lines(text)?)));
    Some(render(&braces(lines, options.braces), options, false))
}

/// Each line of `text` formatted where it stands (for formatting a range:
/// no brace moves, blank lines kept, so that line `i` of the result is
/// line `i` of `text`); `None` as for [`format`].
#[cfg(feature = "lsp")]
pub fn format_lines(text: &str, options: &FormatOptions) -> Option<Vec<String>> {
    let out = render(&lines(text)?, options, true);
    Some(out.split('\n').map(str::to_string).collect())
}

/// The source's lines; `None` when the lexer cannot read all of it.
fn lines(text: &str) -> Option<Vec<Line<'_>>> {
    let (tokens, errors) = lexer::lex(text);
    if !errors.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    let mut items: Vec<Item> = Vec::new();
    let mut at = 0;
    let mut i = 0;
    while i <= tokens.len() {
        let next = tokens.get(i).map_or(text.len(), |t| t.start as usize);
        // Comments in the gap before the next token.
        let gap = &text[at..next];
        let mut g = 0;
        while let Some(c) = gap[g..].find('/') {
            let s = g + c;
            let rest = &gap[s..];
            let len = if rest.starts_with("//") {
                rest.find('\n').unwrap_or(rest.len())
            } else if rest.starts_with("/*") {
                rest.find("*/").map_or(rest.len(), |e| e + 2)
            } else {
                break;
            };
            items.push(Item::Comment(&gap[s..s + len]));
            g = s + len;
        }
        let Some(t) = tokens.get(i) else { break };
        let (s, e) = (t.start as usize, t.end as usize);
        match t.kind {
            Token::Newline => {
                out.push(if items.is_empty() {
                    Line::Blank
                } else {
                    Line::Code(std::mem::take(&mut items))
                });
                at = e;
                i += 1;
                continue;
            }
            Token::Hash if items.is_empty() => {
                // The directive to the end of its line (continuations
                // included), as written.
                let mut j = i;
                while j < tokens.len() && tokens[j].kind != Token::Newline {
                    j += 1;
                }
                let end = tokens.get(j).map_or(text.len(), |t| t.start as usize);
                out.push(Line::Preprocessor(text[s..end].trim_end()));
                // Past its line end.
                at = tokens.get(j).map_or(text.len(), |t| t.end as usize);
                i = j + 1;
                continue;
            }
            _ => {}
        }
        items.push(Item::Tok(t.kind, &text[s..e], at < s));
        at = e;
        i += 1;
    }
    if !items.is_empty() {
        out.push(Line::Code(items));
    }
    Some(out)
}

/// Whether a `{` opens a block (not an initializer list), from the token
/// before it.
fn opens_block(prev: Option<&Item>) -> bool {
    !matches!(
        prev,
        Some(Item::Tok(Token::Eq | Token::Comma | Token::LParen | Token::LBrace | Token::Return, ..))
    )
}

/// At file scope, HLSL attributes (`[numthreads(8, 8, 1)]`,
/// `[shader("pixel")]`) on a line of their own, before the declaration
/// they belong to. (Vulkan's `[[vk::…]]` stay where they are written, as
/// statement attributes such as `[unroll]` do.)
fn attributes(lines: Vec<Line<'_>>) -> Vec<Line<'_>> {
    let mut out = Vec::with_capacity(lines.len());
    let mut depth = 0i32;
    for line in lines {
        let Line::Code(mut items) = line else {
            out.push(line);
            continue;
        };
        let tok = |i: usize| items.get(i).and_then(Item::token);
        // The end of the attributes the line starts with.
        let mut end = 0;
        while depth == 0 && tok(end) == Some(Token::LBracket) && tok(end + 1) == Some(Token::Ident) {
            let mut brackets = 0;
            let mut i = end;
            while let Some(k) = tok(i) {
                brackets += i32::from(k == Token::LBracket) - i32::from(k == Token::RBracket);
                i += 1;
                if brackets == 0 {
                    break;
                }
            }
            if brackets != 0 {
                end = 0;
                break;
            }
            end = i;
        }
        for k in items.iter().filter_map(Item::token) {
            depth += i32::from(k == Token::LBrace) - i32::from(k == Token::RBrace);
        }
        if end > 0 && tok(end).is_some() {
            let rest = items.split_off(end);
            out.push(Line::Code(items));
            out.push(Line::Code(rest));
        } else {
            out.push(Line::Code(items));
        }
    }
    out
}

/// One statement or declaration a line: a line breaks after a `;` outside
/// parentheses, after a `case` label, after a block's `{`, before its `}`
/// and after it (an empty
/// block `{}` stays whole; a `}` keeps `else`, `;`, `,`, a `do` block its
/// `while`, a `struct` its variables). A statement the source breaks over
/// lines keeps its breaks.
fn statements(lines: Vec<Line<'_>>) -> Vec<Line<'_>> {
    /// What a `{` opens.
    #[derive(Clone, Copy, PartialEq)]
    enum Open {
        Block,
        Do,
        Aggregate,
        Init,
    }
    let mut out = Vec::with_capacity(lines.len());
    let mut braces: Vec<Open> = Vec::new();
    let mut parens = 0i32;
    // The last token (across lines), and whether a `struct`, `cbuffer`…
    // keyword came since the last `;`, `{` or `}`.
    let mut last: Option<Item> = None;
    let mut aggregate = false;
    for line in lines {
        let Line::Code(items) = line else {
            out.push(line);
            continue;
        };
        let mut current: Vec<Item> = Vec::new();
        let kind = |i: usize| items.get(i).and_then(Item::token);
        let rest_is_comment = |i: usize| items[i..].iter().all(|x| matches!(x, Item::Comment(_)));
        for (i, item) in items.iter().enumerate() {
            let (k, next) = (kind(i), kind(i + 1));
            // Before a block's `}` that is not first on its line.
            if k == Some(Token::RBrace)
                && braces.last().is_some_and(|o| *o != Open::Init)
                && current.iter().any(|x| matches!(x, Item::Tok(..)))
                && !matches!(current.last(), Some(Item::Tok(Token::LBrace, ..)))
            {
                out.push(Line::Code(std::mem::take(&mut current)));
            }
            let open = if !opens_block(last.as_ref()) {
                Open::Init
            } else if matches!(last, Some(Item::Tok(Token::Do, ..))) {
                Open::Do
            } else if aggregate {
                Open::Aggregate
            } else {
                Open::Block
            };
            current.push(item.clone());
            if let Some(k) = k {
                last = Some(item.clone());
                match k {
                    Token::Struct | Token::Class | Token::Cbuffer | Token::Tbuffer | Token::Interface
                    | Token::Enum => aggregate = true,
                    Token::Semi | Token::LBrace | Token::RBrace => aggregate = false,
                    _ => {}
                }
            }
            let split = match k {
                Some(Token::LBrace) => {
                    braces.push(open);
                    open != Open::Init && next != Some(Token::RBrace)
                }
                Some(Token::RBrace) => match braces.pop() {
                    None | Some(Open::Init) => false,
                    Some(closed) => !matches!(
                        (closed, next),
                        (_, Some(Token::Else | Token::Semi | Token::Comma | Token::RParen))
                            | (Open::Do, Some(Token::While))
                            | (Open::Aggregate, Some(Token::Ident))
                    ),
                },
                Some(Token::LParen | Token::LBracket) => {
                    parens += 1;
                    false
                }
                Some(Token::RParen | Token::RBracket) => {
                    parens -= 1;
                    false
                }
                Some(Token::Semi) => parens <= 0 && braces.last() != Some(&Open::Init),
                // The colon of a `case …:` or `default:` label.
                Some(Token::Colon) => {
                    matches!(current.first(), Some(Item::Tok(Token::Case | Token::Default, ..)))
                        && !current[..current.len() - 1].iter().any(|x| matches!(x, Item::Tok(Token::Colon, ..)))
                }
                _ => false,
            };
            if split && !rest_is_comment(i + 1) {
                out.push(Line::Code(std::mem::take(&mut current)));
            }
        }
        if !current.is_empty() {
            out.push(Line::Code(current));
        }
    }
    out
}

/// Block braces moved as `style` wants.
fn braces<'t>(lines: Vec<Line<'t>>, style: BraceStyle) -> Vec<Line<'t>> {
    let mut out: Vec<Line> = Vec::with_capacity(lines.len());
    for line in lines {
        let Line::Code(mut items) = line else {
            out.push(line);
            continue;
        };
        match style {
            BraceStyle::Attach => {
                let alone = items.len() == 1 && matches!(items[0], Item::Tok(Token::LBrace, ..));
                if alone
                    && let Some(Line::Code(prev)) = out.last_mut()
                    && !matches!(prev.last(), Some(Item::Comment(_)))
                    && opens_block(prev.last())
                {
                    prev.append(&mut items);
                    continue;
                }
                out.push(Line::Code(items));
            }
            BraceStyle::Allman => {
                let n = items.len();
                let brace_last = n > 1
                    && matches!(items[n - 1], Item::Tok(Token::LBrace, ..))
                    && opens_block(items.get(n - 2));
                if brace_last {
                    let brace = items.split_off(n - 1);
                    out.push(Line::Code(items));
                    out.push(Line::Code(brace));
                } else {
                    out.push(Line::Code(items));
                }
            }
        }
    }
    out
}

/// The lines with indentation and spacing.
/// (`keep_lines`: one output line per source line.)
fn render(lines: &[Line], options: &FormatOptions, keep_lines: bool) -> String {
    let templates = angles::declared_templates(lines);
    let mut out = String::new();
    // Open braces (true: a switch's block) and open parentheses.
    let mut blocks: Vec<bool> = Vec::new();
    let mut parens = 0usize;
    let mut blank = true;
    let mut last_code: Option<Token> = None;
    // A `switch` whose block has not opened yet.
    let mut switch_head = false;
    // Bodies without braces: a line after `if (…)`, `for (…)`, `while (…)`,
    // `else` or `do` is one level deeper (one more for each such line in
    // a row).
    let mut hanging = 0usize;
    // Inside the parentheses of an `if`, `for` or `while` that a line
    // left open.
    let mut in_head = false;
    for line in lines {
        let items = match line {
            Line::Blank => {
                if !blank || keep_lines {
                    out.push('\n');
                    blank = true;
                }
                continue;
            }
            Line::Preprocessor(p) => {
                out.push_str(p);
                out.push('\n');
                blank = false;
                continue;
            }
            Line::Code(items) => items,
        };
        blank = false;
        let first = items.iter().find_map(Item::token);
        let line_start = out.len();
        // Where the line may break for `ColumnLimit`: after a comma inside
        // parentheses or a binary operator.
        let mut breaks: Vec<Break> = Vec::new();
        let toks = line_tokens(items);
        let angle = angles::classify(&toks, items.len(), &templates);
        let cast = casts::closes_cast(&toks, items.len());
        let index = casts::indexes(&toks, items.len());
        let mut after_cast = false;
        let mut level = blocks.len() + usize::from(parens > 0);
        let case = blocks.last() == Some(&true) && matches!(first, Some(Token::Case | Token::Default));
        if case || matches!(first, Some(Token::RBrace)) {
            level = level.saturating_sub(1);
        }
        if first != Some(Token::LBrace) {
            level += hanging;
        }
        out.push_str(&indent(level, options));
        let mut prev: Option<Token> = None;
        let mut prev_angle: Option<Angle> = None;
        let mut before: Option<Token> = None;
        let mut label = matches!(first, Some(Token::Case | Token::Default));
        for (n, item) in items.iter().enumerate() {
            match item {
                Item::Comment(c) => {
                    if prev.is_some() {
                        out.push(' ');
                    }
                    out.push_str(c);
                    (before, prev, after_cast) = (None, None, false);
                }
                Item::Tok(k, t, spaced) => {
                    let pair = Pair {
                        before,
                        angles: (prev_angle, angle[n]),
                        spaced: *spaced,
                        label,
                        after_cast,
                        index: index[n],
                    };
                    // The layout's space, or one that keeps two tokens apart.
                    if let Some(p) = prev
                        && (pair.space(p, *k) || !separate(p, &out, t))
                    {
                        out.push(' ');
                    }
                    if *k == Token::Colon {
                        label = false;
                    }
                    out.push_str(t);
                    match k {
                        Token::Switch => switch_head = true,
                        Token::Semi => switch_head = false,
                        Token::LBrace => {
                            blocks.push(switch_head && last_code == Some(Token::RParen));
                            switch_head = false;
                        }
                        Token::RBrace => {
                            blocks.pop();
                        }
                        Token::LParen | Token::LBracket => parens += 1,
                        Token::RParen | Token::RBracket => parens = parens.saturating_sub(1),
                        _ => {}
                    }
                    let closes_next = matches!(
                        items.get(n + 1),
                        None | Some(Item::Comment(_))
                            | Some(Item::Tok(Token::RBrace | Token::RParen | Token::RBracket, ..))
                    );
                    let rank = match k {
                        Token::Comma if parens > 0 => Some(0),
                        _ if label || angle[n].is_some_and(|a| a != Angle::Operator) => None,
                        _ => binary_rank(*k, prev),
                    };
                    if let Some(rank) = rank
                        && !closes_next
                    {
                        breaks.push(Break {
                            at: out.len() - line_start,
                            level: blocks.len() + 1,
                            depth: parens,
                            rank,
                        });
                    }
                    (before, prev, prev_angle) = (prev, Some(*k), angle[n]);
                    after_cast = cast[n];
                    last_code = Some(*k);
                }
            }
        }
        // A line of comments stands where the next code goes: the body
        // that a head before it opened is still to come.
        if first.is_some() {
            let (body, head) = opens_body(items, parens, in_head);
            in_head = head;
            hanging = match (body, first == Some(Token::LBrace)) {
                (true, false) => hanging + 1,
                (true, true) => 1,
                (false, _) => 0,
            };
        }
        if !keep_lines && options.column_limit > 0 && !breaks.is_empty() {
            let line = out.split_off(line_start);
            out.push_str(&wrap(&line, &breaks, options));
        }
        out.push('\n');
    }
    while !keep_lines && out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The tokens of a line's items: each one's index among the items, kind
/// and text.
fn line_tokens<'t>(items: &[Item<'t>]) -> Vec<(usize, Token, &'t str)> {
    items
        .iter()
        .enumerate()
        .filter_map(|(n, i)| match i {
            Item::Tok(k, t, _) => Some((n, *k, *t)),
            Item::Comment(_) => None,
        })
        .collect()
}

/// Whether a line ends the head of a statement whose body is on the next
/// line without braces: it ends with `else` or `do`, or with the `)` of
/// an `if`, `for` or `while` (`parens`: open after the line; `in_head`:
/// the line continues such a head); and whether the next line continues
/// a head.
fn opens_body(items: &[Item], parens: usize, in_head: bool) -> (bool, bool) {
    let toks: Vec<Token> = items.iter().filter_map(Item::token).collect();
    let head = in_head || toks.iter().any(|k| matches!(k, Token::If | Token::For | Token::While));
    let body = match toks.last() {
        Some(Token::Else | Token::Do) => true,
        Some(Token::RParen) => parens == 0 && head,
        _ => false,
    };
    (body, head && parens > 0)
}

/// A place where a line may break for `ColumnLimit`.
#[derive(Clone, Copy, Debug)]
struct Break {
    /// The offset in the line after which it breaks.
    at: usize,
    /// The level of a line starting there.
    level: usize,
    /// How many parentheses and brackets are open there.
    depth: usize,
    /// How tightly the operator before it binds (0: a comma or an
    /// assignment): a line breaks rather after a looser one.
    rank: u8,
}

/// How tightly `k` (after `prev`) binds as a binary operator a line may
/// break after (C's precedence, loosest 0); `None` if it is none.
fn binary_rank(k: Token, prev: Option<Token>) -> Option<u8> {
    use Token::*;
    Some(match k {
        Eq | PlusEq | MinusEq | StarEq | SlashEq | PercentEq | AmpEq | PipeEq | CaretEq | ShlEq
        | ShrEq => 0,
        Question => 1,
        PipePipe => 2,
        AmpAmp => 3,
        Pipe => 4,
        Caret => 5,
        Amp => 6,
        EqEq | NotEq => 7,
        Lt | Gt | LtEq | GtEq => 8,
        Shl | Shr => 9,
        Plus | Minus if prev.is_some_and(ends_operand) => 10,
        Star | Slash | Percent => 11,
        _ => return None,
    })
}

/// `line` broken (at `breaks`) so that its lines fit `ColumnLimit` where
/// they can: each break where the line fits, preferring a break after
/// which the rest fits, then the shallowest place, then the loosest
/// operator, then the last; where nothing fits, at the first place.
fn wrap(line: &str, breaks: &[Break], options: &FormatOptions) -> String {
    let width = |s: &str| -> usize {
        s.chars()
            .map(|c| if c == '\t' { options.indent_width } else { 1 })
            .sum()
    };
    let mut out = String::new();
    // The current output line: its start in `line`, its indentation.
    let (mut start, mut prefix) = (0, String::new());
    loop {
        let rest = &line[start..];
        if width(&prefix) + width(rest) <= options.column_limit {
            break;
        }
        let within = breaks.iter().filter(|b| b.at > start);
        let fits = within
            .clone()
            .filter(|b| width(&prefix) + width(&line[start..b.at]) <= options.column_limit)
            .min_by_key(|b| {
                let rest = line[b.at..].trim_start();
                let rest_fits = width(&indent(b.level, options)) + width(rest) <= options.column_limit;
                (!rest_fits, b.depth, b.rank, std::cmp::Reverse(b.at))
            });
        let Some(&Break { at, level, .. }) = fits.or(within.min_by_key(|b| b.at)) else {
            break;
        };
        out.push_str(&prefix);
        out.push_str(&line[start..at]);
        out.push('\n');
        prefix = indent(level, options);
        start = at + line[at..].len() - line[at..].trim_start().len();
    }
    out.push_str(&prefix);
    out.push_str(&line[start..]);
    out
}

/// The indentation of `level`.
fn indent(level: usize, options: &FormatOptions) -> String {
    if options.use_tabs {
        "\t".repeat(level)
    } else {
        " ".repeat(level * options.indent_width)
    }
}

/// Whether `a` written right before `b` would lex as the same two tokens
/// (if not, a space keeps them apart).
fn separate(a: Token, out: &str, b: &str) -> bool {
    let a_text = out.rsplit(|c: char| c.is_whitespace()).next().unwrap_or("");
    let joined = format!("{a_text}{b}");
    let (tokens, errors) = lexer::lex(&joined);
    errors.is_empty()
        && tokens.len() >= 2
        && tokens[tokens.len() - 2].kind == a
        && tokens[tokens.len() - 1].start as usize == joined.len() - b.len()
}

/// Whether a token ends an operand (what follows `-` is then binary).
fn ends_operand(t: Token) -> bool {
    use Token::*;
    matches!(
        t,
        Ident | IntLit | FloatLit | StringLit | CharLit | PpNumber | RParen | RBracket | True | False
            | This
    )
}

/// What decides the space between two tokens besides the tokens.
struct Pair {
    /// The token before the first on the line.
    before: Option<Token>,
    /// What the two tokens are if they are angle brackets.
    angles: (Option<Angle>, Option<Angle>),
    /// The source had a space between them.
    spaced: bool,
    /// In a `case …:` label.
    label: bool,
    /// The first token is the `)` of a cast.
    after_cast: bool,
    /// The second is a `[` that indexes (or starts an attribute), if known.
    index: Option<bool>,
}

impl Pair {
    /// Whether the canonical layout puts a space between `a` and `b`.
    fn space(&self, a: Token, b: Token) -> bool {
        use Token::*;
        let (before, spaced, label) = (self.before, self.spaced, self.label);
        if self.after_cast {
            return false;
        }
        match self.angles {
            (_, Some(Angle::Open)) => return a == Template,
            (Some(Angle::Open), _) | (_, Some(Angle::Close)) => return false,
            (Some(Angle::Keep), _) | (_, Some(Angle::Keep)) => return spaced,
            (Some(Angle::Close), _) if matches!(b, Gt | Shr) => return false,
            _ => {}
        }
        // A `-`, `+`, `!` or `~` that starts an operand.
        let unary = |t: Token| {
            matches!(t, Bang | Tilde) || matches!(t, Plus | Minus) && !before.is_some_and(ends_operand)
        };
        match (a, b) {
            // `a[i][j]`, and attributes one after the other.
            (RBracket, LBracket) => self.index.map_or(spaced, |index| !index),
            (_, Comma | Semi | RParen | RBracket | Dot | ColonColon | Arrow) => false,
            (Dot | ColonColon | Arrow | LParen | LBracket, _) => false,
            (_, Colon) => !label,
            (LBrace, RBrace) => false,
            // A call, a constructor, an attribute's arguments: no space; a
            // control keyword: one.
            (_, LParen) => {
                matches!(a, If | For | While | Switch | Return | Case | Else | Do)
                    || !(ends_operand(a) || a.is_keyword() || self.angles.0 == Some(Angle::Close))
            }
            (_, LBracket) => !(ends_operand(a) || a == RBracket),
            (PlusPlus | MinusMinus, _) => !ends_operand(b),
            (_, PlusPlus | MinusMinus) => !ends_operand(a),
            _ if unary(a) => false,
            _ => true,
        }
    }
}
