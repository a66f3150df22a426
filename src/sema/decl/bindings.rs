//! Descriptor set and binding numbers, assigned as DXC does (SPIR-V.rst,
//! "HLSL register and Vulkan binding"):
//!
//! 1. `[[vk::binding(b, s)]]` first (with `[[vk::counter_binding(c)]]`
//!    for the counter);
//! 2. then `register(xN, spaceM)` → binding N (+ `-fvk-x-shift` for class
//!    x in space M), set M, or `-fvk-bind-register`;
//! 3. then everything else, in declaration order, takes the next free
//!    binding of its set (set 0 unless `register(spaceM)` names one); the
//!    `$Globals` block takes the place of its first member (or
//!    `-fvk-bind-globals`), counters follow their buffer.

use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::sema::options::RegisterClass;
use crate::sema::table::Id;
use crate::sema::{ResourceId, Sema};
use rustc_hash::{FxHashMap, FxHashSet};

/// One thing that needs a binding.
#[derive(Clone, Copy)]
enum Slot {
    Resource(ResourceId),
    Globals,
}

impl<'a> Sema<'a> {
    pub(in crate::sema) fn shift(&self, class: RegisterClass, space: u32) -> u32 {
        self.opts
            .register_shifts
            .iter()
            .filter(|(c, _, s)| *c == class && s.is_none_or(|s| s == space))
            .map(|(_, n, _)| *n)
            .next_back()
            .unwrap_or(0)
    }

    pub(in crate::sema) fn assign_bindings(&mut self) {
        if !self.opts.bind_registers.is_empty() {
            self.check_bind_register();
        }
        let n = self.res.decls.len();
        let mut order: Vec<Slot> = self.res.decls.ids().map(Slot::Resource).collect();
        if self.res.globals_block.is_some() {
            let at = self.res.globals_block_order.unwrap_or(n).min(n);
            order.insert(at, Slot::Globals);
        }
        let mut assigned: Vec<Option<(u32, u32)>> = vec![None; n];
        // How many bindings each resource takes: one, or one per element
        // of an array with -fspv-flatten-resource-arrays (not counters).
        let width: Vec<u32> = self
            .res
            .decls
            .values()
            .map(|r| {
                if !(self.opts.flatten_resource_arrays || r.in_struct) || r.counter_of.is_some() {
                    return 1;
                }
                match self.module.types[self.module.globals[r.gv].ty].inner {
                    ir::TypeInner::Array {
                        size: ir::ArraySize::Constant(n),
                        ..
                    } => n.max(1),
                    _ => 1,
                }
            })
            .collect();
        let mut globals: Option<(u32, u32)> = self.opts.bind_globals;
        let mut used: FxHashMap<u32, FxHashSet<u32>> = FxHashMap::default();
        // What each explicit binding holds so far: its kind of descriptor
        // (see `Shareable`) and the resources there.
        let shareable: Vec<Shareable> = self
            .res
            .decls
            .values()
            .map(|r| Shareable::of(&self.module, r.gv))
            .collect();
        let mut owners: FxHashMap<(u32, u32), Vec<ResourceId>> = FxHashMap::default();
        let mut overlaps = Vec::new();
        let mut take =
            |set: u32, b0: u32, who: ResourceId, used: &mut FxHashMap<u32, FxHashSet<u32>>| {
                for b in b0..b0.saturating_add(width[who.index()]) {
                    used.entry(set).or_default().insert(b);
                    let there = owners.entry((set, b)).or_default();
                    let clash = there
                        .iter()
                        .find(|&&prev| !shareable[prev.index()].with(shareable[who.index()]));
                    if let Some(&prev) = clash {
                        overlaps.push((prev, who, set, b));
                    }
                    there.push(who);
                }
            };
        // 1. [[vk::binding]] and counter bindings of those.
        for (i, r) in self.res.decls.iter() {
            if let Some(main) = r.counter_of {
                let m = &self.res.decls[main];
                if let (Some((_, set)), Some(cb)) = (m.vk_binding, m.counter_binding) {
                    assigned[i.index()] = Some((cb, set));
                    take(set, cb, i, &mut used);
                }
                continue;
            }
            // The sampler of a combined image sampler is its texture's
            // variable: no binding of its own.
            if self.res.combined.contains_key(&r.gv) {
                continue;
            }
            if let Some((b, s)) = r.vk_binding {
                assigned[i.index()] = Some((b, s));
                take(s, b, i, &mut used);
            }
        }
        if let Some((b, s)) = globals {
            used.entry(s).or_default().insert(b);
        }
        for (b, s) in self.opts.heap_bindings.into_iter().flatten() {
            used.entry(s).or_default().insert(b);
        }
        // 2. register(xN, spaceM).
        for (i, r) in self.res.decls.iter() {
            if assigned[i.index()].is_some() || self.res.combined.contains_key(&r.gv) {
                continue;
            }
            if let Some(main) = r.counter_of {
                let m = &self.res.decls[main];
                if m.vk_binding.is_none()
                    && let (Some((_, _, space)), Some(cb)) = (m.register, m.counter_binding)
                {
                    assigned[i.index()] = Some((cb, space));
                    take(space, cb, i, &mut used);
                }
                continue;
            }
            let Some((Some(c), num, space)) = r.register else {
                continue;
            };
            if num == u32::MAX {
                continue;
            }
            if !self.opts.bind_registers.is_empty() {
                let class = RegisterClass::from_letter(c);
                if let Some(br) = self
                    .opts
                    .bind_registers
                    .iter()
                    .find(|b| Some(b.class) == class && b.register == num && b.space == space)
                {
                    assigned[i.index()] = Some((br.binding, br.set));
                    take(br.set, br.binding, i, &mut used);
                    continue;
                }
            }
            let b = match self.shift_class(r, c) {
                Some(class) => num + self.shift(class, space),
                None => num,
            };
            assigned[i.index()] = Some((b, space));
            take(space, b, i, &mut used);
        }
        // 3. The rest in declaration order.
        // Where the search for a free binding starts, per set and, for
        // resources placed by -fvk-auto-shift-bindings, per register class
        // (each class counts from its own shift).
        let mut next: FxHashMap<(u32, Option<RegisterClass>), u32> = FxHashMap::default();
        // The first `w` consecutive free bindings of `set` from `floor`.
        let mut next_free = |(set, lane): (u32, Option<RegisterClass>),
                             floor: u32,
                             w: u32,
                             used: &mut FxHashMap<u32, FxHashSet<u32>>|
         -> u32 {
            let nb = next.entry((set, lane)).or_insert(0);
            let mut b = (*nb).max(floor);
            let u = used.entry(set).or_default();
            while (b..b.saturating_add(w)).any(|x| u.contains(&x)) {
                b += 1;
            }
            u.extend(b..b.saturating_add(w));
            if w == 1 || b == *nb {
                *nb = b + w;
            }
            b
        };
        for slot in order {
            match slot {
                Slot::Globals => {
                    if globals.is_none() {
                        let set = self.opts.default_space;
                        globals = Some((next_free((set, None), 0, 1, &mut used), set));
                    }
                }
                Slot::Resource(i) => {
                    let r = &self.res.decls[i];
                    if assigned[i.index()].is_some() || self.res.combined.contains_key(&r.gv) {
                        continue;
                    }
                    // The set: the counter's main buffer's, or register(spaceM).
                    let src = match r.counter_of {
                        Some(m) => &self.res.decls[m],
                        None => r,
                    };
                    let set = match (src.vk_binding, src.register) {
                        (Some((_, s)), _) => s,
                        (None, Some((_, _, s))) => s,
                        _ => self.opts.default_space,
                    };
                    // A counter has no register class of its own.
                    let (floor, lane) = if self.opts.auto_shift_bindings
                        && r.counter_of.is_none()
                        && src.register.is_none()
                        && src.vk_binding.is_none()
                    {
                        (self.shift(src.class, set), Some(src.class))
                    } else {
                        (0, None)
                    };
                    let w = width[i.index()];
                    let b = next_free((set, lane), floor, w, &mut used);
                    assigned[i.index()] = Some((b, set));
                }
            }
        }
        // Descriptor heaps take the first unused bindings of set 0, in
        // this order, when they are used: the resource heap (every resource
        // type's array shares it), the sampler heap, the counters.
        let first_free = |used: &mut FxHashMap<u32, FxHashSet<u32>>| -> u32 {
            let u = used.entry(0).or_default();
            let mut b = 0;
            while u.contains(&b) {
                b += 1;
            }
            u.insert(b);
            b
        };
        // The command line may place each heap (binding, set).
        let [resource_at, sampler_at, counter_at] = self.opts.heap_bindings;
        for (sampler, at) in [(false, resource_at), (true, sampler_at)] {
            let heaps: Vec<_> = self
                .res
                .heaps
                .iter()
                .filter(|((_, s), _)| *s == sampler)
                .map(|(_, g)| *g)
                .collect();
            if !heaps.is_empty() {
                let (binding, set) = at.unwrap_or_else(|| (first_free(&mut used), 0));
                for g in heaps {
                    self.module.globals[g].binding = Some(ir::ResourceBinding {
                        set,
                        binding,
                        input_attachment: None,
                    });
                }
            }
        }
        if let Some(c) = self.res.counter_heap {
            let (binding, set) = counter_at.unwrap_or_else(|| (first_free(&mut used), 0));
            self.module.globals[c].binding = Some(ir::ResourceBinding {
                set,
                binding,
                input_attachment: None,
            });
        }
        for (r, a) in self.res.decls.values().zip(&assigned) {
            if let Some((binding, set)) = *a {
                self.module.globals[r.gv].binding = Some(ir::ResourceBinding {
                    set,
                    binding,
                    input_attachment: r.input_attachment,
                });
            }
        }
        if let (Some(gv), Some((binding, set))) = (self.res.globals_block, globals) {
            self.module.globals[gv].binding = Some(ir::ResourceBinding {
                set,
                binding,
                input_attachment: None,
            });
        }
        // DXC warns when explicit bindings collide; a texture and a sampler
        // that make one combined image sampler do not (see `Shareable`).
        for (a, b, set, binding) in overlaps {
            let (ra, rb) = (&self.res.decls[a], &self.res.decls[b]);
            let d = Diagnostic::warning(
                codes::BINDING_OVERLAP,
                format!(
                    "`{}` and `{}` both use binding {binding} in descriptor set {set}",
                    ra.name, rb.name
                ),
            )
            .label(rb.span, "this resource")
            .label(ra.span, "takes the same binding as this one")
            .note(overlap_fix(
                ra.register.filter(|_| ra.vk_binding.is_none()),
                rb.register.filter(|_| rb.vk_binding.is_none()),
            ));
            self.push(d);
        }
    }
}

impl Sema<'_> {
    /// With `-fvk-bind-register`, the command line places every resource
    /// (SPIR-V.rst, "HLSL register and Vulkan binding"): each needs a
    /// `register(…)` and an entry for it (or `[[vk::binding]]`), the
    /// `$Globals` block `-fvk-bind-globals`, a used descriptor heap its
    /// `-fvk-bind-*-heap`; a counter buffer has nowhere to go.
    fn check_bind_register(&mut self) {
        let mut found = Vec::new();
        for r in self.res.decls.values() {
            if let Some(main) = r.counter_of {
                let m = &self.res.decls[main];
                if m.vk_binding.is_none() {
                    found.push((
                        m.span,
                        format!("-fvk-bind-register cannot place the counter of `{}`", m.name),
                        "this buffer has a counter",
                        "the command line gives the buffer one binding and its counter none: place the buffer with `[[vk::binding(N, S)]]` instead".to_string(),
                    ));
                }
                continue;
            }
            if r.vk_binding.is_some() || self.res.combined.contains_key(&r.gv) {
                continue;
            }
            match r.register {
                Some((Some(c), num, space)) if num != u32::MAX => {
                    let class = RegisterClass::from_letter(c);
                    let listed = self.opts.bind_registers.iter().any(|b| {
                        Some(b.class) == class && b.register == num && b.space == space
                    });
                    if !listed {
                        found.push((
                            r.span,
                            format!(
                                "no -fvk-bind-register for `{}` (register {c}{num}, space{space})",
                                r.name
                            ),
                            "this register has no binding",
                            "with -fvk-bind-register, every resource's register needs an entry `-fvk-bind-register <register> <space> <binding> <set>`".to_string(),
                        ));
                    }
                }
                _ => found.push((
                    r.span,
                    format!("`{}` has no register annotation", r.name),
                    "no `register(…)`",
                    "with -fvk-bind-register, every resource needs `register(…)` (or `[[vk::binding]]`)".to_string(),
                )),
            }
        }
        if self.res.globals_block.is_some()
            && self.opts.bind_globals.is_none()
            && let Some(first) = self.res.globals_members.values().next()
        {
            found.push((
                first.span,
                "-fvk-bind-register needs -fvk-bind-globals for the `$Globals` buffer".to_string(),
                "a member of `$Globals`",
                "place the buffer with `-fvk-bind-globals <binding> <set>`".to_string(),
            ));
        }
        for (sampler, option) in [
            (false, "-fvk-bind-resource-heap"),
            (true, "-fvk-bind-sampler-heap"),
        ] {
            let used = self.res.heaps.keys().any(|(_, s)| *s == sampler);
            if used
                && self.opts.heap_bindings[usize::from(sampler)].is_none()
                && let Some(span) = self.res.heap_spans[usize::from(sampler)]
            {
                found.push((
                    span,
                    format!("-fvk-bind-register needs {option} when the descriptor heap is used"),
                    "the heap is used here",
                    format!("place the heap with `{option} <binding> <set>`"),
                ));
            }
        }
        for (span, message, label, note) in found {
            let d = Diagnostic::error(codes::BAD_REGISTER, message)
                .label(span, label)
                .note(note);
            self.push(d);
        }
    }
}

/// What a resource on a binding can share it with. Vulkan reads one
/// combined image sampler descriptor through a sampled image variable and
/// a sampler variable on the same binding (the Vulkan spec's table of
/// descriptor types and SPIR-V types: `VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER`
/// is an `OpTypeImage` with Sampled 1 and an `OpTypeSampler`), so
/// `Texture2D t : register(t1)` beside `SamplerState s : register(s1)` is one
/// descriptor, not a clash. Arrays share when their lengths match.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shareable {
    /// A sampled image other than a texel buffer, of this array shape.
    SampledImage(Option<u32>),
    /// A sampler, of this array shape.
    Sampler(Option<u32>),
    /// Anything else: alone on its binding.
    Alone,
}

impl Shareable {
    fn of(module: &ir::Module, gv: ir::Handle<ir::GlobalVariable>) -> Shareable {
        let mut ty = module.globals[gv].ty;
        let mut count = None;
        if let ir::TypeInner::Array { base, size, .. } = &module.types[ty].inner {
            count = Some(match size {
                ir::ArraySize::Constant(n) => *n,
                ir::ArraySize::Runtime => u32::MAX,
            });
            ty = *base;
        }
        match &module.types[ty].inner {
            ir::TypeInner::Image {
                dim,
                class: ir::ImageClass::Sampled,
                ..
            } if *dim != ir::ImageDim::Buffer => Shareable::SampledImage(count),
            ir::TypeInner::Sampler { .. } => Shareable::Sampler(count),
            _ => Shareable::Alone,
        }
    }

    /// Whether a resource of this kind and one of `other` can be one
    /// descriptor.
    fn with(self, other: Shareable) -> bool {
        match (self, other) {
            (Shareable::SampledImage(a), Shareable::Sampler(b))
            | (Shareable::Sampler(a), Shareable::SampledImage(b)) => a == b,
            _ => false,
        }
    }
}

/// How to give two resources on one binding their own: registers of two
/// classes (`t0`, `s0`) are told apart by shifting one class, as DXC's
/// `-fvk-{b,s,t,u}-shift` does; otherwise by another register or an
/// explicit `[[vk::binding]]`.
fn overlap_fix(a: Option<(Option<char>, u32, u32)>, b: Option<(Option<char>, u32, u32)>) -> String {
    let class = |r: Option<(Option<char>, u32, u32)>| {
        r.and_then(|(c, _, _)| c)
            .filter(|c| crate::sema::options::RegisterClass::from_letter(*c).is_some())
    };
    match (class(a), class(b)) {
        (Some(x), Some(y)) if x != y => format!(
            "Vulkan has one range of bindings for every register class: shift one class, \
             e.g. `-fvk-{y}-shift 10 0` for `{y}` registers (on the command line, or in the \
             language server's `args` setting), or give the resource its own binding with \
             `[[vk::binding(N)]]`"
        ),
        _ => "give one of them another register, or its own binding with `[[vk::binding(N)]]`"
            .to_string(),
    }
}
