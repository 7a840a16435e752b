//! `volkhv-nnue`: trains a variant's evaluation network on `volkhv
//! datagen` files and writes it in the layout `eval/params/<variant>.nnue`
//! embeds (see `tuner::nnue`, `docs/tuning.md` and `docs/networks.md`). The
//! network is a correction added to the hand-written evaluation, as the
//! engine uses it. `volkhv-nnue convert IN OUT` turns a data file from
//! text to binary or back.

use eval::nets::Features;
use movegen::{with_variant, Variant};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tuner::nnue::{self, Sample, Schedule, Settings, Trainer};

const USAGE: &str = "\
usage: volkhv-nnue [--variant V] --data FILE [--data FILE ...] --out FILE [options]
       volkhv-nnue convert IN OUT [--variant V]
  --variant V      chess (default), plunder or tavreli: the network trained
  --data FILE      a `volkhv datagen` file of that variant, text or binary
                   (repeatable)
  --out FILE       the network written after every epoch
                   (e.g. eval/params/<variant>.nnue; rebuild to use it)
  --epochs N       passes over the data (default 2)
  --lr X           Adam step size (default 0.001)
  --schedule S     how it moves: step (the default: cut to a tenth for the
                   last quarter of the epochs) or cosine (a linear warm-up,
                   then half a cosine down to 1 % at the last step)
  --warmup N       warm-up steps of the cosine schedule (default 200)
  --checkpoints D  also keep each epoch's network as D/epoch-NNN.nnue and
                   its losses as a line of D/losses.tsv
  --lambda X       weight of the search score in the target, 0..1 (default 1)
  --k X            scaling constant (default: fitted to the results with
                   the hand-written evaluation)
  --batch N        positions per step (default 4096)
  --holdout P      keep P% of the positions (whole blocks of 64) out of
                   the fit and print their loss (default 5)
  --wd X           decoupled weight decay (AdamW; default 0.1)
  --valid FILE     held-out positions from this file instead of --holdout
  --mirror         add every position mirrored left to right
  --threads T      worker threads (default: all cores)
  --limit N        read at most N positions
  --seed S         initial weights and shuffles (default 1)
  --hidden N       hidden units per view, up to 512 (default 64; the
                   engine reads the width its file has)
  --init FILE      start from this network (e.g. the one in use) instead of
                   random weights: its width, its held-out loss printed
                   first; a wider --hidden widens it (the new units start
                   silent, so it evaluates as before), a narrower is refused";

struct Args {
    variant: Variant,
    data: Vec<PathBuf>,
    out: PathBuf,
    epochs: u32,
    lr: f32,
    schedule: String,
    warmup: u64,
    checkpoints: Option<PathBuf>,
    lambda: f32,
    k: Option<f32>,
    batch: usize,
    holdout: usize,
    mirror: bool,
    wd: f32,
    valid: Option<PathBuf>,
    threads: usize,
    limit: Option<usize>,
    seed: u64,
    hidden: Option<usize>,
    init: Option<PathBuf>,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        variant: Variant::DEFAULT,
        data: Vec::new(),
        out: PathBuf::new(),
        epochs: 2,
        lr: 0.001,
        schedule: "step".to_string(),
        warmup: 200,
        checkpoints: None,
        lambda: 1.0,
        k: None,
        batch: 4096,
        holdout: 5,
        mirror: false,
        wd: 0.1,
        valid: None,
        threads: 0,
        limit: None,
        seed: 1,
        hidden: None,
        init: None,
    };
    fn num<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
        let v = v.ok_or(format!("{flag} needs a value"))?;
        v.parse().map_err(|_| format!("{flag}: bad value {v:?}"))
    }
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--variant" => a.variant = variant(it.next())?,
            "--data" => a.data.push(num::<String>(&flag, it.next())?.into()),
            "--out" => a.out = num::<String>(&flag, it.next())?.into(),
            "--epochs" => a.epochs = num(&flag, it.next())?,
            "--lr" => a.lr = num(&flag, it.next())?,
            "--schedule" => a.schedule = num(&flag, it.next())?,
            "--warmup" => a.warmup = num(&flag, it.next())?,
            "--checkpoints" => a.checkpoints = Some(num::<String>(&flag, it.next())?.into()),
            "--lambda" => a.lambda = num(&flag, it.next())?,
            "--k" => a.k = Some(num(&flag, it.next())?),
            "--batch" => a.batch = num(&flag, it.next())?,
            "--holdout" => a.holdout = num(&flag, it.next())?,
            "--mirror" => a.mirror = true,
            "--wd" => a.wd = num(&flag, it.next())?,
            "--valid" => a.valid = Some(num::<String>(&flag, it.next())?.into()),
            "--threads" => a.threads = num(&flag, it.next())?,
            "--limit" => a.limit = Some(num(&flag, it.next())?),
            "--seed" => a.seed = num(&flag, it.next())?,
            "--hidden" => a.hidden = Some(num(&flag, it.next())?),
            "--init" => a.init = Some(num::<String>(&flag, it.next())?.into()),
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if a.data.is_empty() || a.out.as_os_str().is_empty() {
        return Err("--data and --out are required".to_string());
    }
    if !(0.0..=1.0).contains(&a.lambda) || a.holdout > 50 || a.batch == 0 || a.epochs == 0 {
        return Err("--lambda is 0..1, --holdout 0..50, --batch and --epochs above 0".into());
    }
    if !matches!(a.schedule.as_str(), "step" | "cosine") {
        return Err(format!(
            "--schedule is step or cosine, not {:?}",
            a.schedule
        ));
    }
    if a.hidden
        .is_some_and(|h| !(1..=nnue::MAX_HIDDEN).contains(&h))
    {
        return Err(format!("--hidden is 1..={}", nnue::MAX_HIDDEN));
    }
    Ok(a)
}

fn variant(name: Option<String>) -> Result<Variant, String> {
    let name = name.ok_or("--variant needs a value")?;
    Variant::from_name(&name)
        .ok_or_else(|| format!("--variant \"{name}\" is not one of {}", Variant::list()))
}

/// `convert IN OUT [--variant V]`: text to binary or binary to text, by
/// IN's first bytes.
fn convert(rest: &[String]) -> Result<String, (u8, String)> {
    let usage = |e: String| (2, e);
    let (input, output, named) = match rest {
        [i, o] => (i, o, None),
        [i, o, flag, v] if flag == "--variant" => {
            (i, o, Some(variant(Some(v.clone())).map_err(usage)?))
        }
        _ => return Err(usage("convert takes IN OUT [--variant V]".to_string())),
    };
    let failed = |e: String| (1, e);
    let bytes = std::fs::read(input).map_err(|e| failed(format!("cannot read {input}: {e}")))?;
    let (out, note) = if records::binary::is_binary(&bytes) {
        let text =
            records::binary::binary_to_text(&bytes).map_err(|e| failed(format!("{input}: {e}")))?;
        (text.into_bytes(), "binary to text".to_string())
    } else {
        let text = String::from_utf8(bytes)
            .map_err(|_| failed(format!("{input} is neither text nor binary data")))?;
        let (out, dropped) = records::binary::text_to_binary(&text, named)
            .map_err(|e| failed(format!("{input}: {e}")))?;
        (
            out,
            format!("text to binary ({dropped} later comment lines left out)"),
        )
    };
    std::fs::write(output, out).map_err(|e| failed(format!("cannot write {output}: {e}")))?;
    Ok(note)
}

fn main() -> ExitCode {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().is_some_and(|a| a == "convert") {
        return match convert(&all[1..]) {
            Ok(note) => {
                println!("volkhv-nnue: converted {note}");
                ExitCode::SUCCESS
            }
            Err((code, e)) => {
                eprintln!("volkhv-nnue: {e}");
                ExitCode::from(code)
            }
        };
    }
    let args = match parse_args(all.into_iter()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("volkhv-nnue: {e}");
            return ExitCode::from(2);
        }
    };
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global();
    }
    match with_variant!(args.variant, P => run::<P>(&args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("volkhv-nnue: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run<P: Features>(args: &Args) -> Result<(), String> {
    let start = Instant::now();
    let all = nnue::load::<P>(&args.data, args.limit)?;
    let (mut train, held): (Vec<Sample>, Vec<Sample>) = if let Some(valid) = &args.valid {
        (all, nnue::load::<P>(std::slice::from_ref(valid), None)?)
    } else if let Some(every) = 100usize.checked_div(args.holdout) {
        let (t, h): (Vec<_>, Vec<_>) = all
            .into_iter()
            .enumerate()
            .partition(|(i, _)| (i / 64) % every != 0);
        (
            t.into_iter().map(|(_, s)| s).collect(),
            h.into_iter().map(|(_, s)| s).collect(),
        )
    } else {
        (all, Vec::new())
    };
    // The hold-out takes whole blocks of 64: a small file can be held out
    // whole, and a run with nothing to fit would write an untrained network.
    if train.is_empty() {
        return Err(format!(
            "no training positions: all {} were held out (--holdout takes whole blocks of 64)",
            held.len()
        ));
    }
    if args.mirror {
        let mirrored: Vec<Sample> = train.iter().map(Sample::mirrored::<P>).collect();
        train.extend(mirrored);
    }
    let k = args.k.unwrap_or_else(|| nnue::fit_k(&train));
    println!(
        "{}: {} training positions, {} held out, K = {k:.3}, loaded in {:.1} s",
        args.variant,
        train.len(),
        held.len(),
        start.elapsed().as_secs_f64()
    );
    if !held.is_empty() {
        println!(
            "hand-written evaluation: held-out loss {:.6} (results alone {:.6})",
            nnue::hce_loss(&held, k, args.lambda),
            nnue::hce_loss(&held, k, 0.0)
        );
    }
    let settings = Settings {
        k,
        lambda: args.lambda,
        lr: args.lr,
        batch: args.batch,
        seed: args.seed,
        residual: true,
        weight_decay: args.wd,
    };
    let mut trainer = match &args.init {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let mut t = Trainer::from_bytes::<P>(settings, &bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            match args.hidden {
                Some(h) if h < t.hidden() => {
                    return Err(format!(
                        "--hidden {h} but {} has {} hidden units: a network can be widened, not narrowed",
                        path.display(),
                        t.hidden()
                    ));
                }
                Some(h) if h > t.hidden() => {
                    println!(
                        "widened from {} to {h} hidden units (the new ones start silent: the same evaluation)",
                        t.hidden()
                    );
                    t = t.widened::<P>(h);
                }
                _ => {}
            }
            if !held.is_empty() {
                println!(
                    "start network {}: held-out loss {:.6} (results alone {:.6})",
                    path.display(),
                    t.loss(&held, args.lambda),
                    t.loss(&held, 0.0)
                );
            }
            t
        }
        None => Trainer::with_width::<P>(settings, args.hidden.unwrap_or(P::HIDDEN)),
    };
    let cosine = args.schedule == "cosine";
    if cosine {
        let total = train.len().div_ceil(args.batch) as u64 * u64::from(args.epochs);
        trainer.set_schedule(Schedule::Cosine {
            warmup: args.warmup,
            total,
        });
    }
    if let Some(dir) = &args.checkpoints {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        checkpoint_line(dir, "epoch\tlr\ttrain\theld_out\theld_out_results\n")?;
    }
    for epoch in 1..=args.epochs {
        if !cosine && epoch > args.epochs * 3 / 4 {
            trainer.set_lr(args.lr / 10.0);
        }
        let lr = trainer.current_lr();
        let loss = trainer.epoch(&train);
        // The held-out losses against the training target and the results.
        let held_losses = (!held.is_empty())
            .then(|| (trainer.loss(&held, args.lambda), trainer.loss(&held, 0.0)));
        let held_loss = held_losses.map_or(String::new(), |(target, results)| {
            format!(", held-out {target:.6} (results alone {results:.6})")
        });
        let bytes = trainer.to_bytes();
        std::fs::write(&args.out, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
        if let Some(dir) = &args.checkpoints {
            let net = dir.join(format!("epoch-{epoch:03}.nnue"));
            std::fs::write(&net, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", net.display()))?;
            let (target, results) = held_losses.unwrap_or((f64::NAN, f64::NAN));
            checkpoint_line(
                dir,
                &format!("{epoch}\t{lr:.6}\t{loss:.6}\t{target:.6}\t{results:.6}\n"),
            )?;
        }
        println!(
            "epoch {epoch:3}: loss {loss:.6}{held_loss} ({:.0} s)",
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Appends `line` to the checkpoints' `losses.tsv`.
fn checkpoint_line(dir: &std::path::Path, line: &str) -> Result<(), String> {
    use std::io::Write;
    let path = dir.join("losses.tsv");
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
