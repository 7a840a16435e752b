//! `volkhv-tune`: fits a variant's evaluation weights to `volkhv datagen`
//! data and writes the weight table file (see the library docs and
//! `docs/tuning.md`).

use eval::weights::Table;
use eval::Traceable;
use movegen::Variant;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tuner::{Dataset, Settings, Tuner};

const USAGE: &str = "\
usage: volkhv-tune wdl --variant V FILE [FILE ...]   (see `volkhv-tune wdl --help`)
       volkhv-tune --variant V --data FILE [--data FILE ...] --out FILE [options]
  --variant V      chess, plunder or tavreli
  --data FILE      a `volkhv datagen` file (repeatable)
  --out FILE       the weight table written (every 50 epochs and at the end),
                   e.g. eval/params/chess.txt; rebuild to use it
  --epochs N       full-batch Adam steps (default 300)
  --lr X           Adam step size in centipawns (default 1.0)
  --lambda X       weight of the search score in the target, 0..1 (default 0)
  --k X            scaling constant (default: fitted to the results first)
  --l2 X           pull towards the start table: X times the mean squared
                   change of the tuned parameters is added to the loss
                   (default 0; keeps weights the data barely see in place)
  --threads T      worker threads (default: all cores)
  --limit N        read at most N positions
  --holdout P      keep P% of the positions (0..50, default 0) out of the fit
                   and print their loss per epoch, to see overfitting
  --only F,G       tune only these fields (e.g. material,mobility)
  --freeze F,G     keep these fields as they are
  --init FILE      start from this table file instead of the compiled-in one";

/// The command line, checked.
struct Args {
    variant: Variant,
    data: Vec<PathBuf>,
    out: PathBuf,
    epochs: u32,
    threads: usize,
    limit: Option<usize>,
    holdout: u32,
    init: Option<PathBuf>,
    settings: Settings,
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag} expects a number, got \"{v}\""))
}

fn fields(v: &str) -> Vec<String> {
    v.split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

fn parse(args: &[String]) -> Result<Args, String> {
    let (mut variant, mut out, mut init) = (None, None, None);
    let mut data = Vec::new();
    let (mut epochs, mut threads, mut limit, mut holdout) = (300, 0, None, 0);
    let mut settings = Settings::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value (or is unknown)"))?;
        match flag.as_str() {
            "--variant" => {
                variant = Some(Variant::from_name(value).ok_or_else(|| {
                    format!("--variant \"{value}\" is not one of chess, plunder, tavreli")
                })?);
            }
            "--data" => data.push(PathBuf::from(value)),
            "--out" => out = Some(PathBuf::from(value)),
            "--init" => init = Some(PathBuf::from(value)),
            "--epochs" => epochs = number(flag, value)?,
            "--threads" => threads = number(flag, value)?,
            "--limit" => limit = Some(number(flag, value)?),
            "--holdout" => holdout = number(flag, value)?,
            "--lr" => settings.lr = number(flag, value)?,
            "--lambda" => settings.lambda = number(flag, value)?,
            "--k" => settings.k = Some(number(flag, value)?),
            "--l2" => settings.l2 = number(flag, value)?,
            "--only" => settings.only = fields(value),
            "--freeze" => settings.freeze = fields(value),
            _ => return Err(format!("unknown argument \"{flag}\"")),
        }
    }
    if !(0.0..=1.0).contains(&settings.lambda) {
        return Err(format!("--lambda {} is not in 0..1", settings.lambda));
    }
    if !(settings.l2 >= 0.0 && settings.l2.is_finite()) {
        return Err(format!("--l2 {} is not a finite number >= 0", settings.l2));
    }
    let positive = |x: f64| x > 0.0 && x.is_finite();
    if !positive(settings.lr) || settings.k.is_some_and(|k| !positive(k)) {
        return Err("--lr and --k must be positive".to_string());
    }
    if data.is_empty() {
        return Err("--data is required".to_string());
    }
    if holdout > 50 {
        return Err(format!("--holdout {holdout} is not in 0..50"));
    }
    Ok(Args {
        variant: variant.ok_or("--variant is required")?,
        out: out.ok_or("--out is required")?,
        data,
        epochs,
        threads,
        limit,
        holdout,
        init,
        settings,
    })
}

/// Names not among the table's fields are an error, not a silent no-op.
fn check_fields<T: Table>(names: &[String]) -> Result<(), String> {
    for n in names {
        if !T::LAYOUT.iter().any(|f| f.name == n) {
            let all: Vec<&str> = T::LAYOUT.iter().map(|f| f.name).collect();
            return Err(format!("no field \"{n}\" (fields: {})", all.join(", ")));
        }
    }
    Ok(())
}

fn write_table<P: Traceable>(t: &Tuner, out: &PathBuf) -> Result<(), String> {
    std::fs::write(out, t.table::<P>().to_text())
        .map_err(|e| format!("cannot write {}: {e}", out.display()))
}

fn run<P: Traceable>(args: &Args) -> Result<(), String> {
    check_fields::<P::Table>(&args.settings.only)?;
    check_fields::<P::Table>(&args.settings.freeze)?;
    let start_table = match &args.init {
        None => P::table().clone(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            P::Table::from_text(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
    };
    let clock = Instant::now();
    let all = Dataset::load::<P>(&args.data, args.limit)?;
    let (data, held) = all.split(args.holdout);
    if data.is_empty() {
        return Err("no positions in the data".to_string());
    }
    let mut t = Tuner::from_table::<P>(&start_table, &data, args.settings.clone());
    let (free, params) = t.free_parameters();
    println!(
        "{} positions traced in {:.1} s ({} held out); {} weights, {params} parameters, {free} tuned; {} threads",
        all.len(),
        clock.elapsed().as_secs_f64(),
        held.len(),
        P::Table::slots().len(),
        rayon::current_num_threads()
    );
    let k = t.fit_k(&data);
    println!("K = {k:.4}, loss {:.7}", t.loss(&data));
    let before = t.weights();
    let mut last = None;
    for epoch in 1..=args.epochs {
        let loss = t.epoch(&data);
        let change = last.map_or("-".to_string(), |l| format!("{:+.3e}", loss - l));
        let held_out = if held.is_empty() {
            String::new()
        } else {
            format!("  held out {:.7}", t.data_loss(&held))
        };
        println!(
            "epoch {epoch:4}  loss {loss:.7}  change {change}{held_out}  {:.1} s",
            clock.elapsed().as_secs_f64()
        );
        last = Some(loss);
        if epoch % 50 == 0 {
            write_table::<P>(&t, &args.out)?;
        }
    }
    write_table::<P>(&t, &args.out)?;
    println!(
        "final loss {:.7}; table written to {}",
        t.loss(&data),
        args.out.display()
    );
    print_changes::<P>(&before, &t.weights());
    Ok(())
}

/// The ten weights that moved most.
fn print_changes<P: Traceable>(before: &[eval::pst::S], after: &[eval::pst::S]) {
    let names = P::Table::names();
    let mut moved: Vec<(i32, usize)> = before
        .iter()
        .zip(after)
        .enumerate()
        .map(|(i, (b, a))| ((a.0 - b.0).abs().max((a.1 - b.1).abs()), i))
        .filter(|m| m.0 > 0)
        .collect();
    moved.sort_by(|a, b| b.cmp(a));
    println!("{} weights changed; most:", moved.len());
    for &(_, i) in moved.iter().take(10) {
        let (b, a) = (before[i], after[i]);
        println!(
            "  {:<28} ({}, {}) -> ({}, {})",
            names[i], b.0, b.1, a.0, a.1
        );
    }
}

const WDL_USAGE: &str = "\
usage: volkhv-tune wdl --variant V FILE [FILE ...]
  fits the variant's win/draw/loss model (a and b quadratic in the material
  left) to `volkhv datagen` files, text or binary, and prints its parameters
  (for eval/src/<variant>.rs) with the held-out log-loss and calibration of
  it, of the constant model and of the former ply model";

/// `volkhv-tune wdl`: the fit and its quality.
fn wdl_command(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{WDL_USAGE}");
        return Ok(());
    }
    let (variant, files) = match args {
        [flag, v, files @ ..] if flag == "--variant" && !files.is_empty() => (v, files),
        _ => return Err(format!("expected --variant V FILE...\n{WDL_USAGE}")),
    };
    let variant = Variant::from_name(variant)
        .ok_or_else(|| format!("--variant \"{variant}\" is not one of chess, plunder, tavreli"))?;
    let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
    let data = movegen::with_variant!(variant, P => tuner::wdl::load::<P>(&files))?;
    if data.len() < 1000 {
        return Err(format!("only {} positions: too few to fit", data.len()));
    }
    let r = tuner::wdl::fit_and_score(&data);
    print!("{}", wdl_report(variant, &r));
    Ok(())
}

/// The report's text: the data, the losses, the model as Rust, its `a` and
/// `b` along the material, and the calibration tables.
fn wdl_report(variant: Variant, r: &tuner::wdl::Report) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let (w, d, l) = r.rates;
    let _ = writeln!(
        out,
        "{}: {} positions fitted, {} held out (every {}th game); White wins {:.1} %, draws {:.1} %, loses {:.1} %",
        variant.name(),
        r.fitted,
        r.held_out,
        tuner::wdl::HELD_OUT_EVERY,
        w * 100.0,
        d * 100.0,
        l * 100.0
    );
    let _ = writeln!(out, "held-out log-loss: constant {:.4}", r.constant_loss);
    for m in &r.models {
        let _ = writeln!(out, "  {:?}: {:.4}", m.inputs, m.loss);
    }
    let m = r.models[0].model;
    let _ = writeln!(
        out,
        "WdlModel {{ material_min: {}, a: [{:.1}, {:.1}, {:.1}], b: [{:.1}, {:.1}, {:.1}], a_ply: {:.1}, b_ply: {:.1} }}",
        m.material_min, m.a[0], m.a[1], m.a[2], m.b[0], m.b[1], m.b[2], m.a_ply, m.b_ply
    );
    let mut materials = [10, 20, 30, 40, 50, 60, 70, 78].to_vec();
    materials.retain(|&x| x > m.material_min);
    materials.insert(0, m.material_min);
    for material in materials {
        let at = |ply| m.params(eval::wdl::Stage { material, ply });
        let ((a0, b0), (a1, b1)) = (at(20), at(120));
        let _ = writeln!(
            out,
            "  material {material:>2}: ply 20 a {a0:>6.1} b {b0:>6.1}; ply 120 a {a1:>6.1} b {b1:>6.1}"
        );
    }
    let _ = writeln!(
        out,
        "calibration on held-out games (predicted → actual, positions):"
    );
    let _ = write!(out, "  bucket  ");
    for m in &r.models {
        let _ = write!(out, "  {:<24}", format!("{:?}", m.inputs));
    }
    let _ = writeln!(out);
    for i in 0..tuner::wdl::BUCKETS {
        let _ = write!(out, "  {:.1}-{:.1}", i as f64 / 10.0, (i + 1) as f64 / 10.0);
        for m in &r.models {
            let b = m.calibration[i];
            let _ = write!(out, "  {:.3} → {:.3} {:>8}", b.predicted, b.actual, b.count);
        }
        let _ = writeln!(out);
    }
    out
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().is_some_and(|a| a == "wdl") {
        return match wdl_command(&raw[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("volkhv-tune wdl: {e}");
                ExitCode::from(2)
            }
        };
    }
    if raw.is_empty() || raw.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return if raw.is_empty() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let args = match parse(&raw) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("volkhv-tune: {e}");
            return ExitCode::from(2);
        }
    };
    if args.threads > 0 {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global()
        {
            eprintln!("volkhv-tune: cannot start {} threads: {e}", args.threads);
            return ExitCode::FAILURE;
        }
    }
    let result = movegen::with_variant!(args.variant, P => run::<P>(&args));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("volkhv-tune: {e}");
            ExitCode::FAILURE
        }
    }
}
