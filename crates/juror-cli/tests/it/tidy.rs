//! Tidy checks: rules of the code base that a reviewer would otherwise have to remember, run
//! with the tests (as rust-analyzer's `tidy` does). Each failure names the file and line, and
//! says what to do.

use std::path::{Path, PathBuf};

use super::repository::tracked_files;
use super::support::root;

/// No function of the core, the CLI or the web shell is longer than this: a longer one is cut
/// at its seams (one helper per section, per step, per kind).
const MAX_FUNCTION_LINES: usize = 200;

/// At most this many test binaries per crate (its unit tests, one integration binary, and one
/// more where a separate binary earns its place): each is a separate link step.
const MAX_TEST_BINARIES: usize = 3;

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The functions of a rustfmt-formatted file as (name, first line, number of lines): a function
/// runs from its `fn` line to the first line that is its indentation followed by `}`.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let indent = &line[..line.len() - line.trim_start().len()];
        let mut rest = line.trim_start();
        for prefix in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ] {
            rest = rest.strip_prefix(prefix).unwrap_or(rest);
        }
        let Some(signature) = rest.strip_prefix("fn ") else {
            continue;
        };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = signature
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(end) = lines[i..].iter().position(|l| *l == close) {
            out.push((name, i + 1, end + 1));
        }
    }
    out
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let root = root();
    let mut long = Vec::new();
    for dir in ["crates/juror-core/src", "crates/juror-cli/src", "src"] {
        for path in rust_files(&root.join(dir)) {
            let text = std::fs::read_to_string(&path).unwrap();
            for (name, line, lines) in functions(&text) {
                if lines > MAX_FUNCTION_LINES {
                    let file = path.strip_prefix(&root).unwrap().display().to_string();
                    long.push(format!("{file}:{line}: `{name}` has {lines} lines"));
                }
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines; cut them at their seams (a helper per \
         section or step):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_function_finder_finds_functions_and_their_ends() {
    let text = "fn a() {\n    1\n}\n\nimpl X {\n    pub(crate) fn b(&self) {\n        if x {\n        }\n    }\n    fn c();\n}\n";
    assert_eq!(
        functions(text),
        vec![("a".to_owned(), 1, 3), ("b".to_owned(), 6, 4)]
    );
}

/// Where `line` names an issue by number, a review finding by id, or one of the protocols the
/// project was built from by number: history that means nothing to a reader of the code.
fn names_history(line: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '#'))
        .filter(|w| !w.is_empty())
        .collect();
    for pair in words.windows(2) {
        let (word, next) = (pair[0], pair[1].trim_start_matches('#'));
        let number = !next.is_empty() && next.chars().all(|c| c.is_ascii_digit());
        match word {
            "issue" | "issues" if number => return Some("an issue number"),
            "seed" | "seeds" if number && next.len() == 3 && next.starts_with("00") => {
                return Some("a protocol by its number");
            }
            "review" | "reviews" => {
                let id = next.len() >= 2
                    && matches!(next.as_bytes()[0], b'l' | b'm' | b'n')
                    && next[1..].chars().all(|c| c.is_ascii_digit());
                if id || next == "fault" || next == "faults" {
                    return Some("a review finding");
                }
            }
            _ => {}
        }
    }
    None
}

#[test]
fn no_line_names_an_issue_a_review_finding_or_a_protocol_by_number() {
    let mut found = Vec::new();
    for (name, text) in tracked_files() {
        for (i, line) in text.lines().enumerate() {
            if let Some(what) = names_history(line) {
                found.push(format!("{name}:{}: names {what}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "name the rule, the study file or the behaviour instead of the history:\n{}",
        found.join("\n")
    );
}

#[test]
fn history_is_recognised_and_ordinary_words_are_not() {
    // Spelt in pieces, so that this file names no history itself.
    for line in [
        concat!("as iss", "ue 16 asks"),
        concat!("Iss", "ue #14's target"),
        concat!("(rev", "iew M2)"),
        concat!("rev", "iews L1, L2"),
        concat!("rev", "iew fault 14"),
        concat!("Se", "ed 001's plan"),
    ] {
        assert!(names_history(line).is_some(), "{line}");
    }
    for line in [
        "GitHub issues (Kubernetes, VS Code)",
        "the issue pertains to the connection",
        "seed 0, 2000 bootstrap resamples",
        "a random seed 42",
        "review the report",
    ] {
        assert_eq!(names_history(line), None, "{line}");
    }
}

#[test]
fn each_crate_has_at_most_three_test_binaries() {
    let root = root();
    for krate in [".", "crates/juror-core", "crates/juror-cli"] {
        let tests = root.join(krate).join("tests");
        let mut binaries = 1; // the unit tests of the crate's library or binary
        if let Ok(entries) = std::fs::read_dir(&tests) {
            for entry in entries {
                let path = entry.unwrap().path();
                let single = path.extension().is_some_and(|e| e == "rs");
                if single || path.join("main.rs").is_file() {
                    binaries += 1;
                }
            }
        }
        assert!(
            binaries <= MAX_TEST_BINARIES,
            "{krate} has {binaries} test binaries; put integration tests in one binary \
             (tests/it/main.rs with a module per topic)"
        );
    }
}

/// Where the web shell may set HTML from a string (`inner_html`, `set_inner_html`): nowhere.
/// Study text reaches the page as the core's rich tree, built into DOM nodes by
/// `services::dom::fill_rich`; a page that needs an HTML string is named here, with why.
const INNER_HTML_ALLOWED: &[&str] = &[];

#[test]
fn no_page_sets_html_from_a_string() {
    let root = root();
    let mut found = Vec::new();
    for path in rust_files(&root.join("src")) {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains("inner_html") && !INNER_HTML_ALLOWED.contains(&name.as_str()) {
                found.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "show study text with `components::rich::RichText` (a DOM tree, never an HTML string):\n{}",
        found.join("\n")
    );
}
