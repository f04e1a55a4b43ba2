//! Every repository path that a document or a comment names exists: a file that moves or is
//! renamed takes its mentions with it.
//!
//! **What is read.** Every tracked Markdown file whole (fenced code blocks included), and the
//! comments of tracked source files: `//` (so `///` and `//!`) in Rust; `//` and `/* */` in
//! TypeScript, JavaScript and CSS; `#` in Python, TOML, YAML and shell scripts (a file starting
//! `#!`), and Python's `"""` docstrings; `<!-- -->` in HTML. `docs/decisions.md` is not read: a
//! dated record names files as they were when it was written, and some have moved since.
//!
//! **What is a path.** A word (split at spaces, quotes, backticks, brackets, `,;|=`) that holds
//! a `/` and ends in an extension of the repository's files (`.rs`, `.md`, `.json`, …) or starts
//! at a top-level folder (`crates/`, `docs/`, `scripts/`, …). A `#heading`, a `:line` or a
//! `::test_name` after it, and a full stop after that, are not part of it.
//!
//! **Where it may be written from.** The repository's root, the folder of the file that names
//! it, or a crate's folder or its `src/` (the app at the root, and each of `crates/*`): so
//! `tests/it/choices.rs` in juror-core's docs and `stats/math.rs` in a guide both resolve.
//!
//! **What is not checked,** each because it is not a path of this repository:
//! - a URL (`http…`, `github.com/…`) or an absolute path (`/tmp/…`, `/studies/…` of a site);
//! - a glob (`*`, `?`);
//! - a placeholder: `<…>`, `{…}`, `$…`, `…` or `...`, or a name in capitals (`NAME.json`,
//!   `KEYS/`) other than the conventional `README`, `LICENSE`, `CONTRIBUTING`, `ARCHITECTURE`;
//! - the reader's own study, which the guides call `mine` (`mine.json`, `mine.key.json`) or
//!   `my-…`;
//! - what a build writes: anything under `dist/`, `target/` or `node_modules/`, a `.wasm` file,
//!   and the `.compiled.json` files `juror compile` writes (none is committed);
//! - a path whose first folder is not a folder of the repository at any of the places above
//!   (`private/keys/…`, `site/studies/…`, `ratings/…`): the reader's files, a site's or a
//!   command's output, in examples inside code blocks and out.

use std::path::Path;

use super::repository::tracked_files;
use super::support::root;

/// How a file writes its comments, or that it is Markdown (read whole).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    Markdown,
    /// `//` line comments (Rust).
    Slashes,
    /// `//` and `/* */` (TypeScript, JavaScript, CSS).
    SlashesAndBlocks,
    /// `#` (TOML, YAML, shell).
    Hashes,
    /// `#` and `"""` docstrings (Python).
    Python,
    /// `<!-- -->`.
    Html,
}

/// How `name` (with its `text`) writes its comments; `None` for a file not read.
fn syntax(name: &str, text: &str) -> Option<Syntax> {
    let file = name.rsplit('/').next().unwrap_or(name);
    let extension = file.rsplit_once('.').map_or("", |(_, e)| e);
    Some(match extension {
        "md" => Syntax::Markdown,
        "rs" => Syntax::Slashes,
        "ts" | "mjs" | "js" | "css" => Syntax::SlashesAndBlocks,
        "toml" | "yml" | "yaml" | "sh" => Syntax::Hashes,
        "py" => Syntax::Python,
        "html" => Syntax::Html,
        "" if text.starts_with("#!python") || text.starts_with("#!/usr/bin/env python") => {
            Syntax::Python
        }
        "" if text.starts_with("#!") => Syntax::Hashes,
        _ => return None,
    })
}

/// Where a `marker` (`//`, `#`) starts a comment in `line`: at the start of the line or after a
/// space, and outside a `"` string.
fn comment_start(line: &str, marker: &str) -> Option<usize> {
    line.match_indices(marker).map(|(at, _)| at).find(|&at| {
        let before = &line[..at];
        let alone = before.is_empty() || before.ends_with([' ', '\t']);
        alone && before.matches('"').count().is_multiple_of(2)
    })
}

/// The text of `line` inside `open … close` block comments, carrying whether a block is open
/// from one line to the next; with `line_marker`, a line comment outside a block too.
fn block_comments(
    line: &str,
    (open, close): (&str, &str),
    line_marker: Option<&str>,
    in_block: &mut bool,
) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *in_block {
            match rest.find(close) {
                Some(at) => {
                    out.push_str(&rest[..at]);
                    out.push(' ');
                    rest = &rest[at + close.len()..];
                    *in_block = false;
                }
                None => {
                    out.push_str(rest);
                    return out;
                }
            }
        } else {
            let opens = rest.find(open);
            let comment = line_marker.and_then(|m| comment_start(rest, m));
            match (opens, comment) {
                (_, Some(c)) if opens.is_none_or(|o| c < o) => {
                    out.push_str(&rest[c..]);
                    return out;
                }
                (Some(o), _) => {
                    rest = &rest[o + open.len()..];
                    *in_block = true;
                }
                _ => return out,
            }
        }
    }
}

/// The commented text of `text`, line by line, as (line number, text); a Markdown file whole.
fn comments(syntax: Syntax, text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for (i, line) in text.lines().enumerate() {
        let comment = match syntax {
            Syntax::Markdown => line.to_owned(),
            Syntax::Slashes => {
                comment_start(line, "//").map_or_else(String::new, |at| line[at..].to_owned())
            }
            Syntax::Hashes => {
                comment_start(line, "#").map_or_else(String::new, |at| line[at..].to_owned())
            }
            Syntax::Python => {
                let quotes = line.matches("\"\"\"").count();
                let docstring = in_block || quotes > 0;
                if quotes % 2 == 1 {
                    in_block = !in_block;
                }
                if docstring {
                    line.to_owned()
                } else {
                    comment_start(line, "#").map_or_else(String::new, |at| line[at..].to_owned())
                }
            }
            Syntax::SlashesAndBlocks => {
                block_comments(line, ("/*", "*/"), Some("//"), &mut in_block)
            }
            Syntax::Html => block_comments(line, ("<!--", "-->"), None, &mut in_block),
        };
        if comment.contains('/') {
            out.push((i + 1, comment));
        }
    }
    out
}

/// The extensions of the repository's files that make a word with a `/` a path.
const EXTENSIONS: [&str; 16] = [
    ".rs", ".md", ".py", ".ts", ".mjs", ".js", ".json", ".toml", ".yml", ".yaml", ".csv", ".jsonl",
    ".sh", ".html", ".css", ".svg",
];

/// The top-level folders that make a word a path whatever it ends in.
const TOP_FOLDERS: [&str; 9] = [
    "crates/", "src/", "docs/", "scripts/", "tests/", "assets/", "data/", "style/", ".github/",
];

/// The words of `text` that look like paths, cut to the path (without `#heading`, `:line`,
/// `::test` or a closing full stop).
fn path_words(text: &str) -> Vec<&str> {
    let separator = |c: char| c.is_whitespace() || "`\"'()[],;|=".contains(c);
    text.split(separator)
        .filter_map(|word| {
            if is_url(word) {
                return None;
            }
            let word = word.split(['#', ':']).next().unwrap_or(word);
            let word = word.trim_end_matches(['.', '!', '?']).trim_matches('*');
            let path_like = word.contains('/')
                && (EXTENSIONS.iter().any(|e| word.ends_with(e))
                    || TOP_FOLDERS.iter().any(|f| word.starts_with(f)));
            path_like.then_some(word)
        })
        .collect()
}

fn is_url(word: &str) -> bool {
    word.contains("://") || word.starts_with("http") || word.contains("github.com/")
}

/// Names in capitals that are real files, not placeholders.
const CONVENTIONAL: [&str; 4] = ["README", "LICENSE", "CONTRIBUTING", "ARCHITECTURE"];

/// Why `path` is not a path of this repository, whether or not it exists: see the module's
/// documentation. (Whether its first folder is the repository's is `anchored`.)
fn not_the_repositorys(path: &str) -> Option<&'static str> {
    if path.starts_with(['/', '~']) {
        return Some("an absolute path");
    }
    if path.contains(['*', '?']) {
        return Some("a glob");
    }
    if path.contains(['<', '>', '{', '}', '$', '…']) || path.contains("...") {
        return Some("a placeholder");
    }
    for segment in path.split('/') {
        let stem = segment.split('.').next().unwrap_or(segment);
        let capitals = stem.len() >= 2
            && stem.chars().any(|c| c.is_ascii_uppercase())
            && stem
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if capitals && !CONVENTIONAL.contains(&stem) {
            return Some("a placeholder");
        }
        if stem == "mine" || stem.starts_with("my-") {
            return Some("the reader's own study");
        }
        if matches!(segment, "dist" | "target" | "node_modules")
            || segment.ends_with(".wasm")
            || segment.ends_with(".compiled.json")
        {
            return Some("what a build writes");
        }
    }
    None
}

/// The folders (relative to the root, `""` for the root, each ending in `/`) that `file` may
/// name paths from: the root, its own folder, and each crate's folder and its `src/`.
fn bases(file: &str, crates: &[String]) -> Vec<String> {
    let own = file
        .rsplit_once('/')
        .map_or(String::new(), |(dir, _)| format!("{dir}/"));
    let mut out = vec![String::new()];
    let crate_folders = crates.iter().flat_map(|c| [c.clone(), format!("{c}src/")]);
    for base in std::iter::once(own).chain(crate_folders) {
        if !out.contains(&base) {
            out.push(base);
        }
    }
    out
}

/// `base` joined with `path`, `.` and `..` resolved; `None` when it leaves the repository.
fn join(base: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in base.split('/').chain(path.split('/')) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// Whether the first folder of `path` is a folder of the repository seen from one of `bases`
/// (a path starting `./` or `../` is always the repository's).
fn anchored(root: &Path, bases: &[String], path: &str) -> bool {
    let first = path.split('/').next().unwrap_or(path);
    matches!(first, "." | "..")
        || bases
            .iter()
            .any(|base| join(base, first).is_some_and(|p| root.join(p).is_dir()))
}

/// Whether `path` exists seen from one of `bases`.
fn resolves(root: &Path, bases: &[String], path: &str) -> bool {
    bases
        .iter()
        .any(|base| join(base, path).is_some_and(|p| root.join(p).exists()))
}

/// The crates' folders: the app at the root (`""`) and each `crates/<name>/`.
fn crate_folders(root: &Path) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut names: Vec<String> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ must exist")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| root.join("crates").join(name).join("Cargo.toml").is_file())
        .map(|name| format!("crates/{name}/"))
        .collect();
    names.sort();
    out.extend(names);
    out
}

/// The paths `text` (the file `name`) names that do not exist, as `name:line: path`.
fn missing_paths(root: &Path, crates: &[String], name: &str, text: &str) -> Vec<String> {
    let Some(syntax) = syntax(name, text) else {
        return Vec::new();
    };
    let bases = bases(name, crates);
    let mut out = Vec::new();
    for (line, comment) in comments(syntax, text) {
        for path in path_words(&comment) {
            if not_the_repositorys(path).is_none()
                && anchored(root, &bases, path)
                && !resolves(root, &bases, path)
            {
                out.push(format!("{name}:{line}: {path}"));
            }
        }
    }
    out
}

/// The dated record, not read (see the module's documentation).
const DATED_RECORD: &str = "docs/decisions.md";

#[test]
fn every_path_a_document_or_a_comment_names_exists() {
    let root = root();
    let crates = crate_folders(&root);
    let mut missing = Vec::new();
    for (name, text) in tracked_files() {
        if name != DATED_RECORD {
            missing.extend(missing_paths(&root, &crates, &name, &text));
        }
    }
    assert!(
        missing.is_empty(),
        "these paths do not exist; fix the path or delete the mention (what counts as a path: \
         crates/juror-cli/tests/it/paths.rs):\n{}",
        missing.join("\n")
    );
}

/// The path-like words of the comments of `text`, read as `syntax`.
fn paths_in_comments(syntax: Syntax, text: &str) -> Vec<String> {
    comments(syntax, text)
        .into_iter()
        .flat_map(|(_, text)| {
            path_words(&text)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn comments_are_found_in_each_syntax() {
    let rust = "let a = \"x // y\"; // see a/b.rs\n/// doc c/d.md\nlet u = \"http://e/f.rs\";\n";
    assert_eq!(
        comments(Syntax::Slashes, rust),
        [
            (1, "// see a/b.rs".to_owned()),
            (2, "/// doc c/d.md".to_owned())
        ]
    );
    let ts = "a(); /* one/two.ts\ntwo */ b('/x.ts'); // three\nc('d/e.ts');\n";
    let found: Vec<usize> = comments(Syntax::SlashesAndBlocks, ts)
        .iter()
        .map(|(line, _)| *line)
        .collect();
    assert_eq!(found, [1, 2]);
    assert!(
        !comments(Syntax::SlashesAndBlocks, ts)[1]
            .1
            .contains("/x.ts")
    );
    let python = "\"\"\"Doc of a/b.py\n\nc/d.py\n\"\"\"\nopen(\"e/f.py\")  # g/h.py\n";
    let found = paths_in_comments(Syntax::Python, python);
    assert_eq!(found, ["a/b.py", "c/d.py", "g/h.py"]);
    let html = "<p>x/y.html</p><!-- a/b.html\n c/d.html --> e/f.html\n";
    let found = paths_in_comments(Syntax::Html, html);
    assert_eq!(found, ["a/b.html", "c/d.html"]);
    assert_eq!(
        syntax("scripts/test", "#!/usr/bin/env bash\n"),
        Some(Syntax::Hashes)
    );
    assert_eq!(syntax("data/x/LICENSE", "MIT\n"), None);
}

#[test]
fn path_words_are_cut_to_the_path() {
    let text = "See [x](docs/a.md#b), `crates/c/src/d.rs:12`, tests/it/e.rs::f_g and src/h/. \
                Not a/b, n/2, https://x.org/y.md or DAMO/LLM.";
    assert_eq!(
        path_words(text),
        ["docs/a.md", "crates/c/src/d.rs", "tests/it/e.rs", "src/h/"]
    );
}

#[test]
fn what_is_not_the_repositorys_is_named() {
    for (path, why) in [
        ("/tmp/x.json", "an absolute path"),
        ("ratings/*.json", "a glob"),
        ("assets/schema/<name>.v1.json", "a placeholder"),
        ("tests/reference/{name}/reference.json", "a placeholder"),
        ("…/financial-slot1.json", "a placeholder"),
        ("site/studies/NAME.json", "a placeholder"),
        ("assets/studies/mine.json", "the reader's own study"),
        ("my-study/study.toml", "the reader's own study"),
        ("dist/sw.js", "what a build writes"),
        ("target/bench/x.csv", "what a build writes"),
        (
            "assets/studies/kitchen-qa.compiled.json",
            "what a build writes",
        ),
    ] {
        assert_eq!(not_the_repositorys(path), Some(why), "{path}");
    }
    for path in ["data/summeval/LICENSE", "docs/README.md", "tests/it/x.rs"] {
        assert_eq!(not_the_repositorys(path), None, "{path}");
    }
}

#[test]
fn paths_resolve_from_the_root_the_files_folder_or_a_crate() {
    let root = root();
    let crates = crate_folders(&root);
    let check = |file: &str, text: &str| missing_paths(&root, &crates, file, text);
    let core = "crates/juror-core/src/stats/paired.rs";
    assert!(
        check(
            core,
            "//! crates/juror-core/tests/reference/paired/reference.json\n"
        )
        .is_empty()
    );
    assert!(check(core, "//! tests/reference/paired/make_reference.py\n").is_empty());
    assert!(
        check(
            "docs/analysis.md",
            "`stats/math.rs`, `../README.md`, `hosting.md`\n"
        )
        .is_empty()
    );
    assert!(check("src/app.rs", "// boot/later.rs\n").is_empty());
    assert!(
        check(
            "docs/x.md",
            "`private/keys/x.key.json`, `site/studies/a.json`\n"
        )
        .is_empty()
    );
    assert_eq!(
        check(
            core,
            "//! tests/reference/paired/gone.py and scripts/gone.py\n"
        ),
        [
            format!("{core}:1: tests/reference/paired/gone.py"),
            format!("{core}:1: scripts/gone.py")
        ]
    );
    assert_eq!(
        check("docs/x.md", "\n```sh\npython3 crates/gone.py\n```\n"),
        ["docs/x.md:3: crates/gone.py"]
    );
    assert_eq!(
        check("docs/x.md", "[a](../../x.md)\n"),
        ["docs/x.md:1: ../../x.md"]
    );
}
