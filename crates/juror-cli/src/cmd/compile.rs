//! `juror compile`: a study validated fully (every problem listed, as `juror validate` does),
//! then written as a compiled study (`juror.compiled/1`, docs/compiled.md): its Markdown
//! rendered into whitelisted trees, so that the annotator's page plays it with a lean reader.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use juror_core::compiled;
use juror_core::rich::Node;

use crate::files::{load_opened, write_atomically};

/// Validate a study, then write it compiled (juror.compiled/1): its Markdown rendered, ready
/// for the annotator's page. Writes STUDY's name with `.compiled.json` beside it unless --out
/// says where.
#[derive(clap::Args)]
pub struct Args {
    /// The study file (juror.study/1 JSON), original or published.
    file: PathBuf,
    /// Where to write the compiled study (default: beside the study, `NAME.compiled.json`).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Exits 2 for an unreadable file or one that cannot be written, 1 for an invalid study (its
/// problems listed, nothing written), else 0.
pub fn run(args: Args) -> ExitCode {
    let file = args.file.as_path();
    let opened = match load_opened(file) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let out = args.out.unwrap_or_else(|| default_out(file));
    if out == file {
        errln!(
            "{}: --out names the study itself; give another file",
            out.display()
        );
        return ExitCode::from(2);
    }
    let text = compiled::compile(&opened, render);
    if let Err(code) = write_atomically(&out, &text) {
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
    juror_core::markdown::to_rich(markdown, shift)
}
