//! The annotator's release build (the `split` feature, scripts/post_build.py) links `juror-app`
//! with its relocations kept: `wasm-split-cli` needs them to move the later pages
//! (src/boot/later.rs) into a wasm of their own.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    if split && wasm {
        println!("cargo::rustc-link-arg-bin=juror-app=--emit-relocs");
    }
}
