//! `docs/cli.md`, the command reference, is the help the built `juror` prints: `juror --help`,
//! then `juror <command> --help` for every command it lists. A changed flag or help text fails
//! here until the file is regenerated with
//! `JUROR_BLESS=1 cargo test -p juror-cli --test it cli_docs` (then read the diff).

use super::support::{self, root};

/// The command that rewrites `docs/cli.md`, as the file and the failure message give it.
const REGENERATE: &str = "JUROR_BLESS=1 cargo test -p juror-cli --test it cli_docs";

/// What `juror ARGS` prints on standard output; it must succeed.
fn help(args: &[&str]) -> String {
    let out = support::juror().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "juror {}: {}",
        args.join(" "),
        support::stderr(&out)
    );
    support::stdout(&out)
}

/// The commands `juror --help` lists under "Commands:", in its order, but `help`.
fn commands(top: &str) -> Vec<String> {
    top.lines()
        .skip_while(|line| line.trim_end() != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        // A command's line starts with two spaces; a wrapped description is indented further.
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// One section of the reference: `## juror ...` and the help in a text block, without the
/// blanks clap leaves at the end of some lines.
fn section(title: &str, text: &str) -> String {
    let lines: Vec<&str> = text.trim_end().lines().map(str::trim_end).collect();
    format!("## {title}\n\n```text\n{}\n```\n", lines.join("\n"))
}

/// `docs/cli.md` as the binary under test would have it.
fn generated() -> String {
    let top = help(&["--help"]);
    let names = commands(&top);
    assert!(
        names.len() >= 10 && names.iter().any(|n| n == "validate"),
        "juror --help lists {names:?}: has its \"Commands:\" section changed shape?"
    );
    let mut doc = format!(
        "# The `juror` command\n\n\
         *Generated from the `juror` binary's help by `crates/juror-cli/tests/it/cli_docs.rs`;\n\
         do not edit by hand. Regenerate with `{REGENERATE}`.*\n\n\
         Every command's help, as `juror --help` and `juror <command> --help` print it. `juror`\n\
         is `cargo run -p juror-cli --` in a clone of the repository, or installed with\n\
         `cargo install --path crates/juror-cli`. The researcher's path through these commands\n\
         is in the [README](../README.md#from-a-study-to-a-report).\n\n{}",
        section("juror", &top)
    );
    for name in &names {
        doc.push('\n');
        doc.push_str(&section(&format!("juror {name}"), &help(&[name, "--help"])));
    }
    doc
}

#[test]
fn docs_cli_md_is_the_help_of_every_command() {
    let path = root().join("docs/cli.md");
    let generated = generated();
    if std::env::var_os("JUROR_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let first_difference = committed
        .lines()
        .zip(generated.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
    assert!(
        committed == generated,
        "docs/cli.md is not the help of the `juror` binary (first difference at line {}); \
         regenerate it with `{REGENERATE}` and read the diff",
        first_difference + 1
    );
}

#[test]
fn the_command_list_is_read_from_the_help() {
    let top = "About\n\nUsage: juror <COMMAND>\n\nCommands:\n  validate  Check a study\n            \
               that wraps\n  read-sheet  Read a sheet\n  help  Print this message\n\nOptions:\n  \
               -h, --help  Print help\n";
    assert_eq!(commands(top), ["validate", "read-sheet"]);
}
