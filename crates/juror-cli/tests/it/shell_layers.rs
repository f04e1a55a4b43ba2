//! The web shell's floors, held as the core's are (`crates/juror-core/tests/it/layers.rs`):
//! every `crate::` path in the root crate's `src/` (in `use` lines, grouped or not, and inline),
//! and every `super::` path that climbs to another top-level module, must point to a module on
//! the same floor or below, and two top-level modules of one floor import nothing of each
//! other, so that no circle spans two of them. The browser's services (1) know nothing of the
//! shell; the shared components (2) nothing of the session (3); the controls (4) read and answer
//! through the session; the pages (5) are built of those; the loading of code (6) shows pages
//! and opens the session; the app (7) mounts what is loaded.
//!
//! Comments are not read: a doc link is not an import. The binaries (`src/main.rs`,
//! `src/analyse_main.rs`, `src/ratings_main.rs`) name the library as `juror::` and stand above
//! it all.

use std::fs;
use std::path::{Path, PathBuf};

use super::support::root;

/// Each top-level module of the shell's `src/` and its floor. A new module goes here.
const FLOORS: &[(&str, u32)] = &[
    // 1. The browser: the address, storage, fetching, focus, DOM nodes built by hand.
    ("services", 1),
    // 2. Components both pages share (rich text, tables, drop zones).
    ("components", 2),
    // 3. The annotator's session: the core's reducer behind signals, saving, backups.
    ("session", 3),
    // 4. The controls an annotator answers with, each reading and answering the session.
    ("controls", 4),
    // 5. Pages: the annotator's, and the researcher's.
    ("annotator", 5),
    ("analyse", 5),
    // 6. When code loads: the first page, the split modules, the study as read.
    ("boot", 6),
    // 7. The root components, which mount what is loaded.
    ("app", 7),
];

/// Files that are not modules of the library: the binaries, and the library's root.
const NOT_MODULES: &[&str] = &["lib", "main", "analyse_main", "ratings_main"];

/// One import of one file: where (file, line) and which module it reaches.
#[derive(Debug)]
struct Import {
    file: String,
    line: usize,
    /// The importing file's module path below `src/` (`["boot", "first"]`).
    from: Vec<String>,
    /// The target's path from the crate root, as far as it names modules or items.
    to: Vec<String>,
}

fn src() -> PathBuf {
    root().join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// `src/boot/first.rs` → `["boot", "first"]`; `src/boot/mod.rs` → `["boot"]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_owned();
    }
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    parts
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifiers of a path after `crate::` or after the `super::`s: `a::b::c` gives
/// `[a, b, c]`; a group `{a, b::c}` gives one path per top-level member.
fn paths_after(text: &str) -> Vec<Vec<String>> {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut out = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    out.extend(paths_after(&group[start..i]));
                    return out;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.extend(paths_after(&group[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        out.extend(paths_after(&group[start..]));
        return out;
    }
    let mut path = Vec::new();
    let mut rest = text;
    loop {
        let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if end == 0 {
            if rest.starts_with('{') {
                return paths_after(rest)
                    .into_iter()
                    .map(|tail| path.iter().cloned().chain(tail).collect())
                    .collect();
            }
            break;
        }
        path.push(rest[..end].to_owned());
        match rest[end..].strip_prefix("::") {
            Some(next) => rest = next.trim_start(),
            None => break,
        }
    }
    if path.is_empty() {
        Vec::new()
    } else {
        vec![path]
    }
}

/// The code of a line without its comment (a `//` outside a string).
fn code(line: &str) -> &str {
    let mut in_string = false;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '"' if previous != '\\' => in_string = !in_string,
            '/' if !in_string && previous == '/' => return &line[..i - 1],
            _ => {}
        }
        previous = c;
    }
    line
}

/// Every import of one file. A `use` statement is read whole (it may span lines).
fn imports_of(file: &str, from: &[String], text: &str) -> Vec<Import> {
    let lines: Vec<&str> = text.lines().map(code).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut statement = lines[i].to_owned();
        let first = i;
        let trimmed = statement.trim_start();
        if ["use ", "pub use ", "pub(crate) use "]
            .iter()
            .any(|u| trimmed.starts_with(u))
        {
            while !statement.contains(';') && i + 1 < lines.len() {
                i += 1;
                statement.push(' ');
                statement.push_str(lines[i]);
            }
        }
        let mut push = |to: Vec<String>| {
            out.push(Import {
                file: file.to_owned(),
                line: first + 1,
                from: from.to_vec(),
                to,
            });
        };
        for (at, _) in statement.match_indices("crate::") {
            let before = statement[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == '$') {
                continue;
            }
            paths_after(&statement[at + "crate::".len()..])
                .into_iter()
                .for_each(&mut push);
        }
        for (at, _) in statement.match_indices("super::") {
            let before = statement[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            let mut rest = &statement[at..];
            let mut up = 0;
            while let Some(next) = rest.strip_prefix("super::") {
                up += 1;
                rest = next.trim_start();
            }
            if up > from.len() {
                continue;
            }
            let base = &from[..from.len() - up];
            for tail in paths_after(rest) {
                push(base.iter().cloned().chain(tail).collect());
            }
        }
        i += 1;
    }
    out
}

fn floor_of(module: &str) -> Option<u32> {
    FLOORS.iter().find(|(m, _)| *m == module).map(|(_, f)| *f)
}

/// Why `import` runs up a floor or across one; `None` when it is allowed.
fn offence(import: &Import) -> Option<String> {
    let (from, to) = (import.from.first()?, import.to.first()?);
    let to_floor = floor_of(to)?; // `crate::App` at the root, `self`: not a module.
    let place = format!("{}:{}", import.file, import.line);
    let Some(from_floor) = floor_of(from) else {
        return Some(format!(
            "{place}: {from} is not in the table of floors: add it to FLOORS in \
             crates/juror-cli/tests/it/shell_layers.rs"
        ));
    };
    let path = import.to.join("::");
    if from == to {
        return None;
    }
    if to_floor > from_floor {
        return Some(format!(
            "{place}: {from} (floor {from_floor}) imports {path} (floor {to_floor}), a floor up: \
             move the code down, or hand it in from above"
        ));
    }
    (to_floor == from_floor).then(|| {
        format!(
            "{place}: {from} imports {path} on its own floor ({from_floor}): move the code \
             to a floor below both"
        )
    })
}

fn all_imports() -> Vec<Import> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    assert!(
        files.len() > 30,
        "only {} files under {}",
        files.len(),
        root.display()
    );
    let mut imports = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&root).unwrap_or(&path);
        let from = module_path(relative);
        if from.len() == 1 && NOT_MODULES.contains(&from[0].as_str()) {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = format!("src/{}", relative.display());
        imports.extend(imports_of(&name, &from, &text));
    }
    imports
}

#[test]
fn no_shell_import_runs_up_or_across_a_floor() {
    let imports = all_imports();
    assert!(
        imports.len() > 100,
        "only {} imports found: is the reader broken?",
        imports.len()
    );
    let offences: Vec<String> = imports.iter().filter_map(offence).collect();
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

#[test]
fn every_module_of_the_shell_has_a_floor() {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("mod "))
        })
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert!(
        declared.len() > 5,
        "modules declared in src/lib.rs: {declared:?}"
    );
    let missing: Vec<&&str> = declared.iter().filter(|m| floor_of(m).is_none()).collect();
    assert!(missing.is_empty(), "modules without a floor: {missing:?}");
}

/// The checker on made-up files: an upward import and an import across one floor are caught,
/// in a grouped `use`, a `use` over lines and an inline path; downward ones, a module's own, the
/// crate root's items and comments are not.
#[test]
fn the_checker_catches_an_upward_import() {
    let offences = |from: &[&str], text: &str| -> Vec<String> {
        let from: Vec<String> = from.iter().map(|s| (*s).to_owned()).collect();
        imports_of("x.rs", &from, text)
            .iter()
            .filter_map(offence)
            .collect()
    };
    let allowed = "use crate::services::{dom, location};\n\
                   use super::first_page;\n\
                   use crate::App; // crate::app::Load in a comment\n\
                   let t = crate::session::write_store;\n";
    assert_eq!(offences(&["boot", "first"], allowed), Vec::<String>::new());
    let up = "use crate::{session::use_session, boot::{pressed, with}};\n\
              use crate::app::\n    Load;\n\
              let x = crate::controls::given(h, 0, f);\n\
              use super::super::annotator::Welcome;\n";
    let found = offences(&["services", "dom"], up);
    assert_eq!(found.len(), 6, "{found:#?}");
    assert!(found[0].contains("x.rs:1: services (floor 1) imports session::use_session"));
    assert!(found[3].contains("x.rs:2: services (floor 1) imports app::Load (floor 7)"));
    let across = offences(&["annotator", "trial"], "use crate::analyse::Analyse;\n");
    assert_eq!(across.len(), 1, "{across:?}");
    let unknown = offences(&["shell2"], "use crate::services::dom;\n");
    assert!(
        unknown[0].contains("not in the table of floors"),
        "{unknown:?}"
    );
}
