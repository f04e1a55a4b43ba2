//! The analysis plan's choices on the Analyse page: the same overrides as `juror analyze`'s
//! flags (`--unit`, `--anchor`, `--pairs`, `--all-pairs`, `--alternative`, `--tests`,
//! `--correction`, `--family`, `--margin`, `--by-group`, `--by-intake`), each defaulting to the plan the
//! study (or its key) pre-registers. Any change makes the report exploratory, and the page says
//! so.

use juror_core::analysis::plan::Alternative;
use juror_core::analysis::plan::{
    AnalysisPlan, Comparisons, Correction, Family, Overrides, Test, Unit, parse_pairs,
};
use juror_core::analysis::run::PlanContext;
use leptos::prelude::*;

/// The plan's choices; `systems` are those an anchor or a pair may name (the study's or key's,
/// else the report's).
#[component]
pub fn PlanChoices(
    context: Memo<PlanContext>,
    systems: Signal<Vec<String>>,
    overrides: RwSignal<Overrides>,
) -> impl IntoView {
    let base = move || context.with(|c| c.base.clone());
    let pairs_text = RwSignal::new(String::new());
    let pairs_error: RwSignal<Option<String>> = RwSignal::new(None);
    let margin_error: RwSignal<Option<String>> = RwSignal::new(None);
    let changed = move || overrides.with(|o| !o.is_empty());
    let status = move || {
        let source = context.with(|c| c.source);
        if changed() {
            "Exploratory: the plan is changed here; the report says which parts.".to_owned()
        } else {
            match source {
                "study" => "Following the plan the study file pre-registers.".to_owned(),
                "key" => "Following the plan kept in the seal key.".to_owned(),
                _ => "Following the default plan (the study file has no analysis section)."
                    .to_owned(),
            }
        }
    };
    let reset = move |_| {
        overrides.set(Overrides::default());
        pairs_text.set(String::new());
        pairs_error.set(None);
        margin_error.set(None);
    };

    let comparisons_value = move || {
        overrides.with(|o| match &o.comparisons {
            None => String::new(),
            Some(Comparisons::All) => "all".to_owned(),
            Some(Comparisons::Anchor(a)) => format!("anchor:{a}"),
            Some(Comparisons::Pairs(_)) => "pairs".to_owned(),
        })
    };
    let set_comparisons = move |value: String| {
        pairs_error.set(None);
        let chosen = match value.as_str() {
            "" => None,
            "all" => Some(Comparisons::All),
            "pairs" => match parse_pairs(&pairs_text.get_untracked()) {
                Ok(pairs) => Some(Comparisons::Pairs(pairs)),
                Err(_) => {
                    // Wait for the pairs to be written.
                    pairs_error.set(Some("Write the pairs below, as A:B, C:D.".to_owned()));
                    return;
                }
            },
            other => other
                .strip_prefix("anchor:")
                .map(|a| Comparisons::Anchor(a.to_owned())),
        };
        overrides.update(|o| o.comparisons = chosen);
    };
    let on_pairs = move |text: String| {
        pairs_text.set(text.clone());
        match parse_pairs(&text) {
            Ok(pairs) => {
                pairs_error.set(None);
                overrides.update(|o| o.comparisons = Some(Comparisons::Pairs(pairs)));
            }
            Err(message) => pairs_error.set(Some(format!("Pairs: {message}."))),
        }
    };
    let on_margin = move |text: String| {
        let text = text.trim().to_owned();
        if text.is_empty() {
            margin_error.set(None);
            overrides.update(|o| o.margin = None);
            return;
        }
        match text.parse::<f64>() {
            Ok(m) if m.is_finite() && m > 0.0 => {
                margin_error.set(None);
                overrides.update(|o| o.margin = Some(m));
            }
            _ => margin_error.set(Some(
                "Margin: give a positive number on the rating scale, such as 0.5.".to_owned(),
            )),
        }
    };

    view! {
        <details class="plan-choices">
            <summary>"Analysis plan"</summary>
            <p class="plan-status" role="status">{status}</p>
            <div class="plan-grid">
                <Choice
                    label="Unit of analysis"
                    planned=Signal::derive(move || unit_text(base().unit).to_owned())
                    options=vec![("item", "Items (each item's mean)"), ("annotator", "Annotators (each annotator's mean)")]
                    value=Signal::derive(move || overrides.with(|o| o.unit.map_or("", unit_word).to_owned()))
                    on_change=Callback::new(move |v: String| overrides.update(|o| o.unit = match v.as_str() {
                        "item" => Some(Unit::Item),
                        "annotator" => Some(Unit::Annotator),
                        _ => None,
                    }))
                />
                <label>
                    <span>"Comparisons"</span>
                    <select
                        prop:value=comparisons_value
                        on:change=move |ev| set_comparisons(event_target_value(&ev))
                    >
                        <option value="">{move || format!("As planned: {}", comparisons_text(&base()))}</option>
                        <option value="all">"Every pair of systems"</option>
                        {move || systems.get().into_iter().map(|s| view! {
                            <option value=format!("anchor:{s}")>{format!("{s} against each other system")}</option>
                        }).collect_view()}
                        <option value="pairs">"These pairs…"</option>
                    </select>
                </label>
                <Show when=move || comparisons_value() == "pairs" || pairs_error.with(Option::is_some)>
                    <label>
                        <span>"Pairs (A:B, C:D)"</span>
                        <input
                            type="text"
                            prop:value=move || pairs_text.get()
                            on:change=move |ev| on_pairs(event_target_value(&ev))
                        />
                    </label>
                </Show>
                <Choice
                    label="Alternative (A relative to B)"
                    planned=Signal::derive(move || alternative_word(base().alternative).to_owned())
                    options=vec![("two-sided", "Two-sided (A ≠ B)"), ("greater", "Greater (A > B)"), ("less", "Less (A < B)")]
                    value=Signal::derive(move || overrides.with(|o| o.alternative.map_or("", alternative_word).to_owned()))
                    on_change=Callback::new(move |v: String| overrides.update(|o| o.alternative = match v.as_str() {
                        "two-sided" => Some(Alternative::TwoSided),
                        "greater" => Some(Alternative::Greater),
                        "less" => Some(Alternative::Less),
                        _ => None,
                    }))
                />
                <Choice
                    label="Tests (the first is corrected)"
                    planned=Signal::derive(move || tests_text(&base().tests))
                    options=vec![("wilcoxon,t", "Wilcoxon, then t"), ("t,wilcoxon", "t, then Wilcoxon"), ("wilcoxon", "Wilcoxon only"), ("t", "t only")]
                    value=Signal::derive(move || overrides.with(|o| o.tests.as_deref().map_or(String::new(), tests_word)))
                    on_change=Callback::new(move |v: String| overrides.update(|o| o.tests = (!v.is_empty()).then(|| {
                        v.split(',').map(|t| if t == "t" { Test::T } else { Test::Wilcoxon }).collect()
                    })))
                />
                <Choice
                    label="Correction"
                    planned=Signal::derive(move || correction_text(base().correction).to_owned())
                    options=vec![("holm", "Holm"), ("bonferroni", "Bonferroni"), ("none", "None")]
                    value=Signal::derive(move || overrides.with(|o| o.correction.map_or("", correction_word).to_owned()))
                    on_change=Callback::new(move |v: String| overrides.update(|o| o.correction = match v.as_str() {
                        "holm" => Some(Correction::Holm),
                        "bonferroni" => Some(Correction::Bonferroni),
                        "none" => Some(Correction::None),
                        _ => None,
                    }))
                />
                <Choice
                    label="Corrected over"
                    planned=Signal::derive(move || family_text(base().family).to_owned())
                    options=vec![("plan", "The whole plan"), ("dimension", "Each dimension")]
                    value=Signal::derive(move || overrides.with(|o| o.family.map_or("", family_word).to_owned()))
                    on_change=Callback::new(move |v: String| overrides.update(|o| o.family = match v.as_str() {
                        "plan" => Some(Family::Plan),
                        "dimension" => Some(Family::Dimension),
                        _ => None,
                    }))
                />
                <Choice
                    label="Per item group"
                    planned=Signal::derive(move || if base().by_group { "yes" } else { "no" }.to_owned())
                    options=vec![("yes", "Yes"), ("no", "No")]
                    value=Signal::derive(move || overrides.with(|o| match o.by_group {
                        Some(true) => "yes",
                        Some(false) => "no",
                        None => "",
                    }.to_owned()))
                    on_change=Callback::new(move |v: String| overrides.update(|o| o.by_group = match v.as_str() {
                        "yes" => Some(true),
                        "no" => Some(false),
                        _ => None,
                    }))
                />
                <Show when=move || context.with(|c| !c.intake.is_empty())>
                    <label>
                        <span>"Per answer to an intake question"</span>
                        <select
                            prop:value=move || overrides.with(|o| o.by_intake.clone().unwrap_or_default())
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                overrides.update(|o| o.by_intake = (!v.is_empty()).then_some(v));
                            }
                        >
                            <option value="">
                                {move || format!("As planned: {}", base().by_intake.unwrap_or_else(|| "no".to_owned()))}
                            </option>
                            {move || context.with(|c| c.intake.clone()).into_iter().map(|q| view! {
                                <option value=q.clone()>{q.clone()}</option>
                            }).collect_view()}
                        </select>
                    </label>
                </Show>
                <label>
                    <span>"Non-inferiority margin, every comparison"</span>
                    <input
                        type="number"
                        min="0"
                        step="0.05"
                        inputmode="decimal"
                        placeholder="none"
                        prop:value=move || overrides.with(|o| o.margin.map(|m| m.to_string()).unwrap_or_default())
                        on:change=move |ev| on_margin(event_target_value(&ev))
                    />
                </label>
            </div>
            {move || {
                let errors: Vec<String> = [pairs_error.get(), margin_error.get()].into_iter().flatten().collect();
                (!errors.is_empty()).then(|| view! {
                    <p class="error" role="alert">{errors.join(" ")}</p>
                })
            }}
            <button type="button" class="secondary small" on:click=reset disabled=move || !changed()>
                "Back to the pre-registered plan"
            </button>
        </details>
    }
}

/// One choice: "As planned: …" (no override), then `options` (value, text).
#[component]
fn Choice(
    label: &'static str,
    planned: Signal<String>,
    options: Vec<(&'static str, &'static str)>,
    value: Signal<String>,
    on_change: Callback<String>,
) -> impl IntoView {
    view! {
        <label>
            <span>{label}</span>
            <select prop:value=move || value.get() on:change=move |ev| on_change.run(event_target_value(&ev))>
                <option value="">{move || format!("As planned: {}", planned.get())}</option>
                {options.into_iter().map(|(v, text)| view! { <option value=v>{text}</option> }).collect_view()}
            </select>
        </label>
    }
}

fn unit_word(u: Unit) -> &'static str {
    match u {
        Unit::Item => "item",
        Unit::Annotator => "annotator",
    }
}

fn unit_text(u: Unit) -> &'static str {
    match u {
        Unit::Item => "items",
        Unit::Annotator => "annotators",
    }
}

fn alternative_word(a: Alternative) -> &'static str {
    match a {
        Alternative::TwoSided => "two-sided",
        Alternative::Greater => "greater",
        Alternative::Less => "less",
    }
}

fn tests_word(tests: &[Test]) -> String {
    let words: Vec<&str> = tests
        .iter()
        .map(|t| match t {
            Test::T => "t",
            Test::Wilcoxon => "wilcoxon",
        })
        .collect();
    words.join(",")
}

fn tests_text(tests: &[Test]) -> String {
    let words: Vec<&str> = tests
        .iter()
        .map(|t| match t {
            Test::T => "t",
            Test::Wilcoxon => "Wilcoxon",
        })
        .collect();
    words.join(", then ")
}

fn correction_word(c: Correction) -> &'static str {
    match c {
        Correction::Holm => "holm",
        Correction::Bonferroni => "bonferroni",
        Correction::None => "none",
    }
}

fn correction_text(c: Correction) -> &'static str {
    match c {
        Correction::Holm => "Holm",
        Correction::Bonferroni => "Bonferroni",
        Correction::None => "none",
    }
}

fn family_word(f: Family) -> &'static str {
    match f {
        Family::Plan => "plan",
        Family::Dimension => "dimension",
    }
}

fn family_text(f: Family) -> &'static str {
    match f {
        Family::Plan => "the whole plan",
        Family::Dimension => "each dimension",
    }
}

fn comparisons_text(plan: &AnalysisPlan) -> String {
    match &plan.comparisons {
        Comparisons::All => "every pair".to_owned(),
        Comparisons::Anchor(a) => format!("{a} against each other system"),
        Comparisons::Pairs(pairs) => {
            let list: Vec<String> = pairs.iter().map(|(a, b)| format!("{a}:{b}")).collect();
            list.join(", ")
        }
    }
}
