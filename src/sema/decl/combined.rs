//! `[[vk::combinedImageSampler]]` (SPIR-V.rst, "Vulkan specific
//! attributes"): a texture and a sampler, both with the attribute, on the
//! same descriptor set and binding are one combined image sampler
//! descriptor. The texture's global becomes that `OpTypeSampledImage`
//! variable and the sampler's name names it too: sampling the texture
//! with its sampler reads the variable as it is, the texture used alone
//! (or sampled with another sampler) reads its image (`OpImage`). The
//! sampler's own global is never used and takes no binding.
//!
//! The pairs are known before any body is lowered: a pair shares an
//! explicit binding (`[[vk::binding]]`, `register` with its shift; only
//! `-fvk-t-shift` applies to either, as SPIR-V.rst says), which does not
//! depend on the other resources.

use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::sema::options::RegisterClass;
use crate::sema::{GlobalKind, ResourceDecl, ResourceId, Sema};

/// What a resource with the attribute is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Texture,
    Sampler,
}

/// The textures and samplers with the attribute on one binding.
type Group = Vec<(ResourceId, Part)>;

impl<'a> Sema<'a> {
    /// The binding and set that `[[vk::binding]]` or `register` give `r`
    /// (steps 1 and 2 of [`Sema::assign_bindings`]); `None` when it takes
    /// the next free one. The register shift is `class`'s.
    pub(in crate::sema) fn explicit_binding(
        &self,
        r: &ResourceDecl,
        class: Option<RegisterClass>,
    ) -> Option<(u32, u32)> {
        if let Some(b) = r.vk_binding {
            return Some(b);
        }
        let (Some(c), num, space) = r.register? else {
            return None;
        };
        if num == u32::MAX {
            return None;
        }
        if let Some(br) = self.opts.bind_registers.iter().find(|b| {
            Some(b.class) == RegisterClass::from_letter(c) && b.register == num && b.space == space
        }) {
            return Some((br.binding, br.set));
        }
        Some(match class {
            Some(class) => (num + self.shift(class, space), space),
            None => (num, space),
        })
    }

    /// The register class whose shift applies to `r`'s register: the
    /// texture class for both halves of a combined image sampler.
    pub(in crate::sema) fn shift_class(
        &self,
        r: &ResourceDecl,
        letter: char,
    ) -> Option<RegisterClass> {
        if r.combined.is_some() {
            return Some(RegisterClass::T);
        }
        RegisterClass::from_letter(letter)
    }

    /// Pairs the textures and samplers with `[[vk::combinedImageSampler]]`
    /// by their binding, reports what cannot be paired, and makes each
    /// pair one combined image sampler variable.
    pub(in crate::sema) fn pair_combined_samplers(&mut self) {
        // (set, binding) → the textures and samplers there, in order.
        let mut groups: Vec<((u32, u32), Group)> = Vec::new();
        let marked: Vec<ResourceId> = self
            .res
            .decls
            .iter()
            .filter(|(_, r)| r.combined.is_some() && r.counter_of.is_none())
            .map(|(i, _)| i)
            .collect();
        for id in marked {
            let r = self.res.decls[id].clone();
            let attr = r.combined.unwrap_or(r.span);
            let ty = self.module.globals[r.gv].ty;
            let part = match &self.module.types[ty].inner {
                ir::TypeInner::Image {
                    dim,
                    class: ir::ImageClass::Sampled,
                    ..
                } if *dim != ir::ImageDim::Buffer => Part::Texture,
                ir::TypeInner::Sampler { .. } => Part::Sampler,
                ir::TypeInner::Array { .. } => {
                    self.unsupported(
                        "`[[vk::combinedImageSampler]]` on an array of textures or samplers",
                        r.span,
                    );
                    continue;
                }
                _ => {
                    self.push(
                        Diagnostic::error(
                            codes::BAD_ATTRIBUTE,
                            format!(
                                "`[[vk::combinedImageSampler]]` on `{}`, which is not a texture or a sampler",
                                r.name
                            ),
                        )
                        .label(attr, "this attribute")
                        .label(r.span, "declared here")
                        .note("the attribute pairs a texture (`Texture2D`, `TextureCube`, …) with a `SamplerState` or `SamplerComparisonState` on the same binding"),
                    );
                    continue;
                }
            };
            let class = r
                .register
                .and_then(|(c, _, _)| c)
                .and_then(|c| self.shift_class(&r, c));
            let Some(key) = self.explicit_binding(&r, class) else {
                self.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!(
                            "`{}` has `[[vk::combinedImageSampler]]` but no binding of its own",
                            r.name
                        ),
                        )
                    .label(r.span, "declared without `[[vk::binding]]` or `register`")
                    .label(attr, "this attribute")
                    .note("a combined texture and sampler are paired by their binding: give both `[[vk::binding(b, s)]]`, or registers of one number (`register(t1)` and `register(s1)`)"),
                );
                continue;
            };
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push((id, part)),
                None => groups.push((key, vec![(id, part)])),
            }
        }
        for ((binding, set), members) in groups {
            let of = |p: Part| -> Vec<ResourceId> {
                members
                    .iter()
                    .filter(|(_, q)| *q == p)
                    .map(|(i, _)| *i)
                    .collect()
            };
            let (textures, samplers) = (of(Part::Texture), of(Part::Sampler));
            match (textures.as_slice(), samplers.as_slice()) {
                ([t], [s]) => self.combine(*t, *s),
                ([], only) | (only, []) => {
                    let missing = if textures.is_empty() {
                        "texture"
                    } else {
                        "sampler"
                    };
                    for &i in only {
                        let r = &self.res.decls[i];
                        let d = Diagnostic::error(
                            codes::BAD_ATTRIBUTE,
                            format!(
                                "no {missing} with `[[vk::combinedImageSampler]]` shares the binding of `{}` (descriptor set {set}, binding {binding})",
                                r.name
                            ),
                        )
                        .label(r.span, format!("this needs a {missing} to combine with"))
                        .note(format!("declare the {missing} with `[[vk::combinedImageSampler]]` and the same binding, or remove the attribute"));
                        self.push(d);
                    }
                }
                _ => {
                    let (what, list) = if textures.len() > 1 {
                        ("textures", &textures)
                    } else {
                        ("samplers", &samplers)
                    };
                    let (first, second) = (&self.res.decls[list[0]], &self.res.decls[list[1]]);
                    let d = Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!(
                            "two {what} with `[[vk::combinedImageSampler]]` share descriptor set {set}, binding {binding}"
                        ),
                    )
                    .label(second.span, "this one")
                    .label(first.span, "and this one")
                    .note("a combined image sampler is one texture and one sampler: give each pair its own binding");
                    self.push(d);
                }
            }
        }
    }

    /// Makes texture `t` and sampler `s` one combined image sampler: the
    /// texture's global takes the sampled image type, and both names name
    /// it.
    fn combine(&mut self, t: ResourceId, s: ResourceId) {
        let (tgv, sgv) = (self.res.decls[t].gv, self.res.decls[s].gv);
        let image = self.module.globals[tgv].ty;
        let mem = self.module.ty(ir::TypeInner::SampledImage { image });
        self.module.globals[tgv].ty = mem;
        let ids: Vec<_> = self.decls.globals.ids().collect();
        for id in ids {
            let g = &mut self.decls.globals[id];
            if g.resource == Some(t) || g.resource == Some(s) {
                g.kind = GlobalKind::Var { gv: tgv, mem };
            }
        }
        self.res.combined.insert(sgv, tgv);
    }
}
