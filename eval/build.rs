//! Picks the chess network to embed: `VOLKHV_EVALFILE` (set by the root
//! Makefile from OpenBench's `EVALFILE=`) or `params/chess.nnue`. The path
//! reaches `nnue.rs` as `VOLKHV_NET`; its layout is checked at compile time
//! there, so a wrong file fails the build instead of the first evaluation.

use std::env;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    println!("cargo:rerun-if-env-changed=VOLKHV_EVALFILE");
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let net = match env::var_os("VOLKHV_EVALFILE") {
        Some(p) if !p.is_empty() => resolve(&manifest, Path::new(&p)),
        _ => manifest.join("params").join("chess.nnue"),
    };
    if !net.is_file() {
        eprintln!(
            "eval: network file {} does not exist (VOLKHV_EVALFILE / EVALFILE)",
            net.display()
        );
        return ExitCode::FAILURE;
    }
    println!("cargo:rerun-if-changed={}", net.display());
    println!("cargo:rustc-env=VOLKHV_NET={}", net.display());
    ExitCode::SUCCESS
}

/// A relative path names a file under the workspace root (the directory
/// above this crate), where `make` runs.
fn resolve(manifest: &Path, p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        manifest.parent().unwrap_or(manifest).join(p)
    }
}
