//! `juror publish`: the studies a site serves, blinded (sealed, plans computed, attention
//! checks kept in the key), written with their media under SITE/studies/, their keys apart,
//! and optionally a link per annotator slot.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use juror_core::study::Study;
use juror_core::study::raw::RawStudy;
use juror_core::study::seal;

use super::links::platform;
use crate::files::{load_raw, pretty, report, write_atomically};

/// Publish studies for annotators, blinded: each study is sealed (system ids become tokens,
/// attention-check answers move to the key) and written with its media under
/// SITE/studies/; the keys go only to KEYS. With --base-url, one link per annotator slot is
/// printed and written to KEYS/links.csv. Refuses a study whose text names a system, and
/// never overwrites a key.
#[derive(clap::Args)]
pub struct Args {
    /// The original studies (keep them private, with the keys).
    #[arg(required = true)]
    studies: Vec<PathBuf>,
    /// The site folder: sealed studies and media go to SITE/studies/ (`assets` in this
    /// repository, which Trunk publishes as `studies/`).
    #[arg(long)]
    site: PathBuf,
    /// The private folder for the keys (one STUDY.key.json per study) and links.csv.
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
    /// How many slots' plans to publish for a study without an `assignment` (default: the
    /// smallest whole number of counterbalancing periods, the rows of its Williams design,
    /// that is 12 or more); a study with one publishes its own slots.
    #[arg(long)]
    slots: Option<u32>,
}

/// One study of `juror publish`, checked and sealed, before anything is written.
struct Publication {
    source: PathBuf,
    file_name: String,
    study: Study,
    sealed: RawStudy,
    key: juror_core::study::seal::SealKey,
    key_path: PathBuf,
    media: Vec<String>,
}

/// `juror publish`: checks every study first (valid, no system named in its text unless
/// allowed, media present inside its folder, no key already there, no two with one file name)
/// and writes nothing unless all pass (exit 1, or 2 for an existing key or an I/O error). Then
/// for each study: the key, the sealed study, its media; and links.csv with --base-url (and the
/// platform's placeholders, if one is named).
pub fn run(args: Args) -> ExitCode {
    let platform = match platform(args.platform.as_deref()) {
        Ok(platform) => platform,
        Err(code) => return code,
    };
    let links_to = args.base_url.as_deref().map(|base| (base, platform));
    let (studies, site, keys) = (&args.studies, args.site.as_path(), args.keys.as_path());
    let (allow_named, slots) = (args.allow_named, args.slots);

    let mut publications: Vec<Publication> = Vec::new();
    let mut refused = false;
    for source in studies {
        let raw = match load_raw(source) {
            Ok(raw) => raw,
            Err(code) => return code,
        };
        let Ok(original) = juror_core::study::validate(&raw) else {
            return ExitCode::FAILURE;
        };
        if seal::is_sealed(&raw.systems) {
            errln!(
                "{}: already sealed (its systems are tokens); publish the original study, so \
                 that the key is written",
                source.display()
            );
            refused = true;
            continue;
        }
        for (path, system) in seal::mentions(&raw) {
            let what = if allow_named { "warning" } else { "refused" };
            errln!(
                "{what}: {}: {path} names system \"{system}\"; sealing cannot hide that: reword it{}",
                source.display(),
                if allow_named {
                    ""
                } else {
                    " (or pass --allow-named)"
                }
            );
            refused |= !allow_named;
        }
        let Some(file_name) = source.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            errln!("{}: not a file name", source.display());
            return ExitCode::from(2);
        };
        if publications.iter().any(|p| p.file_name == file_name) {
            errln!(
                "{}: another study given is also named {file_name}; they would overwrite each other in {}",
                source.display(),
                site.join("studies").display()
            );
            refused = true;
        }
        let stem = file_name.trim_end_matches(".json");
        let key_path = keys.join(format!("{stem}.key.json"));
        if key_path.exists() {
            errln!(
                "{}: a key is already there; overwriting it would lose the way to unblind the \
                 ratings of the study published with it. Move it away, or publish under another \
                 file name.",
                key_path.display()
            );
            return ExitCode::from(2);
        }
        let mut media = Vec::new();
        let owners = raw
            .items
            .iter()
            .filter_map(|i| Some((format!("item \"{}\"", i.id), i.media.as_ref()?)))
            .chain(raw.rubric.examples.iter().enumerate().filter_map(|(k, e)| {
                Some((format!("worked example {}", k + 1), e.media.as_ref()?))
            }));
        for (owner, m) in owners {
            let inside = Path::new(&m.src)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            let from = source.parent().unwrap_or(Path::new(".")).join(&m.src);
            if !inside {
                errln!(
                    "{}: {owner}: media \"{}\" is outside the study's folder; move it into \
                     the folder (for example media/) and give a path relative to the study",
                    source.display(),
                    m.src
                );
                refused = true;
            } else if !from.is_file() {
                errln!(
                    "{}: {owner}: media {} is missing",
                    source.display(),
                    from.display()
                );
                refused = true;
            } else if !media.contains(&m.src) {
                media.push(m.src.clone());
            }
        }
        let mut secret = [0u8; 32];
        if let Err(e) = getrandom::fill(&mut secret) {
            errln!("no source of randomness: {e}");
            return ExitCode::from(2);
        }
        let n = match (juror_core::plan::slots(&original), slots) {
            (Some(fixed), Some(asked)) if fixed != asked => {
                errln!(
                    "{}: --slots {asked}, but the study's assignment fixes {fixed} slots",
                    source.display()
                );
                return ExitCode::from(2);
            }
            (Some(fixed), _) => fixed,
            (None, Some(0)) => {
                errln!("--slots 0: give the number of annotator links to publish");
                return ExitCode::from(2);
            }
            (None, Some(asked)) => asked,
            // One counterbalancing period at least, and enough plans (12 or more, a whole
            // number of periods) that annotators met by id are spread over varied orders.
            (None, None) => {
                let period = juror_core::plan::period(&original);
                period * 12u32.div_ceil(period)
            }
        };
        let (sealed, key) = seal::publish(&raw, &original, &secret, n);
        let study = match juror_core::study::validate(&sealed) {
            Ok(study) => study,
            Err(problems) => return report(source, &problems),
        };
        publications.push(Publication {
            source: source.clone(),
            file_name,
            study,
            sealed,
            key,
            key_path,
            media,
        });
    }
    if refused {
        errln!("nothing was published");
        return ExitCode::FAILURE;
    }

    let studies_dir = site.join("studies");
    for dir in [keys, studies_dir.as_path()] {
        if let Err(e) = std::fs::create_dir_all(dir) {
            errln!("{}: cannot create the folder: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    let mut links = String::from("study,slot,url\n");
    for p in &publications {
        // The key first: a published study without its key could never be unblinded.
        if let Err(code) = write_atomically(&p.key_path, &pretty(&p.key)) {
            return code;
        }
        let out = studies_dir.join(&p.file_name);
        if let Err(code) = write_atomically(&out, &pretty(&p.sealed)) {
            return code;
        }
        for src in &p.media {
            let from = p.source.parent().unwrap_or(Path::new(".")).join(src);
            let to = studies_dir.join(src);
            let copied = to
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::copy(&from, &to));
            if let Err(e) = copied {
                errln!("{}: cannot copy to {}: {e}", from.display(), to.display());
                return ExitCode::from(2);
            }
        }
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
            let path = format!("studies/{}", p.file_name);
            for (slot, url) in juror_core::plan::platform_links(&p.study, base, &path, platform) {
                outln!("  slot {slot}: {url}");
                links.push_str(&juror_core::analysis::csv::line(&[
                    p.study.id().to_owned(),
                    slot.to_string(),
                    url,
                ]));
            }
        }
    }
    if links_to.is_some() {
        let path = keys.join("links.csv");
        if let Err(code) = write_atomically(&path, &links) {
            return code;
        }
        outln!("links written to {}", path.display());
    }
    ExitCode::SUCCESS
}
