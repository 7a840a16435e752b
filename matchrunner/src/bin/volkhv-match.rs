//! `volkhv-match ARGS…`: the same as `volkhv match ARGS…`, for running
//! matches before (or without) the engine binary.

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    matchrunner::run_cli(&args)
}
