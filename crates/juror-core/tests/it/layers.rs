//! The core's floors, held: every `crate::` path in `src/` (in `use` lines, grouped or not, and
//! inline), and every `super::` path that climbs to another top-level module, must point to a
//! module on the same floor or below. A module on floor 1 imports nothing of Juror; the study
//! (2) knows nothing of plans; plans (3) nothing of sessions or statistics; those (4) nothing
//! of the analysis (5).
//!
//! Between two different top-level modules of one floor, only the imports listed in
//! [`SAME_FLOOR`] are allowed, so that no circle spans two top-level modules. Inside a module
//! with stages ([`STAGES`]), a stage imports only from its own stage and the ones before it.
//!
//! Comments are not read: a doc link is not an import.

use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module of `src/` and its floor. A new module goes here.
const FLOORS: &[(&str, u32)] = &[
    // 1. The base: imports nothing of Juror. Its modules stand as top-level ones ([`FLAT`]).
    ("base", 1),
    // 2. The study file: its format, the validated model, the published plans' data.
    ("study", 2),
    // 3. Plans, and the front door, which needs the planner to accept a study.
    ("plan", 3),
    ("front", 3),
    // 4. The annotator's session, the statistics, publishing.
    ("session", 4),
    ("stats", 4),
    ("publish", 4),
    // 5. The analysis report.
    ("analysis", 5),
];

/// Modules whose sub-modules each stand as a module of their floor: between two of them, as
/// between two top-level modules of one floor, only the imports in [`SAME_FLOOR`] are allowed
/// (each named `base::json`). The base gathers small modules that know nothing of each other
/// but for the few listed; the front door, three that stand in a row.
const FLAT: &[&str] = &["base", "front"];

/// The imports allowed between two different modules of one floor (top-level, or sub-modules
/// of a [`FLAT`] one): (from, to). Kept acyclic: an entry and its reverse may not both be here.
const SAME_FLOOR: &[(&str, &str)] = &[
    // Markdown is rendered into rich text's trees, with its rules for links and images.
    ("base::markdown", "base::rich"),
    // Rich trees are read out of parsed JSON with the hand-written readers' helpers.
    ("base::rich", "base::json"),
    // The front door checks slots with the planner.
    ("front::open", "plan"),
    // A study is compiled from what the front door opened (its model and its text's hash);
    // reading a compiled study needs only the study's model, so it stands below the session.
    ("front::compiled", "front::open"),
    // A compiled study carries its cover; the cover finds the link's annotator as the planner
    // does, from the slots and period it keeps.
    ("front::compiled", "front::cover"),
    ("front::cover", "plan"),
];

/// Modules cut into stages, each sub-module (the file or folder under the module) with its
/// stage: a stage imports only from its own stage and the ones before it. A sub-module not
/// listed (and the module's `mod.rs`) is not checked.
const STAGES: &[(&str, &[(&str, u32)])] = &[
    // The analysis by stage: data ← read ← topics ← report ← render ← run. The analysis
    // plan's overrides, power analysis and shared names sit beside the stages, on the first.
    (
        "analysis",
        &[
            ("data", 1),
            ("name", 1),
            ("overrides", 1),
            ("plan_reader", 1),
            ("slot", 1),
            ("read", 2),
            ("adjudication", 3),
            ("answers", 3),
            ("choices", 3),
            ("diagnostics", 3),
            ("judges", 3),
            ("payments", 3),
            ("rounds", 3),
            ("spans", 3),
            ("report", 4),
            ("power", 4),
            ("render", 5),
            ("run", 6),
        ],
    ),
];

/// Files not yet on their floor, each with what is left to do. Empty once they have moved.
const PENDING: &[(&str, &str)] = &[];

/// One import of one file: where (file, line) and which top-level module, and sub-module, it
/// reaches.
#[derive(Debug)]
struct Import {
    file: String,
    line: usize,
    /// The importing file's module path below `src/` (`["study", "validate"]`).
    from: Vec<String>,
    /// The target's path from the crate root, as far as it names modules or items.
    to: Vec<String>,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// `src/study/validate/shape.rs` → `["study", "validate", "shape"]`; `src/study/mod.rs` →
/// `["study"]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_owned();
    }
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
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
        let mut depth = 0;
        let mut start = 0;
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
                // `a::{b, c}`: the members all share the prefix.
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

/// The code of a line without its comment (a `//` outside a string), or nothing for a
/// comment line.
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

/// Every import of one file. A `use` statement is read whole (it may span lines), so that a
/// group's members are all seen; other paths are read where they stand.
fn imports_of(file: &str, from: &[String], text: &str) -> Vec<Import> {
    let lines: Vec<&str> = text.lines().map(code).collect();
    let mut out = Vec::new();
    let mut push = |line: usize, to: Vec<String>| {
        out.push(Import {
            file: file.to_owned(),
            line,
            from: from.to_vec(),
            to,
        });
    };
    let mut i = 0;
    while i < lines.len() {
        // A whole statement from here when it is a `use` that does not end on this line.
        let mut statement = lines[i].to_owned();
        let first = i;
        let trimmed = statement.trim_start();
        if (trimmed.starts_with("use ") || trimmed.starts_with("pub use "))
            || trimmed.starts_with("pub(crate) use ")
        {
            while !statement.contains(';') && i + 1 < lines.len() {
                i += 1;
                statement.push(' ');
                statement.push_str(lines[i]);
            }
        }
        for (at, _) in statement.match_indices("crate::") {
            let before = statement[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == '$') {
                continue;
            }
            for path in paths_after(&statement[at + "crate::".len()..]) {
                push(first + 1, path);
            }
        }
        for (at, _) in statement.match_indices("super::") {
            let before = statement[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            // Count the `super::`s, then climb that many modules from the file's own.
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
                push(first + 1, base.iter().cloned().chain(tail).collect());
            }
        }
        i += 1;
    }
    out
}

/// The floor of a module: a top-level one (`study`), or a sub-module of a [`FLAT`] one
/// (`base::json`), on its parent's floor.
fn floor_of(module: &str) -> Option<u32> {
    let top = module.split("::").next().unwrap_or(module);
    FLOORS.iter().find(|(m, _)| *m == top).map(|(_, f)| *f)
}

/// The module a path reaches, as the floors count them: its top-level module, or for a
/// [`FLAT`] one its sub-module (`base::json`). `None` for an item of a flat module's `mod.rs`
/// (or what a test module's `super::` reaches in its file, which the reader cannot tell apart).
fn unit(path: &[String]) -> Option<String> {
    let top = path.first()?;
    match path.get(1) {
        Some(sub) if FLAT.contains(&top.as_str()) => {
            let dir = src().join(top);
            let module = dir.join(format!("{sub}.rs")).is_file() || dir.join(sub).is_dir();
            module.then(|| format!("{top}::{sub}"))
        }
        _ => Some(top.clone()),
    }
}

fn stage_of(module: &str, sub: &str) -> Option<u32> {
    let (_, stages) = STAGES.iter().find(|(m, _)| *m == module)?;
    stages.iter().find(|(s, _)| *s == sub).map(|(_, n)| *n)
}

/// Why `import` runs up a floor, or between modules of one floor without leave, or back a
/// stage; `None` when it is allowed.
fn offence(import: &Import) -> Option<String> {
    let (from, to) = (import.from.first()?, import.to.first()?);
    let (from_unit, to_unit) = (unit(&import.from)?, unit(&import.to)?);
    let Some(to_floor) = floor_of(to) else {
        // `crate::Foo` at the root, `*`, `self`: not a module of the table.
        return None;
    };
    let Some(from_floor) = floor_of(from) else {
        return Some(format!(
            "{from} is not in the table of floors: add it to FLOORS in tests/it/layers.rs"
        ));
    };
    let place = format!("{}:{}", import.file, import.line);
    let path = import.to.join("::");
    if from_unit == to_unit {
        let (Some(a), Some(b)) = (import.from.get(1), import.to.get(1)) else {
            return None;
        };
        let (Some(sa), Some(sb)) = (stage_of(from, a), stage_of(from, b)) else {
            return None;
        };
        return (sb > sa).then(|| {
            format!("{place}: {from}::{a} (stage {sa}) imports {path} (stage {sb}), a later stage")
        });
    }
    if to_floor > from_floor {
        return Some(format!(
            "{place}: {from} (floor {from_floor}) imports {path} (floor {to_floor}), a floor up"
        ));
    }
    if to_floor == from_floor && !SAME_FLOOR.contains(&(from_unit.as_str(), to_unit.as_str())) {
        return Some(format!(
            "{place}: {from_unit} imports {path} on its own floor ({from_floor}) without leave: \
             list (\"{from_unit}\", \"{to_unit}\") in SAME_FLOOR, or move the code"
        ));
    }
    None
}

fn all_imports() -> Vec<Import> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    assert!(
        files.len() > 20,
        "only {} files under {}",
        files.len(),
        root.display()
    );
    let mut imports = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&root).unwrap_or(&path);
        let from = module_path(relative);
        if from.is_empty() {
            continue; // lib.rs declares the modules.
        }
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = format!("src/{}", relative.display());
        imports.extend(imports_of(&name, &from, &text));
    }
    imports
}

#[test]
fn no_import_runs_up_a_floor() {
    let imports = all_imports();
    assert!(
        imports.len() > 100,
        "only {} imports found: is the reader broken?",
        imports.len()
    );
    let offences: Vec<String> = imports
        .iter()
        .filter(|i| !PENDING.iter().any(|(file, _)| *file == i.file))
        .filter_map(offence)
        .collect();
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

/// A ring among `edges` (pairs of sub-modules), as the path that closes it, if there is one.
fn ring(edges: &[(String, String)]) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &[(String, String)],
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.iter().any(|n| n == node) {
            return None;
        }
        path.push(node.to_owned());
        for (_, next) in edges.iter().filter(|(from, _)| from == node) {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.push(node.to_owned());
        None
    }
    let mut done = Vec::new();
    edges
        .iter()
        .find_map(|(start, _)| visit(start, edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_ring_among_the_stages_of_a_module() {
    let imports = all_imports();
    for (module, _) in STAGES {
        let mut edges: Vec<(String, String)> = Vec::new();
        for i in &imports {
            if i.from.first().map(String::as_str) != Some(*module)
                || i.to.first().map(String::as_str) != Some(*module)
            {
                continue;
            }
            let (Some(a), Some(b)) = (i.from.get(1), i.to.get(1)) else {
                continue;
            };
            let edge = (a.clone(), b.clone());
            if a != b
                && stage_of(module, a).is_some()
                && stage_of(module, b).is_some()
                && !edges.contains(&edge)
            {
                edges.push(edge);
            }
        }
        assert!(
            ring(&edges).is_none(),
            "{module}: its sub-modules import each other in a ring: {}",
            ring(&edges).unwrap_or_default().join(" -> ")
        );
    }
}

#[test]
fn a_ring_is_found_and_a_chain_is_not() {
    let edge = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    assert_eq!(ring(&[edge("a", "b"), edge("b", "c")]), None);
    assert_eq!(
        ring(&[edge("a", "b"), edge("b", "c"), edge("c", "a")]),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

#[test]
fn every_top_level_module_has_a_floor() {
    let root = src();
    let lib = fs::read_to_string(root.join("lib.rs")).unwrap_or_else(|e| panic!("{e}"));
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert!(!declared.is_empty(), "no module declared in lib.rs");
    let missing: Vec<&&str> = declared.iter().filter(|m| floor_of(m).is_none()).collect();
    assert!(missing.is_empty(), "modules without a floor: {missing:?}");
}

#[test]
fn same_floor_leave_runs_one_way_between_modules_of_one_floor() {
    for (a, b) in SAME_FLOOR {
        assert_ne!(a, b);
        assert_eq!(floor_of(a), floor_of(b), "({a}, {b}) are not on one floor");
        assert!(!SAME_FLOOR.contains(&(b, a)), "({a}, {b}) and its reverse");
    }
}

#[test]
fn the_reader_sees_grouped_inline_and_super_paths() {
    let from = vec!["study".to_owned(), "validate".to_owned()];
    let text = "use crate::{base::csv, plan::{Trial, Shown}};\n\
                use crate::analysis::overrides::\n    AnalysisPlan;\n\
                // crate::session::x is a comment\n\
                let x = crate::session::ratings::sha256_hex(\"a\"); // crate::stats\n\
                use super::super::plan::link;\n\
                use super::model::Study;\n";
    let got: Vec<(usize, String)> = imports_of("x.rs", &from, text)
        .into_iter()
        .map(|i| (i.line, i.to.join("::")))
        .collect();
    assert_eq!(
        got,
        [
            (1, "base::csv".to_owned()),
            (1, "plan::Trial".to_owned()),
            (1, "plan::Shown".to_owned()),
            (2, "analysis::overrides::AnalysisPlan".to_owned()),
            (5, "session::ratings::sha256_hex".to_owned()),
            (6, "plan::link".to_owned()),
            (7, "study::model::Study".to_owned()),
        ]
    );
    let up: Vec<String> = imports_of("x.rs", &from, text)
        .iter()
        .filter_map(offence)
        .collect();
    assert_eq!(up.len(), 5, "{up:#?}");
}

#[test]
fn the_modules_of_the_base_import_each_other_only_with_leave() {
    let text = "use crate::base::rich::Node;\nuse crate::base::csv;\nuse super::json::Value;\n";
    let offences = |from: &[&str]| -> Vec<String> {
        let from: Vec<String> = from.iter().map(|s| (*s).to_owned()).collect();
        imports_of("x.rs", &from, text)
            .iter()
            .filter_map(offence)
            .collect()
    };
    // Markdown may use rich text, but neither CSV nor JSON.
    assert_eq!(offences(&["base", "markdown"]).len(), 2);
    // JSON's own sub-module reaches JSON through `super`: one module, no leave needed.
    assert_eq!(offences(&["base", "json", "text"]).len(), 2);
    // Above the base, all three are a floor down.
    assert!(offences(&["study", "model"]).is_empty());
}

/// The analysis plan is read from a study only by the analysis (`analysis::plan_reader`, and the
/// key's plan in the report): `study` keeps its `analysis` section as written, so that the
/// annotator's page, which reaches studies through `study` and `open`, carries no reader of the
/// plan. `AnalysisPlan::from_raw` is `pub(crate)`, so no other crate calls it; this holds the
/// core's own modules to it.
#[test]
fn only_the_analysis_reads_the_plan() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let offences: Vec<String> = files
        .iter()
        .filter(|path| {
            let relative = path.strip_prefix(&root).unwrap_or(path);
            !relative.starts_with("analysis") && relative != Path::new("study/analysis_plan.rs")
        })
        .filter(|path| {
            let text = fs::read_to_string(path).unwrap_or_default();
            text.lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .any(|l| l.contains("from_raw(") || l.contains("plan_reader"))
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        offences.is_empty(),
        "these files read the analysis plan outside the analysis: {offences:?}"
    );
}
