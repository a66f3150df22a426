//! Storage classes and modifiers (HLSL-SEMANTICS.md, "Storage classes and
//! modifiers"): which are allowed where, which exclude each other, and what
//! a declaration's modifiers amount to.

use crate::diag::{Diagnostic, codes};
use crate::front::ast::{Modifier, Modifiers};
use crate::ir;
use crate::sema::{Dir, Sema};
use crate::span::Span;

/// Where a declaration stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclSite {
    Global,
    Local,
    Param,
    Field,
    CBufferMember,
    Typedef,
    Function,
}

impl DeclSite {
    fn describe(self) -> &'static str {
        match self {
            DeclSite::Global => "a global variable",
            DeclSite::Local => "a local variable",
            DeclSite::Param => "a parameter",
            DeclSite::Field => "a struct member",
            DeclSite::CBufferMember => "a cbuffer member",
            DeclSite::Typedef => "a typedef",
            DeclSite::Function => "a function",
        }
    }
}

/// What a declaration's modifiers amount to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Storage {
    pub is_static: Option<Span>,
    pub uniform: Option<Span>,
    pub extern_: Option<Span>,
    pub groupshared: Option<Span>,
    pub precise: bool,
    pub is_const: Option<Span>,
    pub volatile: bool,
    /// `row_major` (true) or `column_major` (false), with its span.
    pub major: Option<(bool, Span)>,
    pub interp: Option<ir::Interpolation>,
    pub sampling: Option<ir::Sampling>,
    pub dir: Option<Dir>,
}

fn name(m: Modifier) -> &'static str {
    use Modifier as M;
    match m {
        M::Static => "static",
        M::Uniform => "uniform",
        M::Extern => "extern",
        M::Groupshared => "groupshared",
        M::Globallycoherent => "globallycoherent",
        M::Precise => "precise",
        M::Nointerpolation => "nointerpolation",
        M::Noperspective => "noperspective",
        M::Linear => "linear",
        M::Centroid => "centroid",
        M::Sample => "sample",
        M::Volatile => "volatile",
        M::Shared => "shared",
        M::Const => "const",
        M::RowMajor => "row_major",
        M::ColumnMajor => "column_major",
        M::Snorm => "snorm",
        M::Unorm => "unorm",
        M::In => "in",
        M::Out => "out",
        M::Inout => "inout",
        M::Inline => "inline",
        M::Export => "export",
        M::Point => "point",
        M::Line => "line",
        M::Triangle => "triangle",
        M::LineAdj => "lineadj",
        M::TriangleAdj => "triangleadj",
        M::Vertices => "vertices",
        M::Indices => "indices",
        M::Primitives => "primitives",
        M::Payload => "payload",
    }
}

fn is_interp(m: Modifier) -> bool {
    matches!(
        m,
        Modifier::Nointerpolation
            | Modifier::Noperspective
            | Modifier::Linear
            | Modifier::Centroid
            | Modifier::Sample
    )
}

/// Interpolation modifiers that cannot be combined.
fn interp_conflict(a: Modifier, b: Modifier) -> bool {
    use Modifier as M;
    matches!(
        (a, b),
        (
            M::Nointerpolation,
            M::Noperspective | M::Linear | M::Centroid | M::Sample
        ) | (
            M::Noperspective | M::Linear | M::Centroid | M::Sample,
            M::Nointerpolation
        ) | (M::Centroid, M::Sample)
            | (M::Sample, M::Centroid)
    )
}

impl<'a> Sema<'a> {
    /// Checks the modifiers of a declaration at `site` and summarises them.
    /// Errors carry the offending modifier as primary label and the
    /// conflicting one as secondary.
    pub fn check_modifiers(&mut self, mods: &Modifiers, site: DeclSite) -> Storage {
        use Modifier as M;
        let mut st = Storage::default();
        let mut seen: Vec<(Modifier, Span)> = Vec::new();
        for &(m, span) in &mods.list {
            if let Some(&(_, first)) = seen.iter().find(|(x, _)| *x == m) {
                self.push(
                    Diagnostic::error(
                        codes::DUPLICATE_MODIFIER,
                        format!("duplicate `{}` modifier", name(m)),
                    )
                    .label(span, "repeated here")
                    .label(first, "first given here"),
                );
                continue;
            }
            // Pairs that exclude each other.
            let conflict = seen.iter().find(|&&(x, _)| {
                matches!(
                    (x, m),
                    (M::Static, M::Extern | M::Uniform)
                        | (M::Extern | M::Uniform, M::Static)
                        | (M::Groupshared, M::Extern | M::Uniform)
                        | (M::Extern | M::Uniform, M::Groupshared)
                        | (M::RowMajor, M::ColumnMajor)
                        | (M::ColumnMajor, M::RowMajor)
                        | (M::In, M::Inout)
                        | (M::Out, M::Inout)
                        | (M::Inout, M::In | M::Out)
                ) || (is_interp(x) && is_interp(m) && interp_conflict(x, m))
            });
            if let Some(&(x, xspan)) = conflict {
                let code = if is_interp(m) {
                    codes::CONFLICTING_INTERPOLATION
                } else {
                    codes::CONFLICTING_STORAGE
                };
                self.push(
                    Diagnostic::error(
                        code,
                        format!("`{}` cannot be combined with `{}`", name(m), name(x)),
                    )
                    .label(span, format!("`{}` here", name(m)))
                    .label(xspan, format!("conflicts with this `{}`", name(x))),
                );
                seen.push((m, span));
                continue;
            }
            seen.push((m, span));
            // Modifiers that do not belong at this site.
            let allowed = match m {
                M::Static => !matches!(
                    site,
                    DeclSite::Param | DeclSite::CBufferMember | DeclSite::Typedef
                ),
                M::Extern => site == DeclSite::Global || site == DeclSite::Function,
                M::Uniform => matches!(site, DeclSite::Global | DeclSite::Param),
                M::Groupshared => site == DeclSite::Global,
                M::Volatile => matches!(site, DeclSite::Local | DeclSite::Param),
                M::Shared => matches!(site, DeclSite::Global | DeclSite::CBufferMember),
                M::In | M::Out | M::Inout => site == DeclSite::Param,
                M::Point | M::Line | M::Triangle | M::LineAdj | M::TriangleAdj => {
                    site == DeclSite::Param
                }
                M::Vertices | M::Indices | M::Primitives | M::Payload => site == DeclSite::Param,
                M::Inline | M::Export => site == DeclSite::Function,
                M::Nointerpolation | M::Noperspective | M::Linear | M::Centroid | M::Sample => {
                    matches!(
                        site,
                        DeclSite::Param
                            | DeclSite::Field
                            | DeclSite::Function
                            | DeclSite::Local
                            | DeclSite::Global
                    )
                }
                _ => true,
            };
            if !allowed {
                let why = match m {
                    M::Volatile => "`volatile` applies to local variables only",
                    M::Groupshared => "`groupshared` applies to global variables only",
                    M::In | M::Out | M::Inout => "parameter directions apply to parameters only",
                    M::Extern => "`extern` applies to global variables only",
                    M::Uniform => "`uniform` applies to global variables and parameters only",
                    _ => "not allowed here",
                };
                self.push(
                    Diagnostic::error(
                        codes::MODIFIER_NOT_ALLOWED,
                        format!("`{}` is not allowed on {}", name(m), site.describe()),
                    )
                    .label(span, why),
                );
                continue;
            }
            match m {
                M::Static => st.is_static = Some(span),
                M::Uniform => st.uniform = Some(span),
                M::Extern => st.extern_ = Some(span),
                M::Groupshared => st.groupshared = Some(span),
                M::Precise => st.precise = true,
                M::Const => st.is_const = Some(span),
                M::Volatile => st.volatile = true,
                M::RowMajor => st.major = Some((true, span)),
                M::ColumnMajor => st.major = Some((false, span)),
                M::Nointerpolation => st.interp = Some(ir::Interpolation::Flat),
                M::Noperspective => st.interp = Some(ir::Interpolation::NoPerspective),
                M::Linear if st.interp.is_none() => {
                    st.interp = Some(ir::Interpolation::Perspective)
                }
                M::Centroid => st.sampling = Some(ir::Sampling::Centroid),
                M::Sample => st.sampling = Some(ir::Sampling::Sample),
                M::In => {
                    st.dir = Some(match st.dir {
                        Some(Dir::Out) | Some(Dir::InOut) => Dir::InOut,
                        _ => Dir::In,
                    })
                }
                M::Out => {
                    st.dir = Some(match st.dir {
                        Some(Dir::In) | Some(Dir::InOut) => Dir::InOut,
                        _ => Dir::Out,
                    })
                }
                M::Inout => st.dir = Some(Dir::InOut),
                _ => {}
            }
        }
        st
    }
}
