//! Completion and signature help. Both are asked while the text is being
//! written (`light.`, `shade(n,`), so they read the text around the cursor
//! and take names and types from the last analysis (sema indexes what the
//! parser recovered from a broken text, see `compile_to_ir`):
//!
//! - after `#include "` or `<`: the files and folders next to the document
//!   and in the include directories;
//! - after `.`: the fields and methods of the receiver's struct (its type
//!   from the expression before the dot, else from the variable of that
//!   name in scope), or the methods of a resource;
//! - after a declaration's `:`: semantics; after a `[` that starts a
//!   declaration or statement: attributes;
//! - elsewhere: the locals and parameters of the enclosing function
//!   declared before the cursor, every global, function, type and macro,
//!   the intrinsics and the built-in types.

use super::Server;
use super::analysis::Analysis;
use super::requests::Cursor;
use crate::sema::index::DefKind;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, Documentation, MarkupContent,
    MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp, SignatureInformation,
};
use std::ops::Range;

/// Semantics offered after `:` (system values, then the usual user ones).
const SEMANTICS: &[&str] = &[
    "SV_Position",
    "SV_Target",
    "SV_Target0",
    "SV_Target1",
    "SV_Depth",
    "SV_VertexID",
    "SV_InstanceID",
    "SV_PrimitiveID",
    "SV_IsFrontFace",
    "SV_SampleIndex",
    "SV_Coverage",
    "SV_ClipDistance",
    "SV_CullDistance",
    "SV_DispatchThreadID",
    "SV_GroupID",
    "SV_GroupThreadID",
    "SV_GroupIndex",
    "SV_DomainLocation",
    "SV_InsideTessFactor",
    "SV_TessFactor",
    "SV_OutputControlPointID",
    "SV_GSInstanceID",
    "SV_RenderTargetArrayIndex",
    "SV_ViewportArrayIndex",
    "SV_ViewID",
    "SV_ShadingRate",
    "SV_StencilRef",
    "POSITION",
    "NORMAL",
    "TANGENT",
    "BINORMAL",
    "COLOR",
    "TEXCOORD",
    "TEXCOORD0",
    "TEXCOORD1",
    "BLENDWEIGHT",
    "BLENDINDICES",
];

/// Attributes offered after a `[` that starts a declaration or statement.
const ATTRIBUTES: &[&str] = &[
    "numthreads",
    "shader",
    "maxvertexcount",
    "domain",
    "partitioning",
    "outputtopology",
    "outputcontrolpoints",
    "patchconstantfunc",
    "maxtessfactor",
    "instance",
    "earlydepthstencil",
    "unroll",
    "loop",
    "fastopt",
    "allow_uav_condition",
    "branch",
    "flatten",
    "forcecase",
    "call",
    "WaveSize",
    "vk::binding",
    "vk::location",
    "vk::builtin",
    "vk::push_constant",
    "vk::constant_id",
    "vk::offset",
    "vk::image_format",
    "vk::input_attachment_index",
    "vk::counter_binding",
    "vk::index",
    "vk::ext_instruction",
];

/// Built-in type names offered with the names in scope.
const BUILTIN_TYPES: &[&str] = &[
    "bool",
    "int",
    "uint",
    "float",
    "double",
    "half",
    "min16float",
    "float2",
    "float3",
    "float4",
    "int2",
    "int3",
    "int4",
    "uint2",
    "uint3",
    "uint4",
    "bool2",
    "bool3",
    "bool4",
    "float2x2",
    "float3x3",
    "float4x4",
    "float3x4",
    "float4x3",
    "Texture1D",
    "Texture2D",
    "Texture3D",
    "TextureCube",
    "Texture2DArray",
    "Texture2DMS",
    "RWTexture2D",
    "RWTexture3D",
    "Buffer",
    "RWBuffer",
    "StructuredBuffer",
    "RWStructuredBuffer",
    "AppendStructuredBuffer",
    "ConsumeStructuredBuffer",
    "ByteAddressBuffer",
    "RWByteAddressBuffer",
    "ConstantBuffer",
    "SamplerState",
    "SamplerComparisonState",
    "TriangleStream",
    "LineStream",
    "PointStream",
    "InputPatch",
    "OutputPatch",
];

/// Methods of resource objects, by the start of the type's name.
const RESOURCE_METHODS: &[(&str, &[&str])] = &[
    ("RWTexture", &["Load", "GetDimensions"]),
    (
        "Texture",
        &[
            "Sample",
            "SampleLevel",
            "SampleBias",
            "SampleGrad",
            "SampleCmp",
            "SampleCmpLevelZero",
            "Load",
            "Gather",
            "GatherRed",
            "GatherGreen",
            "GatherBlue",
            "GatherAlpha",
            "GetDimensions",
            "CalculateLevelOfDetail",
        ],
    ),
    ("AppendStructuredBuffer", &["Append", "GetDimensions"]),
    ("ConsumeStructuredBuffer", &["Consume", "GetDimensions"]),
    (
        "RWStructuredBuffer",
        &[
            "Load",
            "IncrementCounter",
            "DecrementCounter",
            "GetDimensions",
        ],
    ),
    ("StructuredBuffer", &["Load", "GetDimensions"]),
    (
        "RWByteAddressBuffer",
        &[
            "Load",
            "Load2",
            "Load3",
            "Load4",
            "Store",
            "Store2",
            "Store3",
            "Store4",
            "InterlockedAdd",
            "InterlockedMin",
            "InterlockedMax",
            "InterlockedAnd",
            "InterlockedOr",
            "InterlockedXor",
            "InterlockedExchange",
            "InterlockedCompareExchange",
            "GetDimensions",
        ],
    ),
    (
        "ByteAddressBuffer",
        &["Load", "Load2", "Load3", "Load4", "GetDimensions"],
    ),
    ("RWBuffer", &["Load", "GetDimensions"]),
    ("Buffer", &["Load", "GetDimensions"]),
    ("TriangleStream", &["Append", "RestartStrip"]),
    ("LineStream", &["Append", "RestartStrip"]),
    ("PointStream", &["Append", "RestartStrip"]),
];

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier around `offset` (possibly empty) and its byte range.
pub(super) fn word_at(text: &str, offset: usize) -> (Range<usize>, String) {
    let b = text.as_bytes();
    let offset = offset.min(b.len());
    let mut lo = offset;
    while lo > 0 && is_ident(b[lo - 1]) {
        lo -= 1;
    }
    let mut hi = offset;
    while hi < b.len() && is_ident(b[hi]) {
        hi += 1;
    }
    (lo..hi, text[lo..hi].to_string())
}

/// What the text before the cursor asks for.
enum Context {
    Include { partial: String, angled: bool },
    Member { dot: usize, receiver: String },
    Semantic,
    Attribute,
    Names,
}

fn context(text: &str, word_start: usize) -> Context {
    let b = text.as_bytes();
    let line_start = text[..word_start].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..word_start];
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix('#') {
        let rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("include") {
            let after = after.trim_start();
            let angled = after.starts_with('<');
            if let Some(p) = after.strip_prefix(['"', '<']) {
                return Context::Include {
                    partial: p.to_string(),
                    angled,
                };
            }
        }
        return Context::Names;
    }
    let mut i = word_start;
    while i > line_start && b[i - 1] == b' ' {
        i -= 1;
    }
    let prev = if i > 0 { b[i - 1] } else { b'\n' };
    match prev {
        b'.' => {
            let (r, receiver) = word_at(text, i - 1);
            let _ = r;
            Context::Member {
                dot: i - 1,
                receiver,
            }
        }
        b':' if i < 2 || b[i - 2] != b':' => {
            if line.contains('?') || line.trim_start().starts_with("case") {
                Context::Names
            } else {
                Context::Semantic
            }
        }
        b'[' => {
            let before = text[..i - 1].trim_end();
            let starts = before.is_empty()
                || before.ends_with([';', '{', '}', ')', ']'])
                || before.ends_with("else");
            if starts {
                Context::Attribute
            } else {
                Context::Names
            }
        }
        _ => Context::Names,
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        ..CompletionItem::default()
    }
}

fn item_kind(k: DefKind) -> CompletionItemKind {
    match k {
        DefKind::Local | DefKind::Parameter | DefKind::Global | DefKind::Resource => {
            CompletionItemKind::VARIABLE
        }
        DefKind::CBufferMember | DefKind::Field => CompletionItemKind::FIELD,
        DefKind::Function => CompletionItemKind::FUNCTION,
        DefKind::Method => CompletionItemKind::METHOD,
        DefKind::Struct | DefKind::Template | DefKind::CBuffer => CompletionItemKind::STRUCT,
        DefKind::Typedef => CompletionItemKind::TYPE_PARAMETER,
        DefKind::Enum => CompletionItemKind::ENUM,
        DefKind::EnumValue => CompletionItemKind::ENUM_MEMBER,
        DefKind::Namespace => CompletionItemKind::MODULE,
    }
}

/// The completion items at the cursor.
pub(super) fn completion(server: &Server, c: &Cursor) -> CompletionResponse {
    let a = &c.analysis;
    let text = &a.files[c.file].text;
    let (word, _) = word_at(text, c.offset.min(text.len()));
    let items = match context(text, word.start.min(c.offset)) {
        Context::Include { partial, angled } => include_items(server, a, c.file, &partial, angled),
        Context::Member { dot, receiver } => member_items(a, c, dot, &receiver),
        Context::Semantic => SEMANTICS
            .iter()
            .map(|s| item(s, CompletionItemKind::CONSTANT, Some("semantic".into())))
            .collect(),
        Context::Attribute => ATTRIBUTES
            .iter()
            .map(|s| item(s, CompletionItemKind::PROPERTY, Some("attribute".into())))
            .collect(),
        Context::Names => names_in_scope(a, c),
    };
    CompletionResponse::Array(items)
}

/// The function whose body holds the cursor (its symbol).
fn enclosing_function(a: &Analysis, c: &Cursor) -> Option<usize> {
    a.symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            matches!(s.kind, DefKind::Function | DefKind::Method)
                && s.extent.file == c.file
                && s.extent.range.start <= c.offset
                && c.offset <= s.extent.range.end
        })
        .min_by_key(|(_, s)| s.extent.range.len())
        .map(|(i, _)| i)
}

/// The locals and parameters of the enclosing function declared before
/// the cursor, then the other names, each name once.
fn visible(a: &Analysis, c: &Cursor) -> Vec<usize> {
    let f = enclosing_function(a, c);
    let mut out: Vec<usize> = Vec::new();
    let mut names: rustc_hash::FxHashSet<&str> = Default::default();
    let local = |s: &super::analysis::Symbol| matches!(s.kind, DefKind::Local | DefKind::Parameter);
    // Innermost (latest) declarations first.
    let mut locals: Vec<usize> = (0..a.symbols.len())
        .filter(|&i| {
            let s = &a.symbols[i];
            local(s)
                && f.is_some()
                && s.container == f
                && s.at.file == c.file
                && s.at.range.end <= c.offset
        })
        .collect();
    locals.sort_by_key(|&i| std::cmp::Reverse(a.symbols[i].at.range.start));
    let others = (0..a.symbols.len()).filter(|&i| {
        let s = &a.symbols[i];
        // A scoped enum's values are named through their enum (`E::V`).
        let scoped_value = s.kind == DefKind::EnumValue && s.detail.contains("::");
        s.kind_is_real()
            && !local(s)
            && !scoped_value
            && !matches!(s.kind, DefKind::Field | DefKind::Method)
    });
    for i in locals.into_iter().chain(others) {
        if names.insert(a.symbols[i].name.as_str()) {
            out.push(i);
        }
    }
    out
}

fn names_in_scope(a: &Analysis, c: &Cursor) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = visible(a, c)
        .into_iter()
        .map(|i| {
            let s = &a.symbols[i];
            let mut it = item(&s.name, item_kind(s.kind), Some(s.detail.clone()));
            it.documentation = s.doc.clone().map(Documentation::String);
            it
        })
        .collect();
    for m in &a.macros {
        if !items.iter().any(|i| i.label == m.name) {
            items.push(item(
                &m.name,
                CompletionItemKind::CONSTANT,
                Some(m.text.clone()),
            ));
        }
    }
    for i in crate::sema::calls::intrinsics::table::all() {
        items.push(item(
            i.name,
            CompletionItemKind::FUNCTION,
            Some("intrinsic".into()),
        ));
    }
    for t in BUILTIN_TYPES {
        items.push(item(t, CompletionItemKind::KEYWORD, Some("type".into())));
    }
    items
}

/// The type of the receiver that ends just before the `.` at `dot`: an
/// expression's, else the variable named `receiver` in scope.
fn receiver_type(a: &Analysis, c: &Cursor, dot: usize, receiver: &str) -> Option<String> {
    if let Some((_, t)) = a
        .types
        .iter()
        .filter(|(at, _)| at.file == c.file && at.range.end == dot)
        .max_by_key(|(at, _)| at.range.len())
    {
        return Some(t.to_string());
    }
    visible(a, c)
        .into_iter()
        .map(|i| &a.symbols[i])
        .find(|s| s.name == receiver)
        .and_then(|s| s.ty.clone())
}

fn member_items(a: &Analysis, c: &Cursor, dot: usize, receiver: &str) -> Vec<CompletionItem> {
    let Some(ty) = receiver_type(a, c, dot, receiver) else {
        return Vec::new();
    };
    if let Some(st) = a.struct_named(&ty) {
        return a
            .members(st)
            .map(|m| item(&m.name, item_kind(m.kind), Some(m.detail.clone())))
            .collect();
    }
    RESOURCE_METHODS
        .iter()
        .find(|(prefix, _)| ty.starts_with(prefix))
        .map(|(_, methods)| {
            methods
                .iter()
                .map(|m| item(m, CompletionItemKind::METHOD, Some(format!("{ty}::{m}"))))
                .collect()
        })
        .unwrap_or_default()
}

fn include_items(
    server: &Server,
    a: &Analysis,
    file: usize,
    partial: &str,
    angled: bool,
) -> Vec<CompletionItem> {
    let (sub, _) = partial.rsplit_once('/').unwrap_or(("", partial));
    let mut dirs = Vec::new();
    if !angled && let Some(d) = a.files[file].path.parent() {
        dirs.push(d.to_path_buf());
    }
    dirs.extend(a.include_dirs.iter().cloned());
    let _ = server;
    let mut items: Vec<CompletionItem> = Vec::new();
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(d.join(sub)) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            let header = [".hlsl", ".hlsli", ".h", ".fxh", ".inc", ".hpp"]
                .iter()
                .any(|x| name.ends_with(x));
            if name.starts_with('.') || !(is_dir || header) {
                continue;
            }
            let label = if is_dir { format!("{name}/") } else { name };
            if !items.iter().any(|i| i.label == label) {
                let kind = if is_dir {
                    CompletionItemKind::FOLDER
                } else {
                    CompletionItemKind::FILE
                };
                items.push(item(&label, kind, None));
            }
        }
    }
    items.sort_by(|x, y| x.label.cmp(&y.label));
    items
}

/// The call around the cursor: the callee's name and the index of the
/// argument the cursor is in; `None` outside a call's parentheses.
fn call_at(text: &str, offset: usize) -> Option<(String, u32)> {
    let b = text.as_bytes();
    let mut depth = 0i32;
    let mut commas = 0u32;
    let mut i = offset.min(b.len());
    // Look back a bounded distance: a call's arguments are short.
    let stop = i.saturating_sub(4000);
    while i > stop {
        i -= 1;
        match b[i] {
            b')' | b']' => depth += 1,
            b'(' | b'[' if depth > 0 => depth -= 1,
            b'(' => {
                let mut j = i;
                while j > 0 && b[j - 1] == b' ' {
                    j -= 1;
                }
                let (r, name) = word_at(text, j);
                if name.is_empty() || r.end != j {
                    return None;
                }
                return Some((name, commas));
            }
            b'[' => return None,
            b',' if depth == 0 => commas += 1,
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
    }
    None
}

fn signature(label: String, params: &[String], doc: Option<String>) -> SignatureInformation {
    // Each parameter's place in the label, in UTF-16 units.
    let open = label.find('(').map_or(0, |i| i + 1);
    let mut from = open;
    let mut parameters = Vec::new();
    for p in params {
        let Some(i) = label[from..].find(p.as_str()) else {
            break;
        };
        let start = from + i;
        let end = start + p.len();
        let units = |s: &str| s.chars().map(char::len_utf16).sum::<usize>() as u32;
        parameters.push(ParameterInformation {
            label: ParameterLabel::LabelOffsets([units(&label[..start]), units(&label[..end])]),
            documentation: None,
        });
        from = end;
    }
    SignatureInformation {
        label,
        documentation: doc.map(|d| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: d,
            })
        }),
        parameters: Some(parameters),
        active_parameter: None,
    }
}

/// The signatures of the function called around the cursor (each user
/// overload, or each intrinsic overload) and the active parameter.
pub(super) fn signature_help(c: &Cursor) -> Option<SignatureHelp> {
    let a = &c.analysis;
    let (name, active) = call_at(&a.files[c.file].text, c.offset)?;
    let mut sigs: Vec<SignatureInformation> = a
        .symbols
        .iter()
        .filter(|s| {
            s.kind_is_real()
                && s.name == name
                && matches!(s.kind, DefKind::Function | DefKind::Method)
        })
        .map(|s| signature(s.detail.clone(), &s.params, s.doc.clone()))
        .collect();
    if sigs.is_empty()
        && let Some(i) = crate::sema::calls::intrinsics::table::find(&name)
    {
        sigs = i
            .overloads
            .iter()
            .map(|o| {
                let (label, params, slots) = o.describe(i.name);
                signature(label, &params, Some(slots.join("  \n")))
            })
            .collect();
    }
    if sigs.is_empty() {
        return None;
    }
    let best = sigs
        .iter()
        .position(|s| {
            s.parameters
                .as_ref()
                .is_some_and(|p| p.len() > active as usize)
        })
        .unwrap_or(0);
    Some(SignatureHelp {
        signatures: sigs,
        active_signature: Some(best as u32),
        active_parameter: Some(active),
    })
}
