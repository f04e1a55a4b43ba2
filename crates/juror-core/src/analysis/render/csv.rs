//! The CSV the analysis writes: the tidy tables (which [`crate::analysis::read`] reads back)
//! and the adjudication sheet of a report's flagged cells.

use crate::analysis::adjudication::RESOLVED;
use crate::analysis::data::{CHOICE_SEPARATOR, Data, number, preference_name};
use crate::analysis::read::tidy_csv::{LIKERT, PAIRWISE, SPANS};
use crate::analysis::report::{Flag, Report};
use crate::base::csv;
use crate::session::CANNOT_JUDGE;

/// The tidy tables as one CSV that `read` reads back: the Likert columns when there are only
/// ratings, the pairwise columns when there are only preferences, both when there are both;
/// the span columns (`start,end,severity,category,length`) when there are error spans (a span
/// row leaves `dimension`, `score` and `preference` empty; the span columns alone when there is
/// nothing else); `round`, `position` and `shown_first` when some row has one; then
/// `source_file` and `source_at`, the provenance of each row.
pub fn to_csv(data: &Data) -> String {
    let header = header(data);
    let mut out = csv::line(&header);
    for row in &data.ratings {
        let values = [
            ("item_id", row.item.to_string()),
            ("system_id", row.system.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("dimension", row.dimension.to_string()),
            ("score", number(row.score)),
            ("round", row.round.map(number).unwrap_or_default()),
            (
                "position",
                row.position.map(|p| p.to_string()).unwrap_or_default(),
            ),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ];
        out.push_str(&line(&header, values));
    }
    for row in &data.preferences {
        let values = [
            ("item_id", row.item.to_string()),
            ("system_a", row.system_a.to_string()),
            ("system_b", row.system_b.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("preference", preference_name(row)),
            (
                "shown_first",
                match row.a_first {
                    Some(true) => "a".to_owned(),
                    Some(false) => "b".to_owned(),
                    None => String::new(),
                },
            ),
            (
                "derived",
                if row.derived { "choice" } else { "" }.to_owned(),
            ),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ];
        out.push_str(&line(&header, values));
    }
    for row in &data.skips {
        let system = |i: usize| {
            row.systems
                .get(i)
                .map(|s| s.to_string())
                .unwrap_or_default()
        };
        let pair = row.systems.len() == 2;
        let values = [
            ("item_id", row.item.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ]
        .into_iter()
        .chain(if pair {
            [
                ("system_a", system(0)),
                ("system_b", system(1)),
                ("preference", CANNOT_JUDGE.to_owned()),
            ]
        } else {
            [
                ("system_id", system(0)),
                ("dimension", row.question.to_string()),
                ("score", CANNOT_JUDGE.to_owned()),
            ]
        });
        out.push_str(&line(&header, values));
    }
    for row in &data.spans {
        let some = |x: Option<u32>| x.map(|v| v.to_string()).unwrap_or_default();
        let values = [
            ("item_id", row.item.to_string()),
            ("system_id", row.system.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("start", some(row.start)),
            ("end", some(row.end)),
            (
                "severity",
                row.severity
                    .map(|s| s.name().to_owned())
                    .unwrap_or_default(),
            ),
            ("category", row.category.clone().unwrap_or_default()),
            ("length", row.length.to_string()),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ];
        out.push_str(&line(&header, values));
    }
    for row in &data.choices {
        let (kind, chosen) = row.kind.encode();
        let values = [
            ("item_id", row.item.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("choice", kind.to_owned()),
            ("shown", row.shown.join(CHOICE_SEPARATOR)),
            ("chosen", chosen),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ];
        out.push_str(&line(&header, values));
    }
    out
}

/// The columns of [`to_csv`]'s table for `data`.
fn header(data: &Data) -> Vec<&'static str> {
    let skips = |pair: bool| data.skips.iter().any(|s| (s.systems.len() == 2) == pair);
    let (r, p) = (
        !data.ratings.is_empty() || skips(false),
        !data.preferences.is_empty() || skips(true),
    );
    let only_spans = !r && !p && data.choices.is_empty() && !data.spans.is_empty();
    let mut header: Vec<&str> = match (r, p) {
        _ if only_spans => SPANS.to_vec(),
        (false, true) => PAIRWISE.to_vec(),
        (true, true) => [&LIKERT[..], &["system_a", "system_b", "preference"]].concat(),
        _ => LIKERT.to_vec(),
    };
    if !data.spans.is_empty() {
        for column in SPANS {
            if !header.contains(&column) {
                header.push(column);
            }
        }
    }
    if data.ratings.iter().any(|r| r.round.is_some()) {
        header.push("round");
    }
    if data.ratings.iter().any(|r| r.position.is_some()) {
        header.push("position");
    }
    if data.preferences.iter().any(|r| r.a_first.is_some()) {
        header.push("shown_first");
    }
    if data.preferences.iter().any(|r| r.derived) {
        header.push("derived");
    }
    if !data.choices.is_empty() {
        header.extend(["choice", "shown", "chosen"]);
    }
    header.extend(["source_file", "source_at"]);
    header
}

/// One line of a table with the columns `header`: each value in its named column (a name the
/// header lacks is dropped), the other fields empty.
fn line<'a>(header: &[&str], values: impl IntoIterator<Item = (&'a str, String)>) -> String {
    let mut fields = vec![String::new(); header.len()];
    for (name, value) in values {
        if let Some(i) = header.iter().position(|h| *h == name) {
            fields[i] = value;
        }
    }
    csv::line(&fields)
}

impl Report {
    /// The flagged cells as an adjudication sheet: `item_id,system_id,dimension,score,expert`
    /// with the score and the expert empty, to fill, followed by what the adjudicator needs
    /// (`n`, `mean`, `sd`, `ratings`, and with the study the item's `prompt`, `context`,
    /// `media` and the system's `output`), which the reader of adjudication files ignores.
    /// Cells already adjudicated keep their experts' scores and their resolved score.
    pub fn adjudication_sheet(&self) -> String {
        self.adjudication_file(|_, flag| flag.adjudicated)
    }

    /// The flagged cells as an adjudication file, in the sheet's columns, with `score(dimension,
    /// flag)` as each cell's resolved score (`None`: not yet adjudicated). A cell without
    /// experts' scores is one row, its score unnamed (empty `expert`); a cell with them is a row
    /// per expert, then a `resolved` row when the resolved score is not the one all the experts
    /// gave. The Analyse page writes the scores entered in it this way.
    pub fn adjudication_file(&self, score: impl Fn(&str, &Flag) -> Option<f64>) -> String {
        let mut out = csv::line(&[
            "item_id",
            "system_id",
            "dimension",
            "score",
            "expert",
            "n",
            "mean",
            "sd",
            "ratings",
            "prompt",
            "context",
            "media",
            "output",
        ]);
        for d in &self.dimensions {
            for f in &d.flags {
                let ratings: Vec<String> = f
                    .ratings
                    .iter()
                    .map(|r| format!("{}={}", r.annotator, number(r.score)))
                    .collect();
                let c = f.context.clone().unwrap_or_default();
                let about = [
                    f.n.to_string(),
                    format!("{:.3}", f.mean),
                    format!("{:.3}", f.sd),
                    ratings.join("; "),
                    c.prompt,
                    c.context.unwrap_or_default(),
                    c.media.map(|m| m.src).unwrap_or_default(),
                    c.output.unwrap_or_default(),
                ];
                let resolved = score(&d.dimension, f);
                let mut rows: Vec<(String, Option<f64>)> = f
                    .experts
                    .iter()
                    .map(|e| (e.expert.clone(), Some(e.score)))
                    .collect();
                let unanimous = f
                    .experts
                    .first()
                    .filter(|first| f.experts.iter().all(|e| e.score == first.score))
                    .map(|e| e.score);
                if rows.is_empty() {
                    rows.push((String::new(), resolved));
                } else if resolved.is_some() && resolved != unanimous {
                    rows.push((RESOLVED.to_owned(), resolved));
                }
                for (expert, value) in rows {
                    let mut fields = vec![
                        f.item.clone(),
                        f.system.clone(),
                        d.dimension.clone(),
                        value.map(number).unwrap_or_default(),
                        expert,
                    ];
                    fields.extend(about.iter().cloned());
                    out.push_str(&csv::line(&fields));
                }
            }
        }
        out
    }
}
