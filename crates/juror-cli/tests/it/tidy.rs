//! Tidy checks: rules of the code base that a reviewer would otherwise have to remember, run
//! with the tests (as rust-analyzer's `tidy` does). Each failure names the file and line, and
//! says what to do.

use std::path::{Path, PathBuf};

use super::repository::tracked_files;
use super::support::root;

/// No function of the core, the CLI or the web shell is longer than this: a longer one is cut
/// at its seams (one helper per section, per step, per kind).
const MAX_FUNCTION_LINES: usize = 150;

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

/// No production file of the core, the CLI or the web shell is longer than this (tests apart:
/// `tests.rs`, `*_tests.rs`): a longer one is split into sibling modules by what they do.
const MAX_FILE_LINES: usize = 1_200;

#[test]
fn no_production_file_is_longer_than_the_limit() {
    let root = root();
    let mut long = Vec::new();
    for dir in ["crates/juror-core/src", "crates/juror-cli/src", "src"] {
        for path in rust_files(&root.join(dir)) {
            let name = path.file_name().unwrap().to_string_lossy();
            if name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let lines = std::fs::read_to_string(&path).unwrap().lines().count();
            if lines > MAX_FILE_LINES {
                let file = path.strip_prefix(&root).unwrap().display().to_string();
                long.push(format!("{file}: {lines} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines; split them into sibling modules by what they do:\n{}",
        long.join("\n")
    );
}

/// The documents a newcomer reads first stay maps, not manuals: the README for a researcher,
/// ARCHITECTURE.md for a developer, docs/benchmarks.md for current figures and methods (the
/// dated record goes to docs/decisions.md). Bytes, as `wc -c` counts them.
#[test]
fn the_maps_stay_short() {
    for (file, limit) in [
        ("README.md", 18_000),
        ("ARCHITECTURE.md", 15_000),
        ("docs/benchmarks.md", 25_000),
    ] {
        let size = std::fs::metadata(root().join(file)).unwrap().len();
        assert!(
            size <= limit,
            "{file} is {size} bytes, over {limit}: move reference material to docs/ (the \
             command reference is docs/cli.md, hosting docs/hosting.md, the dated record \
             docs/decisions.md) and link to it"
        );
    }
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

/// The documents that describe the project as it is: `README.md`, `ARCHITECTURE.md`,
/// `CONTRIBUTING.md` (when there is one) and every `docs/*.md` but `docs/decisions.md`, which
/// is the dated record of what was measured, decided, kept or dropped.
fn current_documents() -> Vec<(String, String)> {
    let root = root();
    let mut names: Vec<String> = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"]
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    let docs = std::fs::read_dir(root.join("docs")).expect("docs/ must exist");
    let mut in_docs: Vec<String> = docs
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md") && name != "decisions.md")
        .map(|name| format!("docs/{name}"))
        .collect();
    in_docs.sort();
    names.extend(in_docs);
    names
        .into_iter()
        .filter_map(|name| {
            let text = std::fs::read_to_string(root.join(&name)).ok()?;
            Some((name, text))
        })
        .collect()
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Whether `c` continues a word, as `\w` of a regular expression.
fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where (a byte offset) `line` has a calendar date outside a file name: `2026-11-24` standing
/// as a word (as `\b20\d\d-\d\d-\d\d\b`), or a month named with its year (`November 2026`, `26
/// November 2026`, `November 26, 2026`). A date inside a file name is an example, not history:
/// the run of name characters (ASCII letters and digits, `.`, `_`, `-`) around it is longer
/// than the date and ends in an extension (`juror-fin-file3-2026-11-25.json`).
fn date_at(line: &str) -> Option<usize> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let pattern = "20dd-dd-dd";
    for start in 0..chars.len() {
        let end = start + pattern.len();
        if end > chars.len() {
            break;
        }
        let fits = pattern
            .chars()
            .zip(&chars[start..end])
            .all(|(p, &(_, c))| match p {
                'd' => c.is_ascii_digit(),
                p => c == p,
            });
        let alone = (start == 0 || !word_char(chars[start - 1].1))
            && (end == chars.len() || !word_char(chars[end].1));
        if fits && alone && !in_file_name(&chars, start, end) {
            return Some(chars[start].0);
        }
    }
    let mut words = Vec::new();
    let mut from = None;
    for (at, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c.is_alphanumeric(), from) {
            (true, None) => from = Some(at),
            (false, Some(f)) => {
                words.push((f, line[f..at].to_lowercase()));
                from = None;
            }
            _ => {}
        }
    }
    let year =
        |w: &str| w.len() == 4 && w.starts_with("20") && w.bytes().all(|b| b.is_ascii_digit());
    let day = |w: &str| (1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit());
    (0..words.len())
        .find(|&i| {
            MONTHS.contains(&words[i].1.as_str())
                && match words.get(i + 1) {
                    Some((_, next)) if year(next) => true,
                    Some((_, next)) if day(next) => words.get(i + 2).is_some_and(|(_, w)| year(w)),
                    _ => false,
                }
        })
        .map(|i| words[i].0)
}

/// Whether `chars[start..end]` lies inside a file name with an extension.
fn in_file_name(chars: &[(usize, char)], start: usize, end: usize) -> bool {
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
    let mut from = start;
    while from > 0 && name_char(chars[from - 1].1) {
        from -= 1;
    }
    let mut to = end;
    while to < chars.len() && name_char(chars[to].1) {
        to += 1;
    }
    let name: String = chars[from..to].iter().map(|&(_, c)| c).collect();
    let Some((stem, extension)) = name.rsplit_once('.') else {
        return false;
    };
    to - from > end - start
        && stem.len() >= end - start
        && (1..=5).contains(&extension.len())
        && extension.bytes().all(|b| b.is_ascii_alphanumeric())
        && extension.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Where `line` narrates history, and how: a calendar date ([`date_at`]), or the words of a
/// lab notebook ("reverted", "taken back", "tried and", "the day's third session").
fn narrates(line: &str) -> Option<(&'static str, usize)> {
    if let Some(at) = date_at(line) {
        return Some(("a calendar date", at));
    }
    let lower = line.to_ascii_lowercase();
    let standing = |phrase: &str| {
        lower.match_indices(phrase).map(|(at, _)| at).find(|&at| {
            let before = lower[..at].chars().next_back();
            let after = lower[at + phrase.len()..].chars().next();
            !before.is_some_and(word_char) && !after.is_some_and(word_char)
        })
    };
    for phrase in ["reverted", "taken back", "tried and"] {
        if let Some(at) = standing(phrase) {
            return Some(("an account of what was tried and undone", at));
        }
    }
    const ORDINALS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    for apostrophe in ['\'', '\u{2019}'] {
        for ordinal in ORDINALS {
            if let Some(at) = standing(&format!("the day{apostrophe}s {ordinal}")) {
                return Some(("a session of a day", at));
            }
        }
    }
    None
}

/// Up to 60 characters of `line` either side of byte `at`.
fn around(line: &str, at: usize) -> String {
    let before: String = line[..at]
        .chars()
        .rev()
        .take(60)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let after: String = line[at..].chars().take(60).collect();
    let open = if before.len() < at { "…" } else { "" };
    let close = if at + after.len() < line.len() {
        "…"
    } else {
        ""
    };
    format!("{open}{before}{after}{close}").trim().to_owned()
}

/// The documents of the project as it is ([`current_documents`]) carry no history: no
/// calendar date and no account of what was tried, reverted or taken back. The dated record,
/// with its figures and commit hashes, is `docs/decisions.md`, which code and documents cite
/// by heading. Exempt: lines inside fenced code blocks (from a line starting with three
/// backticks or tildes, after any indentation, to the next such line, both included), and a
/// date inside an example file name ([`date_at`]).
#[test]
fn documents_of_the_current_state_carry_no_dated_history() {
    let mut found = Vec::new();
    for (name, text) in current_documents() {
        let mut fenced = false;
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            if let Some((what, at)) = narrates(line) {
                found.push(format!("{name}:{}: {what}: {}", i + 1, around(line, at)));
            }
        }
    }
    assert!(
        found.is_empty(),
        "these documents describe the project as it is; move the dated record (what was \
         measured when, tried, kept or reverted, with its figures and commits) to \
         docs/decisions.md under a dated heading, cite it by heading, and state here what \
         holds now:\n{}",
        found.join("\n")
    );
}

#[test]
fn dated_history_is_recognised_and_examples_are_not() {
    for line in [
        "measured on 2026-11-24, commit 8dbea4f",
        "(2026-11-27, the day's fourth session)",
        "| v1 | until 26 November 2026 | |",
        "since November 2026 the rows are shuffled",
        "on November 26, 2026 the planner changed",
        "Tried and not kept: opt-level 2",
        "reverted by two commits",
        "taken back out of main the same day",
        "The day\u{2019}s third session",
        "a date at the end: 2026-11-24.",
    ] {
        assert!(narrates(line).is_some(), "{line}");
    }
    for line in [
        "`juror-fin-file3-2026-11-25.json`",
        "named `juror-financial-analysis-2024w10-slot1-2026-11-21.json`.",
        "a_survey_answer_is_not_reverted_by_the_others_copy",
        "the plan of format v1, golden plans in `plans/v1/`",
        "WMT's human evaluation since 2024 (Kocmi et al. 2024)",
        "may 3 annotators rate 2026 items",
        "20,000 cases, seed 0",
        "the day's work is saved",
    ] {
        assert_eq!(narrates(line), None, "{line}");
    }
    assert_eq!(narrates("x 2026-11-24 y"), Some(("a calendar date", 2)));
    assert_eq!(around("ab", 1), "ab");
}
