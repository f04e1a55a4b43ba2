//! The wide table (`juror analyze --format wide`): one row per annotator and item, a column per
//! dimension and output, then what the annotator preferred and their notes, as rating sheets
//! are laid out by hand ("Rel-A … Rel-D, Comp-A … Comp-D, Preferred, NOTES").
//!
//! An output's column is named by the letter of its position when the annotator saw the item's
//! outputs together in one trial (side by side: `relevance-A`), with `system-A` … saying which
//! system each letter was; otherwise (each output rated alone, or over several trials) by its
//! system (`relevance-base`). Preferences are written the same way: a letter, or a system, or
//! `tie`; several (one per pair) joined by `; `.

use std::collections::BTreeMap;

use crate::analysis::data::{Data, number};
use crate::base::csv;
use crate::stats::preference::Outcome;

/// The letter of a position from 1 (`A` for 1), or the number past `Z`.
fn letter(position: u32) -> String {
    match u8::try_from(position) {
        Ok(p @ 1..=26) => char::from(b'A' + p - 1).to_string(),
        _ => position.to_string(),
    }
}

/// One row in the making.
#[derive(Default)]
struct Row {
    /// (dimension, system) → (position, score).
    scores: BTreeMap<(String, String), (Option<u32>, f64)>,
    preferred: Vec<String>,
    notes: Vec<String>,
}

impl Row {
    /// System → letter, when every output was seen in one trial at a position of its own.
    fn letters(&self) -> Option<BTreeMap<String, String>> {
        let mut by_system: BTreeMap<String, u32> = BTreeMap::new();
        for ((_, system), (position, _)) in &self.scores {
            let p = (*position)?;
            if *by_system.entry(system.clone()).or_insert(p) != p {
                return None;
            }
        }
        let mut positions: Vec<u32> = by_system.values().copied().collect();
        positions.sort_unstable();
        positions.dedup();
        (positions.len() == by_system.len() && by_system.len() > 1)
            .then(|| by_system.into_iter().map(|(s, p)| (s, letter(p))).collect())
    }
}

/// The wide table of `data`, rows by annotator then item (byte order); columns by dimension
/// (those of `order` first, as the report orders them, then the others as they appear), then
/// outputs by letter or system.
pub fn to_wide_csv(data: &Data, order: &[String]) -> String {
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    let mut dimensions: Vec<String> = order.to_vec();
    for r in &data.ratings {
        if !dimensions
            .iter()
            .any(|d| d.as_str() == r.dimension.as_str())
        {
            dimensions.push(r.dimension.to_string());
        }
        let row = rows
            .entry((r.annotator.to_string(), r.item.to_string()))
            .or_default();
        row.scores
            .entry((r.dimension.to_string(), r.system.to_string()))
            .or_insert((r.position, r.score));
    }
    let letters: BTreeMap<(String, String), BTreeMap<String, String>> = rows
        .iter()
        .filter_map(|(k, row)| Some((k.clone(), row.letters()?)))
        .collect();
    let name = |key: &(String, String), system: &str| {
        letters
            .get(key)
            .and_then(|l| l.get(system))
            .cloned()
            .unwrap_or_else(|| system.to_owned())
    };
    for p in data.preferences.iter().filter(|p| !p.derived) {
        let key = (p.annotator.to_string(), p.item.to_string());
        let chosen = match p.outcome {
            Outcome::A => name(&key, &p.system_a),
            Outcome::B => name(&key, &p.system_b),
            Outcome::Tie => "tie".to_owned(),
        };
        rows.entry(key).or_default().preferred.push(chosen);
    }
    for c in &data.choices {
        let key = (c.annotator.clone(), c.item.clone());
        let chosen = c.kind.describe(|s| name(&key, s));
        rows.entry(key).or_default().preferred.push(chosen);
    }
    for a in data.answers.iter().filter(|a| a.question == "notes") {
        if let Some(item) = &a.item {
            let key = (a.annotator.clone(), item.clone());
            rows.entry(key).or_default().notes.push(a.value.clone());
        }
    }
    // The columns: every (dimension, output name) some row has, letters first.
    let mut outputs: Vec<String> = Vec::new();
    for (key, row) in &rows {
        for (_, system) in row.scores.keys() {
            let n = name(key, system);
            if !outputs.contains(&n) {
                outputs.push(n);
            }
        }
    }
    outputs.sort_by_key(|o| (o.chars().count() != 1, o.clone()));
    let lettered: Vec<&String> = outputs.iter().filter(|o| o.chars().count() == 1).collect();
    let mut header: Vec<String> = vec!["annotator_id".into(), "item_id".into()];
    header.extend(lettered.iter().map(|l| format!("system-{l}")));
    for d in &dimensions {
        header.extend(outputs.iter().map(|o| format!("{d}-{o}")));
    }
    header.extend(["preferred".into(), "notes".into()]);
    let mut out = csv::line(&header);
    for (key, row) in &rows {
        let mut fields = vec![key.0.clone(), key.1.clone()];
        let systems = letters.get(key);
        for l in &lettered {
            let system = systems
                .and_then(|m| m.iter().find(|(_, v)| v == l).map(|(s, _)| s.clone()))
                .unwrap_or_default();
            fields.push(system);
        }
        for d in &dimensions {
            for o in &outputs {
                let score = row
                    .scores
                    .iter()
                    .find(|((dim, system), _)| dim == d && name(key, system) == *o)
                    .map(|(_, (_, s))| number(*s))
                    .unwrap_or_default();
                fields.push(score);
            }
        }
        fields.push(row.preferred.join("; "));
        fields.push(row.notes.join("; "));
        out.push_str(&csv::line(&fields));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Context, Input, read};

    fn data(csv: &str) -> Data {
        let context = Context {
            study: None,
            key: None,
            reveal_ids: false,
        };
        read(&[Input::new("t.csv", csv)], &context)
    }

    #[test]
    fn outputs_seen_together_are_columns_by_letter_with_their_systems() {
        let d = data(
            "item_id,system_id,annotator_id,dimension,score,position\n\
             q1,base,ann1,rel,3,2\nq1,ours,ann1,rel,5,1\nq1,base,ann1,comp,2,2\n\
             q1,ours,ann1,comp,4,1\nq2,base,ann1,rel,4,1\nq2,ours,ann1,rel,2,2\n",
        );
        let wide = to_wide_csv(&d, &["rel".to_owned()]);
        let lines: Vec<&str> = wide.lines().collect();
        assert_eq!(
            lines[0],
            "annotator_id,item_id,system-A,system-B,rel-A,rel-B,comp-A,comp-B,preferred,notes"
        );
        assert_eq!(lines[1], "ann1,q1,ours,base,5,3,4,2,,");
        assert_eq!(lines[2], "ann1,q2,base,ours,4,2,,,,");
    }

    #[test]
    fn outputs_rated_alone_are_columns_by_system_and_preferences_name_the_winner() {
        let mut d = data(
            "item_id,system_id,annotator_id,dimension,score\n\
             q1,base,ann1,quality,3\nq1,ours,ann1,quality,5\n",
        );
        d.preferences = data(
            "item_id,system_a,system_b,annotator_id,preference\nq1,base,ours,ann1,b\nq2,base,ours,ann2,tie\n",
        )
        .preferences;
        let wide = to_wide_csv(&d, &[]);
        let lines: Vec<&str> = wide.lines().collect();
        assert_eq!(
            lines[0],
            "annotator_id,item_id,quality-base,quality-ours,preferred,notes"
        );
        assert_eq!(lines[1], "ann1,q1,3,5,ours,");
        assert_eq!(lines[2], "ann2,q2,,,tie,");
    }
}
