//! The repository stands on its own: no tracked file reads from outside it (a folder beside the
//! clone, an absolute path of somebody's machine), and the README's `juror` examples run as
//! written from a clone.

use std::process::Command;

use super::support::{self, root};

/// Every file git tracks, with its text (binary files are skipped: they name no paths).
pub fn tracked_files() -> Vec<(String, String)> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git must be on PATH to list the tracked files");
    assert!(
        out.status.success(),
        "git ls-files failed in {}: {}",
        root().display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let names: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .split('\0')
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .collect();
    assert!(
        names.len() > 100,
        "git lists {} files in {}: is this a clone of Juror?",
        names.len(),
        root().display()
    );
    names
        .into_iter()
        .filter_map(|name| {
            // A file deleted in the work tree but not yet in the index is not there to check.
            let bytes = std::fs::read(root().join(&name)).ok()?;
            let text = String::from_utf8(bytes).ok()?;
            Some((name, text))
        })
        .collect()
}

/// What a tracked file may not name: the material folder beside the clone, and the absolute
/// paths where this project has been built. Spelt in pieces so that this file does not match.
fn forbidden() -> Vec<String> {
    let up = "..";
    vec![
        format!("{up}/shared"),
        format!("/{}/shared", "work"),
        format!("/{}/main", "work"),
        format!("/{}/", "root"),
        format!("/{}/", "home"),
        format!("/{}/", "Users"),
    ]
}

/// Lines allowed to name such a path, as `file: fragment`: the study validator's own tests of
/// the paths it must refuse.
const ALLOWED: &[(&str, &str)] = &[
    (
        "crates/juror-core/src/study/validate/tests.rs",
        concat!("\"..", "/shared/figure.png\""),
    ),
    (
        "crates/juror-core/src/study/validate/tests.rs",
        concat!("\"file:///", "home/me/a.png\""),
    ),
];

/// Each line of `text` (the file `name`) that names a forbidden path, as `name:line: ...`.
fn offences(name: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for needle in forbidden() {
            let allowed = ALLOWED
                .iter()
                .any(|(file, fragment)| *file == name && line.contains(fragment));
            if line.contains(needle.as_str()) && !allowed {
                found.push(format!("{name}:{}: names {needle}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_tracked_file_names_a_path_outside_the_repository() {
    let found: Vec<String> = tracked_files()
        .iter()
        .flat_map(|(name, text)| offences(name, text))
        .collect();
    assert!(
        found.is_empty(),
        "tracked files name paths outside the repository; copy what they need into the \
         repository (data/ for data sets) and point them there:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_guard_catches_what_it_must_and_only_that() {
    let up = "..";
    let text = format!(
        "let data = \"{up}/shared/datasets/x.csv\";\nok\nDIR = \"/{w}/shared/datasets\"\n",
        w = "work"
    );
    let found = offences("crates/x.rs", &text);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with(&format!("crates/x.rs:1: names {up}/shared")),
        "{found:?}"
    );
    assert!(
        found[1].starts_with(&format!("crates/x.rs:3: names /{}/shared", "work")),
        "{found:?}"
    );
    // The validator's own test of a path it refuses is allowed, and only in its file.
    let line = format!("            \"{up}/shared/figure.png\",");
    assert!(offences("crates/juror-core/src/study/validate/tests.rs", &line).is_empty());
    assert_eq!(offences("README.md", &line).len(), 1);
    // The files checked are the repository's, data sets included.
    let files = tracked_files();
    assert!(files.iter().any(|(name, _)| name == "README.md"));
    assert!(
        files
            .iter()
            .any(|(name, _)| name == "data/summeval/summeval_summaries.jsonl"),
        "the data sets are tracked"
    );
}

/// Splits one shell command line: words, and "double-quoted" strings (all the README uses).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    assert!(!quoted, "unclosed quote in {line:?}");
    if started {
        words.push(word);
    }
    words
}

/// The README's `juror ...` commands (in ```sh blocks, continuation lines joined). Commands
/// about the reader's own files (`private/mine.json`) are in ```console blocks, not run.
fn readme_commands() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut commands = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = line == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        pending.push_str(line.trim_end_matches('\\'));
        pending.push(' ');
        if line.ends_with('\\') {
            continue;
        }
        let words = shell_words(&pending);
        pending.clear();
        if words.first().is_some_and(|w| w == "juror") {
            commands.push(words[1..].to_vec());
        }
    }
    commands
}

#[test]
fn the_readme_juror_examples_run_from_a_clone() {
    let commands = readme_commands();
    assert!(
        commands.len() >= 2,
        "the README's juror examples: {commands:?}"
    );
    let out_dir = std::env::temp_dir().join(format!("juror-readme-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    for mut args in commands {
        // Whatever the example writes goes to a temporary folder, not into the clone.
        if let Some(i) = args.iter().position(|a| a == "--out") {
            args[i + 1] = out_dir.join(&args[i + 1]).display().to_string();
        }
        let out = support::juror()
            .args(&args)
            .current_dir(root())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "juror {}: {}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(i) = args.iter().position(|a| a == "--out") {
            let text = std::fs::read_to_string(&args[i + 1]).unwrap();
            juror_core::study::parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
        } else {
            assert!(
                !out.stdout.is_empty(),
                "juror {}: no output",
                args.join(" ")
            );
        }
    }
}

/// `assets/studies/examples.sha256` names every bundled example by its SHA-256, so that the
/// site check lets the public demos through and nothing else unpublished (regenerate with
/// `(cd assets/studies && sha256sum *.json) > assets/studies/examples.sha256`).
#[test]
fn the_example_checksums_are_current() {
    let dir = root().join("assets/studies");
    let mut want = String::new();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() >= 6, "{names:?}");
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let hash = juror_core::base::digest::sha256_hex(&text);
        want.push_str(&format!("{hash}  {name}\n"));
    }
    let listed = std::fs::read_to_string(dir.join("examples.sha256")).unwrap();
    assert_eq!(listed, want, "regenerate assets/studies/examples.sha256");
}

/// A fresh site in the temporary folder (`TAG-<pid>`) with the bundled example `study`
/// published into it by `juror publish`; its `studies/` folder.
fn published_site(tag: &str, study: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let publish = support::juror()
        .arg("publish")
        .arg(root().join("assets/studies").join(study))
        .args(["--site".as_ref(), site.as_os_str()])
        .args(["--keys".as_ref(), keys.as_os_str()])
        .output()
        .unwrap();
    assert!(publish.status.success(), "{publish:?}");
    site.join("studies")
}

/// `scripts/check-published-studies` (run by the Pages workflow before deploying) lets a
/// published study and a bundled example through, and refuses a study as written.
#[test]
fn the_site_check_refuses_a_study_that_is_not_published() {
    let examples = root().join("assets/studies");
    let studies = published_site("juror-site-check", "financial-analysis.json");
    std::fs::rename(
        studies.join("financial-analysis.json"),
        studies.join("mine-published.json"),
    )
    .unwrap();
    std::fs::copy(
        examples.join("work-intake.json"),
        studies.join("work-intake.json"),
    )
    .unwrap();
    let check = || {
        Command::new("bash")
            .arg(root().join("scripts/check-published-studies"))
            .arg(&studies)
            .env("JUROR", env!("CARGO_BIN_EXE_juror"))
            .output()
            .unwrap()
    };
    // The example and the published study pass as written, then compiled as a site's build
    // compiles the studies it serves.
    for (round, example_is) in [
        "a bundled example",
        "a bundled example (public demo data), compiled",
    ]
    .into_iter()
    .enumerate()
    {
        if round == 1 {
            let compile = Command::new(env!("CARGO_BIN_EXE_juror"))
                .args(["compile", "--in-place"])
                .arg(studies.join("work-intake.json"))
                .arg(studies.join("mine-published.json"))
                .output()
                .unwrap();
            assert!(compile.status.success(), "{compile:?}");
        }
        let out = check();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        assert!(
            text.contains(&format!("work-intake.json: {example_is}")),
            "{text}"
        );
        assert!(text.contains("1 published study file(s)"), "{text}");
    }

    // An example edited into one's own study is a study like any other: refused.
    let mut mine: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(examples.join("work-intake.json")).unwrap())
            .unwrap();
    mine["title"] = "My study".into();
    std::fs::write(studies.join("mine.json"), mine.to_string()).unwrap();
    let out = check();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("mine.json: not published"), "{text}");
    assert!(text.contains("nothing is deployed"), "{text}");
}

/// `scripts/check-published-studies` looks at every file under the folder, subfolders too: a
/// published study and media in a subfolder pass; a study as written in a subfolder, a study
/// under `.JSON` or `.json~`, and JSON under another name are refused, each named.
#[test]
fn the_site_check_reads_every_file_in_every_subfolder() {
    let examples = root().join("assets/studies");
    let studies = published_site("juror-site-nested", "video-trajectories.json");
    let nested = studies.join("pilot");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::rename(
        studies.join("video-trajectories.json"),
        nested.join("published.json"),
    )
    .unwrap();
    let check = || {
        let out = Command::new("bash")
            .arg(root().join("scripts/check-published-studies"))
            .arg(&studies)
            .env("JUROR", env!("CARGO_BIN_EXE_juror"))
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = check();
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("1 published study file(s)"), "{text}");

    let original = std::fs::read_to_string(examples.join("financial-analysis.json")).unwrap();
    let mut mine: serde_json::Value = serde_json::from_str(&original).unwrap();
    mine["title"] = "My study".into();
    let mine = mine.to_string();
    let odd = [
        "pilot/mine.json",
        "mine.JSON",
        "mine.json~",
        "media/mine.json.bak",
        "media/notes.txt",
    ];
    for name in odd {
        // Byte-order mark and blank space first: JSON all the same.
        let text = if name.ends_with(".json") {
            mine.clone()
        } else {
            format!("\u{feff}\n  {mine}")
        };
        std::fs::write(studies.join(name), text).unwrap();
    }
    let (code, text) = check();
    assert_eq!(code, Some(1), "{text}");
    for name in odd {
        let path = studies.join(name);
        assert!(
            text.contains(&format!("{}: ", path.display())),
            "{name}: {text}"
        );
    }
    assert!(text.contains("pilot/mine.json: not published"), "{text}");
    assert!(
        text.contains("mine.JSON: not checked under this name"),
        "{text}"
    );
    assert!(text.contains("notes.txt: holds JSON"), "{text}");
    assert!(text.contains("nothing is deployed"), "{text}");
    // The published study and the media still pass: only the five are named.
    assert!(!text.contains("published.json: not"), "{text}");
    assert!(!text.contains(".webm:"), "{text}");
}

/// The README's worked example is `assets/studies/kitchen-qa.json`, word for word, and valid.
#[test]
fn the_readme_worked_example_is_the_committed_example_and_valid() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let example = std::fs::read_to_string(root().join("assets/studies/kitchen-qa.json")).unwrap();
    let block = readme
        .split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split("```").next())
        .find(|block| block.contains("\"id\": \"kitchen-qa\""))
        .expect("the README shows the kitchen-qa study in a ```json block");
    assert_eq!(
        block, example,
        "README's worked example and assets/studies/kitchen-qa.json"
    );
    let study = juror_core::study::parse_study(&example).unwrap_or_else(|p| panic!("{p}"));
    assert!(juror_core::study::warnings::warnings(&study).is_empty());
    assert!(study.consent().is_some() && study.debrief().is_some());
}

/// Each mistake of the README's "Common mistakes", made in the worked example, gets from the
/// validator exactly the lines the README shows: the section cannot drift from the messages.
#[test]
fn the_readme_common_mistakes_show_the_validators_words() {
    use serde_json::{Value, json};
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("### Common mistakes")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a Common mistakes section");
    let example = std::fs::read_to_string(root().join("assets/studies/kitchen-qa.json")).unwrap();
    let base: Value = serde_json::from_str(&example).unwrap();
    let rename = |obj: &mut Value, from: &str, to: &str| {
        let map = obj.as_object_mut().unwrap();
        let v = map.remove(from).unwrap();
        map.insert(to.to_owned(), v);
    };
    type Mistake = Box<dyn Fn(&mut Value)>;
    let mistakes: Vec<(&str, Mistake)> = vec![
        (
            "consent as text",
            Box::new(|d| d["consent"] = json!("I agree to take part.")),
        ),
        ("seed in quotes", Box::new(|d| d["seed"] = json!("2024"))),
        (
            "intake at the top level",
            Box::new(|d| {
                d["intake"] = d["surveys"]["intake"].take();
                d.as_object_mut().unwrap().remove("surveys");
            }),
        ),
        (
            "prompt in a dimension",
            Box::new(move |d| rename(&mut d["rubric"]["dimensions"][0], "question", "prompt")),
        ),
        (
            "question in a survey question",
            Box::new(move |d| rename(&mut d["surveys"]["intake"][0], "prompt", "question")),
        ),
        (
            "a question type that does not exist",
            Box::new(|d| d["surveys"]["intake"][0]["type"] = json!("choice")),
        ),
        (
            "a list for Markdown",
            Box::new(|d| d["instructions"] = json!(["Rate each answer.", "Then compare them."])),
        ),
        (
            "the preference as a word",
            Box::new(|d| d["design"]["tasks"][1]["preference"] = json!("choice")),
        ),
    ];
    let mut lines = 0;
    for (what, make) in &mistakes {
        let mut doc = base.clone();
        make(&mut doc);
        let problems = juror_core::study::parse_study(&doc.to_string())
            .err()
            .unwrap_or_else(|| panic!("{what}: accepted"));
        // The note that more checks follow is docs/study-format.md's, not each mistake's.
        for p in problems
            .iter()
            .filter(|p| p.at != juror_core::base::problem::NOT_YET_CHECKED)
        {
            lines += 1;
            let line = format!("  {p}\n");
            assert!(
                section.contains(&line),
                "{what}: the README's Common mistakes lacks the validator's line\n{line}"
            );
        }
    }
    // Every line shown is one of these mistakes' (none left over from an older message).
    let shown = section
        .split("```text\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .map(|block| block.lines().filter(|l| !l.trim().is_empty()).count())
        .sum::<usize>();
    assert_eq!(shown, lines, "lines in the README's Common mistakes");
}

/// The headings of the document `relative` (to the root), as a message names them: without `#`
/// and backticks. Lines in fenced code blocks are not headings.
fn headings(relative: &str) -> Vec<String> {
    let text = std::fs::read_to_string(support::fixture(relative)).unwrap();
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.push(line.trim_start_matches('#').trim().replace('`', ""));
        }
    }
    found
}

/// Every `DOC, "Section"` (`README, "Section"`, `docs/hosting.md, "Section"`) that a message, a
/// page or a doc names (the Analyse page's no-JavaScript message, the CLI's warnings), in
/// tracked files outside the tests, as (file, section). Rust strings are read as their value:
/// `\"` is a quote, and a `\` at a line's end joins the next line without its indentation.
fn sections_named(doc: &str) -> Vec<(String, String)> {
    let needle = format!("{doc}, \"");
    let mut named = Vec::new();
    for (name, text) in tracked_files() {
        if name.starts_with("tests/") || name.contains("/tests/") {
            continue;
        }
        let mut text = text.replace("\\\"", "\"");
        if name.ends_with(".rs") {
            let mut joined = String::new();
            let mut rest = text.as_str();
            while let Some(at) = rest.find("\\\n") {
                joined.push_str(&rest[..at]);
                rest = rest[at + 2..].trim_start();
            }
            joined.push_str(rest);
            text = joined;
        }
        for (at, _) in text.match_indices(&needle) {
            let after = &text[at + needle.len()..];
            if let Some(end) = after.find('"') {
                named.push((name.clone(), after[..end].to_owned()));
            }
        }
    }
    named
}

#[test]
fn every_readme_section_a_message_names_is_a_heading_of_the_readme() {
    let headings = headings("README.md");
    let named = sections_named("README");
    assert!(
        named
            .iter()
            .any(|(file, _)| file == "assets/analyse.template.html"),
        "the Analyse page's no-JavaScript message names a README section: {named:?}"
    );
    assert!(
        named
            .iter()
            .any(|(file, _)| file == "crates/juror-cli/src/cmd/validate.rs"),
        "the validator names a README section: {named:?}"
    );
    let missing: Vec<_> = named
        .iter()
        .filter(|(_, section)| !headings.contains(section))
        .collect();
    assert!(
        missing.is_empty(),
        "README sections named but not headings of README.md: {missing:?}\nheadings: {headings:?}"
    );
}

/// The CLI's warnings about hosting, recruiting and sending files name sections of
/// `docs/hosting.md` (`docs/hosting.md, "Recruiting on a platform"`): each is a heading there.
#[test]
fn every_hosting_section_a_message_names_is_a_heading_of_docs_hosting() {
    let headings = headings("docs/hosting.md");
    let named = sections_named("docs/hosting.md");
    for file in [
        "crates/juror-cli/src/cmd/links.rs",
        "crates/juror-cli/src/cmd/publish.rs",
        "crates/juror-cli/src/cmd/validate.rs",
    ] {
        assert!(
            named.iter().any(|(f, _)| f == file),
            "{file} names a section of docs/hosting.md: {named:?}"
        );
    }
    let missing: Vec<_> = named
        .iter()
        .filter(|(_, section)| !headings.contains(section))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/hosting.md sections named but not its headings: {missing:?}\nheadings: {headings:?}"
    );
}

/// A heading's anchor as GitHub makes it: lower case, spaces to `-`, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' | '-' => Some('-'),
            '_' => Some('_'),
            c if c.is_alphanumeric() => Some(c.to_lowercase().next().unwrap_or(c)),
            _ => None,
        })
        .collect()
}

/// The relative links of a Markdown text, `[text](target)`, outside fenced code blocks.
fn relative_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (at, _) in line.match_indices("](") {
            let rest = &line[at + 2..];
            let Some(end) = rest.find(')') else {
                continue;
            };
            let target = &rest[..end];
            if !target.contains("://") && !target.starts_with("mailto:") {
                links.push(target.to_owned());
            }
        }
    }
    links
}

/// The guides a reader starts from link to files that exist, and to headings those files have.
#[test]
fn the_readme_and_the_guides_link_to_files_and_headings_that_exist() {
    let mut broken = Vec::new();
    for doc in [
        "README.md",
        "CONTRIBUTING.md",
        "docs/hosting.md",
        "docs/cli.md",
    ] {
        let text = std::fs::read_to_string(support::fixture(doc)).unwrap();
        let dir = std::path::Path::new(doc).parent().unwrap();
        let links = relative_links(&text);
        assert!(!links.is_empty() || doc == "docs/cli.md", "{doc}: no links");
        for link in links {
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                doc.to_owned()
            } else {
                let joined = root().join(dir).join(file);
                match joined.canonicalize() {
                    Ok(path) => path
                        .strip_prefix(root())
                        .map(|p| p.display().to_string())
                        .unwrap_or_default(),
                    Err(_) => {
                        broken.push(format!("{doc}: {link}: no such file"));
                        continue;
                    }
                }
            };
            if !fragment.is_empty() && target.ends_with(".md") {
                let anchors: Vec<String> = headings(&target).iter().map(|h| anchor(h)).collect();
                if !anchors.iter().any(|a| a == fragment) {
                    broken.push(format!("{doc}: {link}: no heading #{fragment} in {target}"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(
        anchor("Answers trapped in a browser: juror recover"),
        "answers-trapped-in-a-browser-juror-recover"
    );
    assert_eq!(anchor("juror validate-ratings"), "juror-validate-ratings");
    assert_eq!(anchor("The juror command"), "the-juror-command");
}

#[test]
fn relative_links_are_found_outside_code_blocks() {
    let text = "see [a](docs/x.md#y), [b](https://example.org) and [c](#z)\n```\n[d](no.md)\n```\n";
    assert_eq!(relative_links(text), ["docs/x.md#y", "#z"]);
}

/// `pip install juror-cli` is how the README installs the command: the wheel's project is the
/// `juror` binary (maturin's `bin` bindings) at the crate's version, the release workflow
/// builds and smoke-tests it on a version tag, and `scripts/wheel` does the same here.
#[test]
fn the_command_is_packaged_as_a_wheel_of_the_juror_binary() {
    let read = |path: &str| std::fs::read_to_string(root().join(path)).unwrap();
    let pyproject = read("crates/juror-cli/pyproject.toml");
    for line in [
        "name = \"juror-cli\"",
        "bindings = \"bin\"",
        "dynamic = [\"version\"]",
        "readme = \"README.pypi.md\"",
    ] {
        assert!(pyproject.contains(line), "pyproject.toml lacks {line}");
    }
    assert!(root().join("crates/juror-cli/README.pypi.md").is_file());
    let cargo = read("crates/juror-cli/Cargo.toml");
    assert!(cargo.contains("name = \"juror\""), "the binary is `juror`");
    assert!(read("README.md").contains("pip install juror-cli"));
    let release = read(".github/workflows/release.yml");
    for step in [
        "tags: ['v*']",
        "maturin-action",
        "--no-index wheels/*.whl",
        "validate assets/studies/kitchen-qa.json",
        "gh-action-pypi-publish",
    ] {
        assert!(release.contains(step), "release.yml lacks {step}");
    }
    let script = read("scripts/wheel");
    assert!(script.contains("maturin\" build --release --locked -m crates/juror-cli/Cargo.toml"));
}
