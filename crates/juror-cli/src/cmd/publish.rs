//! `juror publish`: the studies a site serves, blinded (sealed, plans computed, attention
//! checks kept in the key), written with their media under SITE/studies/, their keys apart,
//! and optionally a link per annotator slot.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use juror_core::front::compiled;
use juror_core::plan::{Platform, platform_links};
use juror_core::publish::{self, Candidate, Problem, SITE_FOLDER, SealKey, Severity, SlotsProblem};
use juror_core::study::Study;
use juror_core::study::raw::RawStudy;

use super::links::{platform, warn_about_platform};
use crate::files::{load_raw, open_study, pretty, report, write_atomically};

/// Publish studies for annotators, blinded: each study is sealed (system ids become tokens,
/// attention-check answers move to the key) and written with its media under
/// SITE/studies/ (compiled, juror.compiled/3, when SITE is a built site: it holds index.html);
/// the keys go only to KEYS. With --base-url, one link per annotator slot is
/// printed and written to KEYS/links.csv. Refuses a study whose text names a system or whose
/// completion has a fail_code, and a KEYS folder inside SITE; never overwrites a key.
#[derive(clap::Args)]
pub struct Args {
    /// The original studies (keep them private, with the keys).
    #[arg(required = true)]
    studies: Vec<PathBuf>,
    /// The site folder: sealed studies and media go to SITE/studies/ (`assets` in this
    /// repository, which Trunk publishes as `studies/`).
    #[arg(long)]
    site: PathBuf,
    /// The private folder for the keys (one STUDY.key.json per study) and links.csv: outside
    /// SITE, and git-ignored (a warning otherwise), such as private/keys.
    #[arg(long)]
    keys: PathBuf,
    /// The address the site is served at, such as https://you.github.io/juror/.
    #[arg(long)]
    base_url: Option<String>,
    /// With --base-url: the links carry this platform's placeholders for the participant's
    /// id (prolific, mturk or sona), as `juror links --platform` writes them.
    #[arg(long, requires = "base_url")]
    platform: Option<String>,
    /// Publish even where a study's text names a system (sealing cannot hide that).
    #[arg(long)]
    allow_named: bool,
    /// Replace a study the site already serves under the same file name. Annotators part-way
    /// through are sent back to the welcome page of the new version, and ratings of the two
    /// versions are analysed apart, each with its own copy and key; without it, publishing
    /// over a served study is refused (publish an edited study under a new file name and id).
    #[arg(long)]
    replace: bool,
    /// How many slots' plans to publish for a study without an `assignment` (default: the
    /// smallest whole number of counterbalancing periods, the rows of its Williams design,
    /// that is 12 or more); a study with one publishes its own slots.
    #[arg(long)]
    slots: Option<u32>,
    /// A file of annotator ids, one per line (blank lines and lines starting with # are
    /// skipped): each gets a published plan of their own, with the items `for` their id; the
    /// n-th listed does slot n's shared items. Needed when items are for annotator ids.
    #[arg(long, value_name = "FILE")]
    annotators: Option<PathBuf>,
}

/// One study of `juror publish`, checked and sealed, before anything is written.
struct Publication {
    source: PathBuf,
    file_name: String,
    study: Study,
    sealed: RawStudy,
    key: SealKey,
    key_path: PathBuf,
    media: Vec<String>,
}

/// Checks the keys folder (exit 2 inside the site; a warning unless git ignores it), then every
/// study (the rules of [`publish::check`]: valid, no system named in its text unless allowed,
/// no fail code, media present inside its folder, no key already there, no two with one file
/// name) and writes nothing unless all pass (exit 1, or 2 for an existing key or an I/O
/// error). Then for each study: the key, the sealed study, its media; and links.csv with
/// --base-url (and the platform's placeholders, if one is named).
pub fn run(args: Args) -> ExitCode {
    let platform = match platform(args.platform.as_deref()) {
        Ok(platform) => platform,
        Err(code) => return code,
    };
    if let Err(code) = check_keys_folder(&args.keys, &args.site) {
        return code;
    }
    let mut publications: Vec<Publication> = Vec::new();
    let mut refused = false;
    for source in &args.studies {
        match prepare(&args, source, &publications, platform) {
            Ok((refuses, publication)) => {
                refused |= refuses;
                publications.extend(publication);
            }
            Err(code) => return code,
        }
    }
    if refused {
        errln!("nothing was published");
        return ExitCode::FAILURE;
    }
    let links_to = args.base_url.as_deref().map(|base| (base, platform));
    match write(&args, &publications, links_to) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Checks and seals one study, printing its problems: whether it refuses publication, and the
/// publication unless the study cannot be sealed at all. `Err` is the exit code when nothing
/// more can be done.
fn prepare(
    args: &Args,
    source: &Path,
    earlier: &[Publication],
    platform: Option<Platform>,
) -> Result<(bool, Option<Publication>), ExitCode> {
    let raw = load_raw(source)?;
    let Ok(original) = juror_core::analysis::plan_reader::validate(&raw) else {
        return Err(ExitCode::FAILURE);
    };
    warn_about_platform(source, &original, platform);
    // A path that can be read as a file has a file name.
    let Some(file_name) = source.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        errln!("{}: not a file name", source.display());
        return Err(ExitCode::from(2));
    };
    let key_path = args.keys.join(publish::key_file_name(&file_name));
    let folder = source.parent().unwrap_or(Path::new("."));
    let missing: Vec<String> = publish::media(&raw)
        .into_iter()
        .map(|m| m.src)
        .filter(|src| publish::inside_folder(src) && !folder.join(src).is_file())
        .collect();
    let names: Vec<&str> = earlier.iter().map(|p| p.file_name.as_str()).collect();
    let annotators = annotator_ids(args.annotators.as_deref())?;
    let problems = publish::check(&Candidate {
        raw: &raw,
        file_name: &file_name,
        earlier: &names,
        key_exists: key_path.exists(),
        served: args.site.join(SITE_FOLDER).join(&file_name).exists(),
        replace: args.replace,
        missing: &missing,
        allow_named: args.allow_named,
        annotators: &annotators,
    });
    let mut refused = false;
    for problem in &problems {
        errln!("{}", message(args, source, &file_name, &key_path, problem));
        match problem.severity() {
            Severity::Warning => {}
            Severity::Refusal => refused = true,
            Severity::Stop => return Err(ExitCode::from(2)),
        }
    }
    if problems.contains(&Problem::AlreadySealed) {
        return Ok((true, None));
    }
    let mut secret = [0u8; 32];
    if let Err(e) = getrandom::fill(&mut secret) {
        errln!("no source of randomness: {e}");
        return Err(ExitCode::from(2));
    }
    let slots = match publish::slots(&original, args.slots) {
        Ok(n) => n,
        Err(SlotsProblem::Conflict { asked, fixed }) => {
            errln!(
                "{}: --slots {asked}, but the study's assignment fixes {fixed} slots",
                source.display()
            );
            return Err(ExitCode::from(2));
        }
        Err(SlotsProblem::Zero) => {
            errln!("--slots 0: give the number of annotator links to publish");
            return Err(ExitCode::from(2));
        }
    };
    let (sealed, key) = publish::publish(&raw, &original, &secret, slots, &annotators);
    let study = match juror_core::analysis::plan_reader::validate(&sealed) {
        Ok(study) => study,
        Err(problems) => return Err(report(source, &problems)),
    };
    let publication = Publication {
        source: source.to_path_buf(),
        media: publish::media_files(&raw),
        file_name,
        study,
        sealed,
        key,
        key_path,
    };
    Ok((refused, Some(publication)))
}

/// The ids of `--annotators FILE`, one per line, without blank lines and `#` comments; none
/// without the option. `Err` (exit 2) when the file cannot be read.
fn annotator_ids(path: Option<&Path>) -> Result<Vec<String>, ExitCode> {
    let Some(path) = path else {
        return Ok(Vec::new());
    };
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect()),
        Err(e) => {
            errln!("{}: {e}", path.display());
            Err(ExitCode::from(2))
        }
    }
}

/// What `juror publish` says about `problem` of the study at `path`, named `file_name`, whose
/// key would be written to `key_path`.
fn message(
    args: &Args,
    path: &Path,
    file_name: &str,
    key_path: &Path,
    problem: &Problem,
) -> String {
    let source = path.display();
    match problem {
        Problem::PersonalUnlisted { ids } => format!(
            "{source}: items are for annotator {} ({}), whom --annotators does not list: \
             published plans are per slot, so those items would never be shown; list every \
             such id in a file, one per line, and publish with --annotators FILE",
            if ids.len() == 1 { "id" } else { "ids" },
            ids.join(", ")
        ),
        Problem::ListedWithoutItems { ids } => format!(
            "warning: {source}: no item is for {} ({}) of --annotators: they do a slot's \
             plan like anyone",
            if ids.len() == 1 {
                "the annotator"
            } else {
                "the annotators"
            },
            ids.join(", "),
        ),
        Problem::PersonalContext { items } => format!(
            "warning: {source}: {items} personal item(s) carry a context; the published study \
             names no participant (their ids are keyed), but anyone with its address can read \
             every item: keep anything that identifies a participant out of prompts, contexts \
             and outputs"
        ),
        Problem::NamesParticipant { at } => format!(
            "warning: {source}: {at} contains the id of an annotator the item is for; the \
             published study is public, so anyone with its address would read it: rename or \
             reword it unless the id identifies no one (a lab code such as p01)"
        ),
        Problem::AlreadySealed => format!(
            "{source}: already sealed (its systems are tokens); publish the original study, so \
             that the key is written"
        ),
        Problem::NamesSystem {
            at,
            system,
            allowed,
        } => format!(
            "{what}: {source}: {at} names system \"{system}\"; sealing cannot hide that: reword it{or}",
            what = if *allowed { "warning" } else { "refused" },
            or = if *allowed {
                ""
            } else {
                " (or pass --allow-named)"
            }
        ),
        Problem::SameFileName => format!(
            "{source}: another study given is also named {}; they would overwrite each other in {}",
            file_name,
            args.site.join(SITE_FOLDER).display()
        ),
        Problem::KeyExists => format!(
            "{}: a key is already there; overwriting it would lose the way to unblind the \
             ratings of the study published with it. Publish an edited study under another \
             file name (and study id); or, to replace it, move the key away and keep it with \
             the copy the site serves now: the ratings files returned so far are read with \
             them (juror analyze --study OLD-COPY --key OLD-KEY).",
            key_path.display()
        ),
        Problem::AlreadyServed { replace: false } => format!(
            "{source}: {} is already served to annotators. Publishing over it sends anyone \
             part-way through back to its welcome page, and the ratings files returned so far \
             are then refused against the new copy. Publish the edited study under a new file \
             name and study id (a study of its own), or give --replace to replace it (keep the \
             old copy and key: its ratings are analysed with them, apart).",
            args.site.join(SITE_FOLDER).join(file_name).display()
        ),
        Problem::AlreadyServed { replace: true } => format!(
            "warning: {source}: replacing {}: annotators part-way through start the new \
             version from its welcome page (their earlier answers stay in their browser, to \
             download and send); ratings of the old version are analysed with its own copy \
             and key, apart.",
            args.site.join(SITE_FOLDER).join(file_name).display()
        ),
        Problem::MediaOutside { owner, src } => format!(
            "{source}: {owner}: media \"{src}\" is outside the study's folder; move it into \
             the folder (for example media/) and give a path relative to the study"
        ),
        Problem::MediaMissing { owner, src } => format!(
            "{source}: {owner}: media {} is missing",
            path.parent().unwrap_or(Path::new(".")).join(src).display()
        ),
        Problem::FailCodeNeverApplies { fail_code } => format!(
            "{source}: completion.fail_code \"{fail_code}\" would never be given: a published \
             study keeps its attention checks in the key, so the page cannot tell who failed \
             one (and the code would be public in the study file). Remove fail_code, give \
             everyone completion.code, and find who failed a check with `juror analyze --key` \
             before you pay (docs/hosting.md, \"Recruiting on a platform\")."
        ),
    }
}

/// Refuses (exit 2) a keys folder inside the site folder, where the key (token map,
/// attention-check answers, the ids' secret) would be served with the studies; warns unless
/// `git check-ignore` says the keys folder is ignored, so that it cannot be committed to a
/// public repository.
fn check_keys_folder(keys: &Path, site: &Path) -> Result<(), ExitCode> {
    let (keys_at, site_at) = (resolved(keys), resolved(site));
    if keys_at.starts_with(&site_at) {
        errln!(
            "--keys {}: inside the site folder {}, so the keys would be served with the \
             studies and unblind them; keep them apart, for example --keys private/keys \
             (git-ignored)",
            keys.display(),
            site.display()
        );
        return Err(ExitCode::from(2));
    }
    let folder = existing_ancestor(&keys_at);
    let ignored = std::process::Command::new("git")
        .arg("check-ignore")
        .arg("-q")
        .arg(&keys_at)
        .current_dir(&folder)
        .stderr(std::process::Stdio::null())
        .status()
        .map(|s| s.code());
    match ignored {
        Ok(Some(0)) => {}
        Ok(Some(1)) => errln!(
            "warning: --keys {}: git does not ignore it, so a commit could put the keys in a \
             public repository; add it to .gitignore (or use private/keys: private/ is ignored)",
            keys.display()
        ),
        _ => errln!(
            "warning: --keys {}: not in a git repository (or git is missing), so nothing checked \
             that it is ignored; keep the keys out of anything you publish",
            keys.display()
        ),
    }
    Ok(())
}

/// `path` made absolute, with symbolic links and `..` of its existing part resolved, and the
/// rest (folders not made yet) appended as written, `.` and `..` resolved by name.
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let base = existing_ancestor(&absolute);
    let mut out = base.canonicalize().unwrap_or_else(|_| base.clone());
    for part in absolute
        .strip_prefix(&base)
        .unwrap_or(Path::new(""))
        .components()
    {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(name) => out.push(name),
            _ => {}
        }
    }
    out
}

/// The longest leading part of `path` that exists (the root at worst).
fn existing_ancestor(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|a| a.exists())
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
}

/// Writes every publication: the key first (a published study without its key could never be
/// unblinded), the sealed study, its media; then links.csv when `links_to` names the site.
fn write(
    args: &Args,
    publications: &[Publication],
    links_to: Option<(&str, Option<Platform>)>,
) -> Result<(), ExitCode> {
    let studies_dir = args.site.join(SITE_FOLDER);
    for dir in [args.keys.as_path(), studies_dir.as_path()] {
        if let Err(e) = std::fs::create_dir_all(dir) {
            errln!("{}: cannot create the folder: {e}", dir.display());
            return Err(ExitCode::from(2));
        }
    }
    // A built site (its index.html beside): the studies go in compiled, as its build would
    // have compiled them, since the annotator's page plays compiled studies only.
    let built = args.site.join("index.html").is_file();
    let mut links = String::from("study_id,slot,url\n");
    for p in publications {
        write_atomically(&p.key_path, &pretty(&p.key))?;
        let out = studies_dir.join(&p.file_name);
        let sealed = pretty(&p.sealed);
        let served = if built {
            let opened = open_study(&out, &sealed)?;
            compiled::compile(&opened, super::compile::render)
        } else {
            sealed
        };
        write_atomically(&out, &served)?;
        if built {
            outln!(
                "{}: compiled for the built site ({})",
                out.display(),
                compiled::FORMAT
            );
        }
        copy_media(p, &studies_dir)?;
        outln!(
            "{}: published as {} ({} slots' plans, {} systems under {} output tokens, {} media file(s)); key: {} (keep it private)",
            p.source.display(),
            out.display(),
            p.study.design().plans.as_ref().map_or(0, Vec::len),
            p.study.system_count(),
            p.key.systems.len(),
            p.media.len(),
            p.key_path.display()
        );
        if let Some((base, platform)) = links_to {
            let path = publish::site_path(&p.file_name);
            for (slot, url) in platform_links(&p.study, base, &path, platform) {
                outln!("  slot {slot}: {url}");
                links.push_str(&juror_core::base::csv::line(&[
                    p.study.id().to_owned(),
                    slot.to_string(),
                    url,
                ]));
            }
        }
    }
    if links_to.is_some() {
        let path = args.keys.join("links.csv");
        write_atomically(&path, &links)?;
        outln!("links written to {}", path.display());
    }
    Ok(())
}

/// Copies a publication's media files from its study's folder to the same relative paths under
/// `studies_dir`.
fn copy_media(p: &Publication, studies_dir: &Path) -> Result<(), ExitCode> {
    for src in &p.media {
        let from = p.source.parent().unwrap_or(Path::new(".")).join(src);
        let to = studies_dir.join(src);
        let copied = to
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::copy(&from, &to));
        if let Err(e) = copied {
            errln!("{}: cannot copy to {}: {e}", from.display(), to.display());
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}
