//! `juror compile`: a study validated fully (every problem listed, as `juror validate` does),
//! then written as a compiled study (`juror.compiled/3`, docs/compiled.md): its Markdown
//! rendered into whitelisted trees, so that the annotator's page plays it with a lean reader.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use juror_core::base::rich::Node;
use juror_core::front::compiled;
use juror_core::front::open::Opened;

use crate::files::{load_opened, open_study, read, write_atomically};

/// Validate a study, then write it compiled (juror.compiled/3): its Markdown rendered, ready
/// for the annotator's page. Writes STUDY's name with `.compiled.json` beside it unless --out
/// says where, or over the study itself with --in-place (any number of files; a file already
/// compiled is checked and left as it is).
#[derive(clap::Args)]
pub struct Args {
    /// The study files (juror.study/1 JSON), original or published: one, or any number with
    /// --in-place.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the compiled study (default: beside the study, `NAME.compiled.json`).
    #[arg(long, conflicts_with = "in_place")]
    out: Option<PathBuf>,
    /// Replace each study file with its compiled study (as a site's build does to the studies
    /// it serves); files already compiled are read as the annotator's page reads them and kept.
    #[arg(long)]
    in_place: bool,
}

/// Exits 2 for an unreadable file or one that cannot be written, 1 for an invalid study (its
/// problems listed, nothing written for it), else 0. With --in-place every file is tried; the
/// exit code is the worst.
pub fn run(args: Args) -> ExitCode {
    if args.in_place {
        let mut worst = 0;
        for file in &args.files {
            let code = compile_in_place(file);
            worst = worst.max(code);
        }
        return ExitCode::from(worst);
    }
    let [file] = args.files.as_slice() else {
        errln!("give one study file, or --in-place to compile several over themselves");
        return ExitCode::from(2);
    };
    let out = args.out.unwrap_or_else(|| default_out(file));
    if out == *file {
        errln!(
            "{}: --out names the study itself; give another file, or use --in-place",
            out.display()
        );
        return ExitCode::from(2);
    }
    let opened = match load_opened(file) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    write_compiled(file, &opened, &out)
}

/// Compiles `file` over itself; a compiled study is read (its problems listed, exit 1) and
/// kept. The exit code as a number, for taking the worst of several.
fn compile_in_place(file: &Path) -> u8 {
    let text = match read(file) {
        Ok(text) => text,
        Err(_) => return 2,
    };
    if compiled::is_compiled(&text) {
        return match compiled::read(&text) {
            Ok(_) => {
                outln!(
                    "{}: already compiled ({})",
                    file.display(),
                    compiled::FORMAT
                );
                0
            }
            Err(problems) => {
                for p in problems.explained().iter() {
                    outln!("{p}");
                }
                errln!(
                    "{}: a damaged compiled study; compile its study file again",
                    file.display()
                );
                1
            }
        };
    }
    match open_study(file, &text) {
        Ok(opened) => u8::from(write_compiled(file, &opened, file) != ExitCode::SUCCESS) * 2,
        Err(_) => 1,
    }
}

/// Writes `opened` compiled to `out`, and says so.
fn write_compiled(file: &Path, opened: &Opened, out: &Path) -> ExitCode {
    let text = compiled::compile(opened, render);
    if let Err(code) = write_atomically(out, &text) {
        return code;
    }
    outln!(
        "{}: compiled \"{}\" ({} items) to {} ({})",
        file.display(),
        opened.study.id(),
        opened.study.items().len(),
        out.display(),
        compiled::FORMAT
    );
    ExitCode::SUCCESS
}

/// `study.json` → `study.compiled.json`, in the same folder.
fn default_out(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or_else(|| "study".into(), |s| s.to_string_lossy().into_owned());
    file.with_file_name(format!("{stem}.compiled.json"))
}

/// The Markdown renderer the compiled study's texts go through: the core's, into trees of
/// whitelisted elements, headings `shift` levels down.
pub fn render(markdown: &str, shift: usize) -> Vec<Node> {
    juror_core::base::markdown::to_rich(markdown, shift)
}
