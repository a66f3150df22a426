//! Any bytes, read as the CLI reads a file (lossy UTF-8), through the
//! preprocessor alone (`-P`) and through preprocess + parse
//! (`-fsyntax-only`); the diagnostics are rendered in every format.
#![no_main]

mod common;

use hlslc::Options;
use hlslc::options::Profile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (loader, path) = common::loader(String::from_utf8_lossy(data).into_owned());
    let options = Options {
        profile: Profile::parse("cs_6_0"),
        // Nothing here reaches the IR yet; should it, it is checked.
        verify_ir: true,
        ..Options::default()
    };
    let (_text, c) = hlslc::preprocess_to_string(&path, &loader, &options);
    common::render(&c);
    let c = hlslc::check_syntax(&path, &loader, &options);
    common::render(&c);
});
