//! Tiled resources on a GPU: compute shaders compiled here (in-process, no
//! spirv-tools needed) read a sparse image whose memory is bound to some
//! tiles only, and every read is checked against what the Vulkan spec
//! promises on a device with `residencyNonResidentStrict`.
//!
//! lavapipe has no sparse residency, so the tests that need it are
//! `#[ignore]`d: they run only when asked, and then FAIL (never skip) on a
//! device without it. On the NVIDIA machine, with the test binary built
//! here (`cargo test --release --lib --no-run` prints `target/release/deps/hlslc-<hash>`) and
//! the Vulkan loader set up as `tests/unit/vk/mod.rs` describes:
//!
//! ```sh
//! export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
//! HLSLC_VK_DEVICE=NVIDIA ./hlslc-<hash> tests::sparse --ignored --nocapture
//! ```
//!
//! The shaders are built into the binary (`include_str!`), so nothing of
//! the source tree is read. Each test prints a table of its probes: what
//! was expected, what was read, `CheckAccessFullyMapped` and the raw
//! residency code.
//!
//! # What the ignored tests assert
//! The sampled image is R8G8B8A8_UNORM, 512x512 with all 10 levels. Memory
//! is bound to the tiles of level 0 in a checkerboard ((x + y) even), to
//! tile (0, 0) of level 1, to nothing of level 2, and to the whole mip tail.
//! Each bound tile holds one colour naming its level and tile
//! (R = 20 + 20·level, G = 30 + 40·x, B = 30 + 40·y, A = 255); the texels
//! staged for unbound tiles are magenta, so that binding or uploading too
//! much would show.
//!
//! - `sparse_texture_reads_on_gpu`: `Load`, `SampleLevel` (point and
//!   bilinear), `SampleGrad` with a clamp, `GatherRed`, `GatherAlpha` with
//!   four offsets, all with `status`; plus `SampleGrad` with a clamp and no
//!   status. A read of an unbound tile returns 0 in all four components
//!   (alpha too: the format has alpha, and strict residency reads as if the
//!   memory held zeros) and `CheckAccessFullyMapped` is false; a read of a
//!   bound tile returns its colour and is fully mapped. A bilinear sample
//!   straddling a bound and an unbound tile returns the weighted sum with
//!   zeros for the unbound texels (half the colour, alpha 0.5) and is not
//!   fully mapped, also at the corner of four tiles; one just inside the
//!   bound tile is. A gather straddling the edge returns the bound texels'
//!   red and zeros, not fully mapped; a four-offset gather is not fully
//!   mapped when one offset reaches an unbound tile. `clamp` (MinLod)
//!   moves the read to the clamped level (its colour shows it), makes the
//!   read non-resident where that level's tile is unbound (level 2, or
//!   tile (1, 0) of level 1) and resident where an unbound level-0 tile is
//!   covered by a bound level-1 tile.
//! - `sparse_storage_image_reads_on_gpu`: `RWTexture2D.Load(p, status)`
//!   (OpImageSparseRead) at every tile's centre and on both sides of a tile
//!   edge of a single-level sparse storage image bound in a checkerboard.
//! - `sparse_layout_on_gpu`: the device's sparse block for R8G8B8A8 (the
//!   standard 128x128 block of 64 KiB when the device says its 2D block
//!   shape is standard) and where the mip tail of a 1024x1024 image with
//!   11 levels starts (printed).

use super::compile::{compile, image_operands};
use crate::diag::{DiagnosticFormat, render_to_string};
use crate::options::TargetEnv;
use crate::tests::vk::{self, ImageDesc, Resource, SamplerDesc, SparseImage, SparseLayout, Tile};
use ash::vk as ashvk;
use std::collections::BTreeSet;

const PROBES_HLSL: &str = include_str!("probes.hlsl");
const STORAGE_PROBES_HLSL: &str = include_str!("storage_probes.hlsl");

/// Compiles a probe shader in-process (no spirv-tools: the GPU machine has
/// none; `probe_shaders_are_valid` checks them with spirv-val here).
fn compile_in_process(src: &str) -> Vec<u32> {
    let mut o = crate::tests::common::options_for("cs_6_0");
    o.target_env = TargetEnv::Vulkan1_2;
    let (loader, path) = crate::tests::common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    match c.artifact.filter(|_| !c.diagnostics.has_errors()) {
        Some(a) => a.spirv,
        None => panic!("the probe shader failed to compile:\n{text}"),
    }
}

/// The sampled test image: 512x512 RGBA8 with every level.
fn texture_desc() -> ImageDesc {
    ImageDesc {
        mip_levels: 10,
        ..ImageDesc::d2(ashvk::Format::R8G8B8A8_UNORM, 512, 512)
    }
}

/// The colour of a bound tile (the mip tail counts as tile (0, 0)).
fn colour(mip: u32, tile: Option<Tile>) -> [u8; 4] {
    let (x, y) = tile.map_or((0, 0), |t| (t.x, t.y));
    [
        (20 + 20 * mip) as u8,
        (30 + 40 * x) as u8,
        (30 + 40 * y) as u8,
        255,
    ]
}

/// What the staging data holds for texels of unbound tiles.
const POISON: [u8; 4] = [255, 0, 255, 255];

/// Which tiles get memory: a checkerboard of level 0, tile (0, 0) of
/// level 1, nothing of the other levels before the mip tail.
fn bound_tiles(layout: &SparseLayout) -> Vec<Tile> {
    layout
        .all_tiles()
        .into_iter()
        .filter(|t| match t.mip {
            0 => (t.x + t.y) % 2 == 0,
            1 => t.x == 0 && t.y == 0,
            _ => false,
        })
        .collect()
}

/// The image as the device should show it: which texels are bound, and
/// what a texel reads as.
struct Model<'a> {
    layout: &'a SparseLayout,
    bound: BTreeSet<Tile>,
    mip_tail_bound: bool,
}

impl Model<'_> {
    fn resident(&self, mip: u32, x: u32, y: u32) -> bool {
        if self.layout.in_mip_tail(mip) {
            return self.mip_tail_bound;
        }
        self.layout
            .tile_at(mip, x, y)
            .is_some_and(|t| self.bound.contains(&t))
    }
    /// Bytes of texel (x, y) of level `mip` as uploaded (bound or not).
    fn staged(&self, mip: u32, x: u32, y: u32) -> [u8; 4] {
        match self.layout.tile_at(mip, x, y) {
            Some(t) if self.bound.contains(&t) => colour(mip, Some(t)),
            Some(_) => POISON,
            None => colour(mip, None),
        }
    }
    /// What a read of texel (x, y) returns: zeros when unbound
    /// (residencyNonResidentStrict: "as if the memory were zero").
    fn texel(&self, mip: u32, x: u32, y: u32) -> [f32; 4] {
        if self.resident(mip, x, y) {
            self.staged(mip, x, y).map(|b| f32::from(b) / 255.0)
        } else {
            [0.0; 4]
        }
    }
    fn size(&self, mip: u32) -> (u32, u32) {
        let [w, h, _] = self.layout.mip_extent(mip);
        (w, h)
    }
    /// The packed texels of every level.
    fn image_data(&self) -> Vec<u8> {
        let mut data = Vec::new();
        for mip in 0..self.layout.mip_levels {
            let (w, h) = self.size(mip);
            for y in 0..h {
                for x in 0..w {
                    data.extend_from_slice(&self.staged(mip, x, y));
                }
            }
        }
        data
    }
    /// The texel a point sample at `uv` of level `mip` reads (clamp to edge).
    fn nearest(&self, mip: u32, uv: [f32; 2]) -> (u32, u32) {
        let (w, h) = self.size(mip);
        let x = ((uv[0] * w as f32).floor() as i64).clamp(0, i64::from(w) - 1) as u32;
        let y = ((uv[1] * h as f32).floor() as i64).clamp(0, i64::from(h) - 1) as u32;
        (x, y)
    }
    /// The bilinear footprint at `uv` of level `mip`: (i0, j0) and the
    /// fractions (Vulkan "Texel Filtering": u·w − 0.5).
    fn footprint(&self, mip: u32, uv: [f32; 2]) -> (i64, i64, f32, f32) {
        let (w, h) = self.size(mip);
        let fx = uv[0] * w as f32 - 0.5;
        let fy = uv[1] * h as f32 - 0.5;
        (
            fx.floor() as i64,
            fy.floor() as i64,
            fx - fx.floor(),
            fy - fy.floor(),
        )
    }
    fn clamp_texel(&self, mip: u32, x: i64, y: i64) -> (u32, u32) {
        let (w, h) = self.size(mip);
        (
            x.clamp(0, i64::from(w) - 1) as u32,
            y.clamp(0, i64::from(h) - 1) as u32,
        )
    }
}

/// One read and what it must give.
struct Probe {
    what: String,
    op: u32,
    level: f32,
    uv: [f32; 2],
    texel: [i32; 2],
    mip: i32,
    grad: f32,
    value: [f32; 4],
    /// 1 fully mapped, 0 not, 2 for the read without a status.
    mapped: u32,
    /// Allowed difference per component.
    tolerance: f32,
}

impl Probe {
    fn bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(32);
        b.extend(self.op.to_le_bytes());
        b.extend(self.level.to_le_bytes());
        b.extend(self.uv[0].to_le_bytes());
        b.extend(self.uv[1].to_le_bytes());
        b.extend(self.texel[0].to_le_bytes());
        b.extend(self.texel[1].to_le_bytes());
        b.extend(self.mip.to_le_bytes());
        b.extend(self.grad.to_le_bytes());
        b
    }
}

/// Exact reads: half a unorm step; filtered reads: one step.
const EXACT: f32 = 0.5 / 255.0;
const FILTERED: f32 = 1.0 / 255.0;

/// The offsets of the four-offset gather in probes.hlsl.
const GATHER_OFFSETS: [[i64; 2]; 4] = [[0, 0], [7, 0], [0, 7], [-8, 0]];

struct Probes<'a> {
    m: &'a Model<'a>,
    list: Vec<Probe>,
}

impl Probes<'_> {
    fn push(&mut self, p: Probe) {
        self.list.push(p);
    }
    fn base(what: String, op: u32) -> Probe {
        Probe {
            what,
            op,
            level: 0.0,
            uv: [0.0; 2],
            texel: [0; 2],
            mip: 0,
            grad: 0.0,
            value: [0.0; 4],
            mapped: 0,
            tolerance: EXACT,
        }
    }
    fn load(&mut self, what: &str, mip: u32, x: u32, y: u32) {
        let m = self.m;
        self.push(Probe {
            texel: [x as i32, y as i32],
            mip: mip as i32,
            value: m.texel(mip, x, y),
            mapped: u32::from(m.resident(mip, x, y)),
            ..Self::base(format!("Load L{mip} ({x},{y}) {what}"), 0)
        });
    }
    fn point(&mut self, what: &str, uv: [f32; 2], lod: u32) {
        let m = self.m;
        let (x, y) = m.nearest(lod, uv);
        self.push(Probe {
            level: lod as f32,
            uv,
            value: m.texel(lod, x, y),
            mapped: u32::from(m.resident(lod, x, y)),
            ..Self::base(
                format!("SampleLevel point lod {lod} -> ({x},{y}) {what}"),
                1,
            )
        });
    }
    /// A bilinear sample of level `lod`. Texels of weight 0 are part of the
    /// footprint for residency only if the device says so: the probe must
    /// not depend on it.
    fn bilinear(&mut self, what: &str, uv: [f32; 2], lod: u32) {
        let m = self.m;
        let (i0, j0, a, b) = m.footprint(lod, uv);
        let mut value = [0.0f32; 4];
        let (mut weighted, mut all) = (true, true);
        for (dx, dy, w) in [
            (0, 0, (1.0 - a) * (1.0 - b)),
            (1, 0, a * (1.0 - b)),
            (0, 1, (1.0 - a) * b),
            (1, 1, a * b),
        ] {
            let (x, y) = m.clamp_texel(lod, i0 + dx, j0 + dy);
            let r = m.resident(lod, x, y);
            all &= r;
            if w > 0.0 {
                weighted &= r;
                let t = m.texel(lod, x, y);
                for c in 0..4 {
                    value[c] += w * t[c];
                }
            }
        }
        assert_eq!(
            weighted, all,
            "probe `{what}` is ambiguous: a texel of weight 0 decides its residency"
        );
        self.push(Probe {
            level: lod as f32,
            uv,
            value,
            mapped: u32::from(weighted),
            tolerance: FILTERED,
            ..Self::base(
                format!("SampleLevel bilinear lod {lod} at ({i0}+{a},{j0}+{b}) {what}"),
                2,
            )
        });
    }
    /// `SampleGrad` with gradients of half a texel of level 0 (so the
    /// gradients alone choose level 0) and a clamp: the clamp's level is
    /// read. `status`: with a status argument (op 3) or without (op 6).
    fn grad_clamp(&mut self, what: &str, uv: [f32; 2], clamp: u32, status: bool) {
        let m = self.m;
        let (w, _) = m.size(0);
        let (x, y) = m.nearest(clamp, uv);
        self.push(Probe {
            level: clamp as f32,
            uv,
            grad: 0.5 / w as f32,
            value: m.texel(clamp, x, y),
            mapped: if status {
                u32::from(m.resident(clamp, x, y))
            } else {
                2
            },
            ..Self::base(
                format!(
                    "SampleGrad clamp {clamp}{} -> L{clamp} ({x},{y}) {what}",
                    if status { "" } else { " (no status)" }
                ),
                if status { 3 } else { 6 },
            )
        });
    }
    /// `GatherRed` of level 0: (i0,j1), (i1,j1), (i1,j0), (i0,j0).
    fn gather_red(&mut self, what: &str, uv: [f32; 2]) {
        let m = self.m;
        let (i0, j0, _, _) = m.footprint(0, uv);
        let mut value = [0.0; 4];
        let mut resident = true;
        for (c, (dx, dy)) in [(0, 1), (1, 1), (1, 0), (0, 0)].into_iter().enumerate() {
            let (x, y) = m.clamp_texel(0, i0 + dx, j0 + dy);
            value[c] = m.texel(0, x, y)[0];
            resident &= m.resident(0, x, y);
        }
        self.push(Probe {
            uv,
            value,
            mapped: u32::from(resident),
            ..Self::base(format!("GatherRed at ({i0},{j0}) {what}"), 4)
        });
    }
    /// `GatherAlpha` with the four offsets of probes.hlsl: component k from
    /// the footprint moved by offset k. Each footprint must lie in one tile,
    /// so that which of its texels the device returns does not matter.
    fn gather_alpha4(&mut self, what: &str, uv: [f32; 2]) {
        let m = self.m;
        let (i0, j0, _, _) = m.footprint(0, uv);
        let mut value = [0.0; 4];
        let mut resident = true;
        for (c, [ox, oy]) in GATHER_OFFSETS.into_iter().enumerate() {
            let texels: Vec<(u32, u32)> = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .into_iter()
                .map(|(dx, dy)| m.clamp_texel(0, i0 + ox + dx, j0 + oy + dy))
                .collect();
            let alphas: BTreeSet<u32> = texels
                .iter()
                .map(|&(x, y)| m.texel(0, x, y)[3].to_bits())
                .collect();
            assert_eq!(
                alphas.len(),
                1,
                "probe `{what}`: footprint {c} straddles tiles"
            );
            let (x, y) = texels[0];
            value[c] = m.texel(0, x, y)[3];
            resident &= texels.iter().all(|&(x, y)| m.resident(0, x, y));
        }
        self.push(Probe {
            uv,
            value,
            mapped: u32::from(resident),
            ..Self::base(format!("GatherAlpha 4 offsets at ({i0},{j0}) {what}"), 5)
        });
    }
}

/// The probes of the sampled image, placed by the device's block size.
fn texture_probes<'a>(m: &'a Model<'a>) -> Vec<Probe> {
    let l = m.layout;
    let (bw, bh) = (l.block[0], l.block[1]);
    let (w0, h0) = m.size(0);
    let uv0 = |x: f32, y: f32| [x / w0 as f32, y / h0 as f32];
    let tail = l.mip_tail_first_lod;
    let mut p = Probes {
        m,
        list: Vec::new(),
    };
    // Every tile of level 0 at its centre, and both sides of an edge.
    let [tx, ty] = l.tiles(0).unwrap_or([0, 0]);
    for y in 0..ty {
        for x in 0..tx {
            let what = if (x + y) % 2 == 0 { "bound" } else { "unbound" };
            p.load(
                &format!("tile ({x},{y}) {what}"),
                0,
                x * bw + bw / 2,
                y * bh + bh / 2,
            );
        }
    }
    p.load("last texel of bound tile (0,0)", 0, bw - 1, bh / 2);
    p.load("first texel of unbound tile (1,0)", 0, bw, bh / 2);
    p.load("level 1 tile (0,0) bound", 1, bw / 2, bh / 2);
    p.load("level 1 tile (1,0) unbound", 1, bw + bw / 2, bh / 2);
    p.load("level 2 unbound", 2, bw / 2, bh / 2);
    p.load("first level of the mip tail", tail, 0, 0);
    p.load("last level (mip tail)", l.mip_levels - 1, 0, 0);

    // Point samples of one place at several levels.
    let centre00 = uv0(bw as f32 / 2.0 + 0.5, bh as f32 / 2.0 + 0.5);
    let centre10 = uv0(bw as f32 * 1.5 + 0.5, bh as f32 / 2.0 + 0.5);
    let centre20 = uv0(bw as f32 * 2.5 + 0.5, bh as f32 / 2.0 + 0.5);
    p.point("tile (0,0)", centre00, 0);
    p.point("tile (1,0)", centre10, 0);
    p.point("tile (0,0) of level 1", centre00, 1);
    p.point("tile (2,0) of level 0", centre20, 0);
    p.point("under tile (2,0): tile (1,0) of level 1", centre20, 1);
    p.point("level 2", centre00, 2);
    p.point("mip tail", centre00, tail);

    // Bilinear samples at and near a tile edge of level 0.
    let row = bh as f32 / 2.0 + 0.5; // a row centre: no vertical blend
    p.bilinear("inside tile (0,0)", uv0(bw as f32 / 2.0, row), 0);
    p.bilinear(
        "straddling bound (0,0) | unbound (1,0)",
        uv0(bw as f32, row),
        0,
    );
    p.bilinear(
        "just inside bound (0,0), next to unbound (1,0)",
        uv0(bw as f32 - 1.0, row),
        0,
    );
    p.bilinear(
        "corner of (0,0), (1,0), (0,1), (1,1)",
        uv0(bw as f32, bh as f32),
        0,
    );

    // The clamp chooses the level.
    for clamp in [0, 1, 2, tail] {
        p.grad_clamp("at tile (0,0)", centre00, clamp, true);
    }
    p.grad_clamp("at tile (2,0)", centre20, 0, true);
    p.grad_clamp("at tile (2,0)", centre20, 1, true);
    p.grad_clamp("at unbound tile (1,0)", centre10, 0, true);
    p.grad_clamp("at unbound tile (1,0)", centre10, 1, true);
    p.grad_clamp("at tile (0,0)", centre00, 1, false);
    p.grad_clamp("at tile (0,0)", centre00, 2, false);

    // Gathers.
    p.gather_red("inside tile (0,0)", uv0(bw as f32 / 2.0, bh as f32 / 2.0));
    p.gather_red(
        "straddling bound (0,0) | unbound (1,0)",
        uv0(bw as f32, bh as f32 / 2.0),
    );
    p.gather_red(
        "inside unbound (1,0)",
        uv0(bw as f32 * 1.5, bh as f32 / 2.0),
    );
    p.gather_alpha4("inside tile (0,0)", uv0(bw as f32 / 2.0, bh as f32 / 2.0));
    p.gather_alpha4(
        "offset (7,0) reaches unbound (1,0)",
        uv0(bw as f32 - 4.0, bh as f32 / 2.0),
    );
    p.list
}

/// One probe's result: value, CheckAccessFullyMapped, residency code.
struct Read {
    value: [f32; 4],
    mapped: u32,
    status: u32,
}

fn reads(bytes: &[u8]) -> Vec<Read> {
    bytes
        .chunks_exact(32)
        .map(|c| {
            let f = |i: usize| f32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            let u = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            Read {
                value: [f(0), f(4), f(8), f(12)],
                mapped: u(16),
                status: u(20),
            }
        })
        .collect()
}

/// Prints the table and fails on any mismatch.
fn report(title: &str, probes: &[Probe], got: &[Read]) {
    let fmt = |v: [f32; 4]| format!("({:>5.3} {:>5.3} {:>5.3} {:>5.3})", v[0], v[1], v[2], v[3]);
    println!("\n{title}");
    println!(
        "{:>3}  {:<72} {:<29} {:<6} | {:<29} {:<6} {:<10} ",
        "#", "probe", "expected value", "mapped", "read value", "mapped", "status"
    );
    let mut bad = Vec::new();
    for (i, (p, r)) in probes.iter().zip(got).enumerate() {
        let value_ok = p
            .value
            .iter()
            .zip(r.value)
            .all(|(e, g)| (e - g).abs() <= p.tolerance);
        let ok = value_ok && p.mapped == r.mapped;
        println!(
            "{i:>3}  {:<72} {} {:<6} | {} {:<6} 0x{:08x} {}",
            p.what,
            fmt(p.value),
            p.mapped,
            fmt(r.value),
            r.mapped,
            r.status,
            if ok { "ok" } else { "MISMATCH" }
        );
        if !ok {
            bad.push(format!(
                "#{i} {}: expected {} mapped {}, read {} mapped {}",
                p.what,
                fmt(p.value),
                p.mapped,
                fmt(r.value),
                r.mapped
            ));
        }
    }
    assert_eq!(got.len(), probes.len(), "one result per probe");
    assert!(
        bad.is_empty(),
        "{title}: {} of {} probes differ:\n{}",
        bad.len(),
        probes.len(),
        bad.join("\n")
    );
}

/// The runner, or a failure saying why this device cannot run the test.
fn sparse_runner() -> std::sync::Arc<vk::Runner> {
    let runner = vk::shared();
    println!("{}", runner.info().report());
    if let Err(e) = runner.sparse_support() {
        panic!(
            "{e}.\nThis test needs a GPU with sparse residency: run it with --ignored on the NVIDIA machine (HLSLC_VK_DEVICE=NVIDIA)."
        );
    }
    runner
}

fn sampler(filter: ashvk::Filter) -> SamplerDesc {
    SamplerDesc {
        filter,
        mipmap_mode: ashvk::SamplerMipmapMode::NEAREST,
        ..SamplerDesc::default()
    }
}

#[test]
#[ignore = "needs a GPU with sparse residency (run with --ignored on the H200; see doc comment)"]
fn sparse_texture_reads_on_gpu() {
    let runner = sparse_runner();
    let info = runner.info();
    assert!(
        vk::on(info.features.shader_image_gather_extended),
        "the four-offset gather needs shaderImageGatherExtended"
    );
    let limits = &info.properties.limits;
    assert!(
        limits.min_texel_gather_offset <= -8 && limits.max_texel_gather_offset >= 7,
        "gather offsets -8..7 are outside the device's range"
    );
    let desc = texture_desc();
    let layout = runner
        .sparse_layout(&desc, false)
        .unwrap_or_else(|e| panic!("{e}"));
    println!("layout of the test image: {layout:?}");
    // The plan needs 2x2 tiles at level 0, two at level 1, and level 2
    // before the mip tail.
    assert!(
        layout.tiles(0).is_some_and(|[x, y]| x >= 3 && y >= 2)
            && layout.tiles(1).is_some_and(|[x, _]| x >= 2)
            && layout.mip_tail_first_lod >= 3,
        "the device's sparse blocks are too large for this test's plan: {layout:?}"
    );
    let bound = bound_tiles(&layout);
    let model = Model {
        layout: &layout,
        bound: bound.iter().copied().collect(),
        mip_tail_bound: true,
    };
    let probes = texture_probes(&model);
    let words = compile_in_process(PROBES_HLSL);
    let probe_bytes: Vec<u8> = probes.iter().flat_map(Probe::bytes).collect();
    let mut res = vec![
        Resource::sparse_image(
            0,
            0,
            SparseImage {
                image: desc,
                storage: false,
                bound,
                bind_mip_tail: true,
            },
            model.image_data(),
        ),
        Resource::sampler(0, 1, sampler(ashvk::Filter::NEAREST)),
        Resource::sampler(0, 2, sampler(ashvk::Filter::LINEAR)),
        Resource::storage(0, 3, probe_bytes),
        Resource::storage(0, 4, vec![0xcd; 32 * probes.len()]),
    ];
    let groups = (probes.len() as u32).div_ceil(64);
    if let Err(e) = runner.run_compute(&words, "main", &mut res, &[], [groups, 1, 1]) {
        panic!("the dispatch failed: {e}");
    }
    report(
        "sparse Texture2D reads (R8G8B8A8_UNORM 512x512, 10 levels)",
        &probes,
        &reads(&res[4].data),
    );
}

#[test]
#[ignore = "needs a GPU with sparse residency (run with --ignored on the H200; see doc comment)"]
fn sparse_storage_image_reads_on_gpu() {
    let runner = sparse_runner();
    let desc = ImageDesc::d2(ashvk::Format::R8G8B8A8_UNORM, 512, 512);
    let layout = runner
        .sparse_layout(&desc, true)
        .unwrap_or_else(|e| panic!("{e}"));
    println!("layout of the storage image: {layout:?}");
    let [tx, ty] = layout
        .tiles(0)
        .unwrap_or_else(|| panic!("a 512x512 image entirely in the mip tail: {layout:?}"));
    assert!(tx >= 2, "one tile across: {layout:?}");
    let bound: Vec<Tile> = layout
        .all_tiles()
        .into_iter()
        .filter(|t| (t.x + t.y) % 2 == 0)
        .collect();
    let model = Model {
        layout: &layout,
        bound: bound.iter().copied().collect(),
        mip_tail_bound: false,
    };
    let (bw, bh) = (layout.block[0], layout.block[1]);
    let mut texels = Vec::new();
    for y in 0..ty {
        for x in 0..tx {
            texels.push((format!("tile ({x},{y})"), x * bw + bw / 2, y * bh + bh / 2));
        }
    }
    texels.push(("last texel of bound (0,0)".into(), bw - 1, bh / 2));
    texels.push(("first texel of unbound (1,0)".into(), bw, bh / 2));
    let probes: Vec<Probe> = texels
        .iter()
        .map(|(what, x, y)| Probe {
            value: model.texel(0, *x, *y),
            mapped: u32::from(model.resident(0, *x, *y)),
            ..Probes::base(format!("RWTexture2D.Load ({x},{y}) {what}"), 0)
        })
        .collect();
    let where_bytes: Vec<u8> = texels
        .iter()
        .flat_map(|(_, x, y)| [*x as i32, *y as i32])
        .flat_map(i32::to_le_bytes)
        .collect();
    let words = compile_in_process(STORAGE_PROBES_HLSL);
    let mut res = vec![
        Resource::sparse_image(
            0,
            0,
            SparseImage {
                image: desc,
                storage: true,
                bound,
                bind_mip_tail: false,
            },
            model.image_data(),
        ),
        Resource::storage(0, 1, where_bytes),
        Resource::storage(0, 2, vec![0xcd; 32 * probes.len()]),
    ];
    let groups = (probes.len() as u32).div_ceil(64);
    if let Err(e) = runner.run_compute(&words, "main", &mut res, &[], [groups, 1, 1]) {
        panic!("the dispatch failed: {e}");
    }
    report(
        "sparse RWTexture2D reads (R8G8B8A8_UNORM 512x512)",
        &probes,
        &reads(&res[2].data),
    );
}

#[test]
#[ignore = "needs a GPU with sparse residency (run with --ignored on the H200; see doc comment)"]
fn sparse_layout_on_gpu() {
    let runner = sparse_runner();
    let big = ImageDesc {
        mip_levels: 11,
        ..ImageDesc::d2(ashvk::Format::R8G8B8A8_UNORM, 1024, 1024)
    };
    let layout = runner
        .sparse_layout(&big, false)
        .unwrap_or_else(|e| panic!("{e}"));
    println!("R8G8B8A8_UNORM 1024x1024, 11 levels: {layout:?}");
    println!(
        "mip tail from level {} ({} bytes at {})",
        layout.mip_tail_first_lod, layout.mip_tail_size, layout.mip_tail_offset
    );
    if vk::on(
        runner
            .info()
            .properties
            .sparse_properties
            .residency_standard2_d_block_shape,
    ) {
        // Vulkan "Standard Sparse Image Block Shapes": 32-bit texels make
        // 128x128x1 blocks of 64 KiB.
        assert_eq!(layout.block, [128, 128, 1]);
        assert_eq!(layout.block_bytes, 65536);
    }
    // Levels before the tail are at least one block.
    for mip in 0..layout.mip_tail_first_lod {
        let [w, h, _] = layout.mip_extent(mip);
        assert!(w >= layout.block[0] && h >= layout.block[1], "{layout:?}");
    }
    assert!(
        layout.has_mip_tail(),
        "64x64 and smaller levels form a tail"
    );
}

/// The runner reads sparse support from the feature bits: lavapipe has
/// none (and says "OK" when asked to make a sparse image anyway), so the
/// runner refuses both the layout query and a dispatch with a sparse image,
/// naming what is missing.
#[test]
fn sparse_support_comes_from_the_feature_bits() {
    let runner = vk::shared();
    let info = runner.info();
    let support = runner.sparse_support();
    println!("{}: {support:?}", info.name);
    if info.is_lavapipe() {
        let e = support.expect_err("lavapipe has no sparse residency");
        for name in [
            "sparseBinding",
            "sparseResidencyImage2D",
            "shaderResourceResidency",
            "shaderResourceMinLod",
        ] {
            assert!(e.contains(name), "`{e}` names {name}");
        }
        let layout = runner.sparse_layout(&texture_desc(), false);
        assert!(layout.is_err(), "no layout without support: {layout:?}");
        // A dispatch with a sparse image fails before any object is made.
        let words = compile_in_process(STORAGE_PROBES_HLSL);
        let desc = ImageDesc::d2(ashvk::Format::R8G8B8A8_UNORM, 512, 512);
        let bytes = desc.total_bytes().unwrap_or(0) as usize;
        let mut res = vec![
            Resource::sparse_image(
                0,
                0,
                SparseImage {
                    image: desc,
                    storage: true,
                    bound: vec![Tile::new(0, 0, 0)],
                    bind_mip_tail: false,
                },
                vec![0; bytes],
            ),
            Resource::storage(0, 1, vec![0; 8]),
            Resource::storage(0, 2, vec![0; 32]),
        ];
        let before = runner.live_objects();
        let e = runner
            .run_compute(&words, "main", &mut res, &[], [1, 1, 1])
            .expect_err("no sparse dispatch on lavapipe");
        assert!(e.contains("no sparse residency"), "{e}");
        assert_eq!(
            runner.live_objects(),
            before,
            "nothing made, nothing leaked"
        );
    } else if info.is_nvidia() {
        // VULKAN-NOTES.md: the H200 has all of it.
        support.unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The probe shaders the GPU runs are valid SPIR-V and use the sparse
/// instructions the tests mean to exercise.
#[test]
fn probe_shaders_are_valid() {
    use spirv::{ImageOperands as IO, Op};
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let spv = compile(PROBES_HLSL, "cs_6_0", env);
        assert_eq!(spv.all(Op::ImageSparseFetch).len(), 1);
        assert_eq!(spv.all(Op::ImageSparseSampleExplicitLod).len(), 3);
        assert_eq!(spv.all(Op::ImageSparseGather).len(), 2);
        assert_eq!(spv.all(Op::ImageSparseTexelsResident).len(), 6);
        let four = spv
            .all(Op::ImageSparseGather)
            .into_iter()
            .filter(|g| image_operands(g).0 == IO::CONST_OFFSETS)
            .count();
        assert_eq!(four, 1, "the four-offset gather is one ConstOffsets gather");
        let dense = spv.all(Op::ImageSampleExplicitLod);
        assert_eq!(dense.len(), 1);
        assert!(image_operands(dense[0]).0.contains(IO::MIN_LOD));
        let spv = compile(STORAGE_PROBES_HLSL, "cs_6_0", env);
        assert_eq!(spv.all(Op::ImageSparseRead).len(), 1);
    }
}

// --- the tile arithmetic, without a device ---------------------------------

/// What VULKAN-NOTES.md says the H200 reports for a 1024x1024 RGBA8 image
/// with 11 levels: 128x128 blocks of 64 KiB, the mip tail from level 4.
fn nvidia_like_layout() -> SparseLayout {
    SparseLayout {
        extent: [1024, 1024, 1],
        mip_levels: 11,
        block: [128, 128, 1],
        block_bytes: 65536,
        mip_tail_first_lod: 4,
        mip_tail_size: 65536,
        mip_tail_offset: 85 * 65536,
        metadata: None,
        memory_type_bits: 1,
    }
}

#[test]
fn tiles_of_each_level() {
    let l = nvidia_like_layout();
    assert_eq!(l.tiles(0), Some([8, 8]));
    assert_eq!(l.tiles(1), Some([4, 4]));
    assert_eq!(l.tiles(3), Some([1, 1]));
    assert_eq!(l.tiles(4), None, "level 4 is in the mip tail");
    assert_eq!(l.tiles(11), None);
    assert_eq!(l.all_tiles().len(), 64 + 16 + 4 + 1);
    assert_eq!(l.tile_at(0, 130, 5), Some(Tile::new(0, 1, 0)));
    assert_eq!(l.tile_at(0, 127, 128), Some(Tile::new(0, 0, 1)));
    assert_eq!(l.tile_at(2, 255, 255), Some(Tile::new(2, 1, 1)));
    assert_eq!(l.tile_at(4, 0, 0), None, "mip tail");
    assert_eq!(l.tile_at(0, 1024, 0), None, "outside");
    assert!(l.has_mip_tail() && l.in_mip_tail(4) && !l.in_mip_tail(3));
}

#[test]
fn regions_are_whole_blocks_clipped_at_the_edge() {
    let l = nvidia_like_layout();
    assert_eq!(
        l.region(Tile::new(0, 7, 2)),
        Ok(([896, 256, 0], [128, 128, 1]))
    );
    // 600x300: the last column and row of tiles reach the edge.
    let odd = SparseLayout {
        extent: [600, 300, 1],
        mip_levels: 1,
        mip_tail_first_lod: 1,
        ..nvidia_like_layout()
    };
    assert_eq!(odd.tiles(0), Some([5, 3]));
    assert_eq!(
        odd.region(Tile::new(0, 4, 2)),
        Ok(([512, 256, 0], [88, 44, 1]))
    );
    assert!(!odd.has_mip_tail());
    assert!(odd.region(Tile::new(0, 5, 0)).is_err(), "outside the grid");
    assert!(l.region(Tile::new(4, 0, 0)).is_err(), "in the mip tail");
}

#[test]
fn bind_plan_gives_each_block_its_own_memory() {
    let l = nvidia_like_layout();
    let tiles = [Tile::new(0, 0, 0), Tile::new(0, 7, 7), Tile::new(1, 1, 0)];
    let plan = l.plan(&tiles, true).unwrap_or_else(|e| panic!("{e}"));
    let offsets: Vec<u64> = plan.tiles.iter().map(|t| t.3).collect();
    assert_eq!(offsets, [0, 65536, 131072]);
    assert_eq!(plan.tiles[2].1, [128, 0, 0]);
    assert_eq!(plan.mip_tail, Some((85 * 65536, 65536, 3 * 65536)));
    assert_eq!(plan.metadata, None);
    assert_eq!(plan.size, 4 * 65536);
    // Without the tail, or without a tail to bind.
    assert_eq!(l.plan(&tiles, false).map(|p| p.size), Ok(3 * 65536));
    // A metadata mip tail comes last, with its own memory.
    let meta = SparseLayout {
        metadata: Some((1 << 30, 65536)),
        ..nvidia_like_layout()
    };
    let plan = meta.plan(&[], true).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(plan.metadata, Some((1 << 30, 65536, 65536)));
    assert_eq!(plan.size, 2 * 65536);
    // Mistakes are errors.
    assert!(
        l.plan(&[Tile::new(0, 0, 0), Tile::new(0, 0, 0)], false)
            .is_err()
    );
    assert!(l.plan(&[Tile::new(0, 8, 0)], false).is_err());
    assert!(l.plan(&[Tile::new(5, 0, 0)], false).is_err());
}

#[test]
fn upload_regions_copy_bound_tiles_and_the_tail() {
    let l = nvidia_like_layout();
    let plan = l
        .plan(&[Tile::new(0, 1, 1), Tile::new(2, 1, 0)], true)
        .unwrap_or_else(|e| panic!("{e}"));
    // Levels packed one after another, 4 bytes a texel.
    let mut offsets = Vec::new();
    let mut at = 0u64;
    for mip in 0..l.mip_levels {
        offsets.push(at);
        let [w, h, _] = l.mip_extent(mip);
        at += u64::from(w * h * 4).next_multiple_of(16);
    }
    let r = l.upload_regions(&plan, 4, &offsets);
    assert_eq!(r.len(), 2 + 7, "two tiles, then levels 4..=10");
    assert_eq!(r[0].buffer_offset, (128 * 1024 + 128) * 4);
    assert_eq!(r[0].buffer_row_length, 1024);
    assert_eq!(r[0].buffer_image_height, 1024);
    assert_eq!((r[0].image_offset.x, r[0].image_offset.y), (128, 128));
    assert_eq!(r[0].image_extent.width, 128);
    assert_eq!(r[1].buffer_offset, offsets[2] + 128 * 4);
    assert_eq!(r[1].buffer_row_length, 256);
    assert_eq!(r[1].image_subresource.mip_level, 2);
    for (k, region) in r[2..].iter().enumerate() {
        let mip = 4 + k as u32;
        assert_eq!(region.image_subresource.mip_level, mip);
        assert_eq!(region.buffer_offset, offsets[mip as usize]);
        assert_eq!(region.image_extent.width, (1024 >> mip).max(1));
    }
}

/// The expectations of the GPU test, on a 512x512 layout like the H200's:
/// the straddling sample is half the colour and not fully mapped, the
/// clamp to level 2 reads zeros, and every probe is unambiguous.
#[test]
fn texture_probe_expectations() {
    let layout = SparseLayout {
        extent: [512, 512, 1],
        mip_levels: 10,
        mip_tail_first_lod: 3,
        ..nvidia_like_layout()
    };
    let bound = bound_tiles(&layout);
    assert_eq!(
        bound.len(),
        8 + 1,
        "checkerboard of 4x4, and one of level 1"
    );
    let model = Model {
        layout: &layout,
        bound: bound.iter().copied().collect(),
        mip_tail_bound: true,
    };
    assert_eq!(
        model.image_data().len(),
        texture_desc().total_bytes().unwrap_or(0) as usize
    );
    let probes = texture_probes(&model);
    let find = |needle: &str| {
        probes
            .iter()
            .find(|p| p.what.contains(needle))
            .unwrap_or_else(|| panic!("no probe `{needle}`"))
    };
    let c00 = colour(0, Some(Tile::new(0, 0, 0))).map(|b| f32::from(b) / 255.0);
    let straddle = find("SampleLevel bilinear lod 0 at (127+0.5,64+0) straddling");
    assert_eq!(straddle.mapped, 0);
    for (v, c) in straddle.value.iter().zip(c00) {
        assert!((v - c / 2.0).abs() < 1e-6);
    }
    assert_eq!(find("just inside bound").mapped, 1);
    let corner = find("corner of");
    assert_eq!(corner.mapped, 0);
    assert!(
        (corner.value[3] - 0.5).abs() < 1e-6,
        "two of four texels bound"
    );
    let clamp2 = find("SampleGrad clamp 2 -> L2");
    assert_eq!((clamp2.value, clamp2.mapped), ([0.0; 4], 0));
    let clamp1 = find("SampleGrad clamp 1 -> L1 (96,32) at unbound tile (1,0)");
    assert_eq!(clamp1.mapped, 1, "level 1 tile (0,0) covers it");
    let gather = find("GatherRed at (127,63) straddling");
    assert_eq!(gather.mapped, 0);
    assert_eq!(gather.value[1], 0.0);
    assert_eq!(gather.value[0], c00[0]);
    let four = find("GatherAlpha 4 offsets at (123,63)");
    assert_eq!((four.value, four.mapped), ([1.0, 0.0, 1.0, 1.0], 0));
    let loads = probes.iter().filter(|p| p.op == 0).count();
    assert_eq!(loads, 16 + 7);
    assert!(probes.len() < 64 * 4);
}
